import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, freePort, type TestResponse, type TestService } from './test-service.ts';

export interface ChildService {
  url: string;
  /** Same as TestService.call, against the child process. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string>; key?: string | null },
  ): Promise<TestResponse>;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<'exited'> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve('exited');
    else child.once('exit', () => resolve('exited'));
  });
}

/**
 * Spawns test/support/http-child-service.ts as a separate API process on the database of `service`
 * (same environment unless `env` overrides it, own port), and waits until it answers /api/v1/health.
 */
export async function startChildService(
  service: TestService,
  env: Record<string, string> = {},
): Promise<ChildService> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/http-child-service.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...service.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const done = exited(child);
    const timeout = sleep(10_000, 'timeout', { ref: false });
    if ((await Promise.race([done, timeout])) === 'timeout') child.kill('SIGKILL');
    await done;
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`child service exited (${child.exitCode ?? child.signalCode}): ${stderr}`);
    }
    const ready = await fetch(`${url}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`child service did not start: ${stderr}`);
    }
    await sleep(200);
  }
  return {
    url,
    call: (method, path, options = {}) => call(url, service.account.live_key, method, path, options),
    stdout: () => stdout,
    stderr: () => stderr,
    stop,
  };
}
