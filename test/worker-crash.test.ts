import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spawnChildService, type SpawnedService } from './support/child-process.ts';
import { hangOnceMode } from './support/hook-modes.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Every job here uses hangOnceMode: its first attempt sleeps as long as the request says, later attempts do
// not, so a job that ends `completed` with attempts 2 was really taken over by another worker.

const LEASE_SECONDS = 3;

async function withServices(
  env: Record<string, string>,
  body: (
    api: TestService,
    spawnWorker: (extra?: Record<string, string>) => Promise<SpawnedService>,
    startWorker: () => Promise<TestService>,
  ) => Promise<void>,
): Promise<void> {
  const api = await startTestService({ worker: false, modes: [hangOnceMode()], env });
  const started: { dispose(): Promise<void> }[] = [];
  const workerEnv = { ...api.env, CHILD_MODE: 'hang-once' };
  try {
    await body(
      api,
      async (extra = {}) => {
        const child = await spawnChildService({ ...workerEnv, ...extra });
        started.push(child);
        return child;
      },
      async () => {
        const worker = await startTestService({
          databaseUrl: api.databaseUrl,
          dataDir: api.dataDir,
          http: false,
          worker: true,
          modes: [hangOnceMode()],
          env,
        });
        started.push({ dispose: () => worker.stop() });
        return worker;
      },
    );
  } finally {
    for (const service of started.reverse()) await service.dispose();
    await api.stop();
  }
}

async function submit(api: TestService, sleepMs: number): Promise<string> {
  const response = await api.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `crash ${Math.random()}`, outcome: 'sleep', sleep_ms: sleepMs },
    headers: { 'idempotency-key': `crash-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  return response.body.data.job_id;
}

async function ledgerOf(api: TestService, jobId: string): Promise<{ kind: string; amount_cents: number }[]> {
  const { rows } = await api.runtime.database.pool.query(
    'SELECT kind, amount_cents FROM ledger_entries WHERE job_id = $1 ORDER BY id',
    [jobId],
  );
  return rows;
}

const running = (job: any) => job.status === 'running';
const stages = (job: any): string[] => job.progress.map((p: { stage: string }) => p.stage);

void describe('a worker process killed with SIGKILL mid-job', () => {
  void test('leaves no stuck job: another worker retries it and it completes within the lease time', async () => {
    await withServices(
      { JOB_LEASE_SECONDS: String(LEASE_SECONDS), QUEUE_MAINTENANCE_SECONDS: '1' },
      async (api, spawnWorker, startWorker) => {
        const child = await spawnWorker();
        const jobId = await submit(api, 60_000);
        await waitForJob(api, jobId, { until: running, timeoutMs: 20_000 });
        child.process.kill('SIGKILL');
        assert.deepEqual(await child.exited, { code: null, signal: 'SIGKILL' });
        const killedAt = Date.now();

        await startWorker();
        const job = await waitForJob(api, jobId, { timeoutMs: 30_000 });
        const recoveredInMs = Date.now() - killedAt;
        assert.equal(job.status, 'completed', JSON.stringify(job));
        assert.equal(job.attempts, 2);
        assert.equal(stages(job).filter((s) => s === 'leased').length, 2);
        assert.ok(recoveredInMs < (LEASE_SECONDS + 12) * 1000, `the job took ${recoveredInMs} ms to recover`);
        assert.deepEqual(await ledgerOf(api, jobId), [{ kind: 'charge', amount_cents: -60 }]);
      },
    );
  });

  void test('with JOB_RETRY_LIMIT=0 the job ends dead_lettered with a refund', async () => {
    const env = {
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      QUEUE_MAINTENANCE_SECONDS: '1',
      JOB_RETRY_LIMIT: '0',
    };
    await withServices(env, async (api, spawnWorker, startWorker) => {
      const child = await spawnWorker();
      const jobId = await submit(api, 60_000);
      await waitForJob(api, jobId, { until: running, timeoutMs: 20_000 });
      child.process.kill('SIGKILL');
      await child.exited;
      const killedAt = Date.now();

      await startWorker();
      const job = await waitForJob(api, jobId, { timeoutMs: 30_000 });
      assert.equal(job.status, 'dead_lettered', JSON.stringify(job));
      assert.equal(job.attempts, 1);
      assert.equal(job.error.retryable, true);
      assert.ok(Date.now() - killedAt < (LEASE_SECONDS + 12) * 1000);
      assert.deepEqual(await ledgerOf(api, jobId), [
        { kind: 'charge', amount_cents: -60 },
        { kind: 'refund', amount_cents: 60 },
      ]);
    });
  });
});

void describe('graceful shutdown of a worker process on SIGTERM', () => {
  void test('a short running job completes before the process exits 0', async () => {
    await withServices({}, async (api, spawnWorker) => {
      const child = await spawnWorker({ CHILD_GRACE_MS: '20000' });
      const jobId = await submit(api, 2000);
      await waitForJob(api, jobId, { until: running, timeoutMs: 20_000 });
      child.process.kill('SIGTERM');
      assert.deepEqual(await child.exited, { code: 0, signal: null }, child.stderr());

      const read = await api.call('GET', `/api/v1/jobs/${jobId}`);
      const job = read.body.data.job;
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.attempts, 1);
    });
  });

  void test('a long job is handed back to the queue and finished by another worker', async () => {
    await withServices({}, async (api, spawnWorker, startWorker) => {
      const child = await spawnWorker({ CHILD_GRACE_MS: '1000' });
      const jobId = await submit(api, 60_000);
      await waitForJob(api, jobId, { until: running, timeoutMs: 20_000 });
      child.process.kill('SIGTERM');
      assert.deepEqual(await child.exited, { code: 0, signal: null }, child.stderr());

      const read = await api.call('GET', `/api/v1/jobs/${jobId}`);
      const handedBack = read.body.data.job;
      assert.equal(handedBack.status, 'queued', JSON.stringify(handedBack));
      assert.equal(stages(handedBack).at(-1), 'requeued');

      await startWorker();
      const job = await waitForJob(api, jobId, { timeoutMs: 20_000 });
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.attempts, 2);
      assert.deepEqual(await ledgerOf(api, jobId), [{ kind: 'charge', amount_cents: -60 }]);
    });
  });
});
