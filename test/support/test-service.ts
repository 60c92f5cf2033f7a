import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type CreatedAccount } from '../../src/platform/accounts/accounts.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../src/platform/runtime.ts';
import { createTestDatabase } from './test-database.ts';
import { testMode, testPriceBook } from './test-mode.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface TestService {
  runtime: Runtime;
  url: string;
  databaseUrl: string;
  dataDir: string;
  env: Record<string, string>;
  account: CreatedAccount;
  /** fetch against the service with the live key unless headers say otherwise. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string>; key?: string | null },
  ): Promise<TestResponse>;
  newAccount(balanceCents?: number): Promise<CreatedAccount>;
  stop(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestServiceOptions {
  modes?: RuntimeOptions['modes'];
  env?: Record<string, string>;
  http?: boolean;
  worker?: boolean;
  databaseUrl?: string;
  dataDir?: string;
  balanceCents?: number;
}

/** Starts the real service (HTTP, worker, queue) on a fresh database with one funded account. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'reelsmith-test-')));
  const port = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REELSMITH_ALLOW_LOOPBACK_URLS: '1',
    QUEUE_MAINTENANCE_SECONDS: '1',
    JOB_RETRY_DELAY_SECONDS: '1',
    WORKER_CONCURRENCY: '2',
    LIBRARY_SEED: 'on_demand',
    ...(process.env.TEST_LIBRARY_DIR ? { LIBRARY_DIR: process.env.TEST_LIBRARY_DIR } : {}),
    JOB_READS_PER_MINUTE: '1000000',
    METADATA_READS_PER_MINUTE: '1000000',
    ...options.env,
  };
  const config = loadConfig(env);
  const modes = options.modes ?? [testMode()];
  const runtime = await startRuntime({
    config,
    log: createLogger(config.logLevel),
    modes,
    ...(Array.isArray(modes) ? { prices: testPriceBook(modes) } : {}),
    http: options.http ?? true,
    worker: options.worker ?? true,
  });
  const account = await createAccount(runtime.database.db, `test-${port}`, options.balanceCents ?? 100_000);
  const url = `http://127.0.0.1:${port}`;
  return {
    runtime,
    url,
    databaseUrl,
    dataDir,
    env,
    account,
    call: (method, path, callOptions = {}) => call(url, account.live_key, method, path, callOptions),
    newAccount: (balanceCents = 100_000) =>
      createAccount(runtime.database.db, `extra-${Math.random()}`, balanceCents),
    stop: () => runtime.stop({ graceMs: 1000 }),
  };
}

export async function call(
  baseUrl: string,
  defaultKey: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? defaultKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Polls a job until it reaches a final status (a publish job's partial_success too), or `until` returns true. */
export async function waitForJob(
  service: Pick<TestService, 'call'>,
  jobId: string,
  options: { timeoutMs?: number; until?: (job: any) => boolean; key?: string } = {},
): Promise<any> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const done =
    options.until ??
    ((job: any) =>
      ['completed', 'partial_success', 'failed', 'dead_lettered', 'cancelled'].includes(job.status));
  for (;;) {
    const job = await service.call(
      'GET',
      `/api/v1/jobs/${jobId}`,
      options.key !== undefined ? { key: options.key } : {},
    );
    if (job.status === 200 && done(job.body.data.job)) return job.body.data.job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish: ${job.text}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
