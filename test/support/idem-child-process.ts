import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './test-service.ts';

// Starts test/support/idem-child-service.ts as a separate Node process on a given database.

export interface ChildService {
  url: string;
  stop(): Promise<void>;
}

export async function startChildService(
  env: Record<string, string>,
  readyTimeoutMs = 30_000,
): Promise<ChildService> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-child-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/idem-child-service.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child service not ready after ${readyTimeoutMs} ms: ${stderr}`)),
      readyTimeoutMs,
    );
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      try {
        const message = JSON.parse(line) as { ready?: boolean; url?: string };
        if (message.ready && message.url) {
          clearTimeout(timer);
          resolve(message.url);
        }
      } catch {
        // Not the ready line.
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child service exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
