import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedService {
  process: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<ChildExit>;
  stderr(): string;
  /** Stops the process if it still runs (SIGTERM, then SIGKILL after 10 s) and waits for its exit. */
  dispose(): Promise<void>;
}

/**
 * Spawns test/support/child-service.ts with `env` (on top of this process's environment) and waits for
 * its "ready" line. Worker-only by default: HTTP off, RUN_WORKER=1.
 */
export async function spawnChildService(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<SpawnedService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/child-service.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, RUN_WORKER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<ChildExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  };
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    void exited.then((exit) =>
      reject(new Error(`child service exited early (${exit.code ?? exit.signal}): ${stderr}`)),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`child service did not start within ${timeoutMs} ms: ${stderr}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    await dispose();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { process: child, exited, stderr: () => stderr, dispose };
}
