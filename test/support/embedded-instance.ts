import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from './test-service.ts';

// Runs the real entry points as `npm start` and `npm run admin` do (the compiled build/cli/serve.js and
// admin.js, which `npm test` brings up to date first) on the embedded PostgreSQL of a DATA_DIR, as an operator
// would, from this checkout or from another folder laid out like it.

const repository = new URL('../..', import.meta.url).pathname;

export interface Instance {
  dataDir: string;
  baseUrl: string;
  env: NodeJS.ProcessEnv;
}

/** An instance on its own DATA_DIR and HTTP port, with no database settings: the embedded default. */
export async function embeddedInstance(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const port = await freePort();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  delete base.DATABASE_URL;
  delete base.TEST_DATABASE_URL;
  delete base.EMBEDDED_PG_PORT;
  return { dataDir, baseUrl: `http://127.0.0.1:${port}`, env: { ...base, ...env } };
}

export interface ServerProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  stderr(): string;
  /** Resolves once /api/v1/health answers; rejects if the process exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function startServer(instance: Instance, cwd = repository): ServerProcess {
  const child = spawn(process.execPath, ['build/cli/serve.js'], {
    cwd,
    env: instance.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = (async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const health = await fetch(`${instance.baseUrl}/api/v1/health`).catch(() => undefined);
      if (health?.ok) return;
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not start: ${output}`);
  })();
  // A server expected to fail is never awaited for readiness: its rejection is not an unhandled one.
  ready.catch(() => {});
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { child, output: () => output, stderr: () => stderr, ready, exited, stop };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function admin(instance: Instance, args: string[], cwd = repository): CliRun {
  const result = spawnSync(process.execPath, ['build/cli/admin.js', ...args], {
    cwd,
    env: instance.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function oneJsonLine(stdout: string): any {
  const lines = stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `expected one line, got: ${stdout}`);
  return JSON.parse(lines[0]!);
}

/** The port PostgreSQL says it listens on: line 4 of postmaster.pid in the cluster of DATA_DIR. */
export async function runningPostgresPort(dataDir: string): Promise<number> {
  const lines = (await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  return Number(lines[3]);
}

/** Removes DATA_DIR and its cluster, which as root lives outside it (DATA_DIR/postgres links to it). */
export async function removeDataDir(dataDir: string): Promise<void> {
  const cluster = await realpath(join(dataDir, 'postgres')).catch(() => undefined);
  if (cluster) await rm(cluster, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
