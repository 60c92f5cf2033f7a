import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { spawnChildService } from './support/child-process.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';
import { jobLedger } from './support/job-ledger.ts';

const LIFETIME_SECONDS = 2;
const env = { JOB_MAX_LIFETIME_SECONDS: String(LIFETIME_SECONDS) };

async function submit(service: TestService, body: Record<string, unknown>): Promise<string> {
  const response = await service.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `lifetime ${Math.random()}`, ...body },
    headers: { 'idempotency-key': `lifetime-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  return response.body.data.job_id;
}

function assertTimedOut(job: any): void {
  assert.equal(job.status, 'failed', JSON.stringify(job));
  assert.equal(job.error.code, 'PROCESS_TIMEOUT');
  assert.equal(job.error.retryable, true);
  assert.equal(typeof job.error.message, 'string');
  assert.equal(job.progress.at(-1).stage, 'failed');
}

void describe('maximum job lifetime', () => {
  void test('a running job past its lifetime ends failed with PROCESS_TIMEOUT and is refunded once', async () => {
    const service = await startTestService({ env });
    try {
      const usage = await service.call('GET', '/api/v1/usage');
      const balanceBefore = usage.body.data.balance_usd_cents;
      const started = Date.now();
      const jobId = await submit(service, { outcome: 'sleep', sleep_ms: 30_000 });
      await waitForJob(service, jobId, { until: (job) => job.status === 'running' });
      const job = await waitForJob(service, jobId, { timeoutMs: 15_000 });
      assertTimedOut(job);
      assert.ok(
        Date.now() - started < (LIFETIME_SECONDS + 6) * 1000,
        'the job was stopped near its deadline, not after its 30 s sleep',
      );
      assert.ok(
        !job.progress.some((p: { stage: string }) => p.stage === 'render'),
        'the pipeline was stopped mid-sleep',
      );

      // Whoever noticed the deadline (the worker's own timer or the reaper), there is exactly one refund.
      await sleep(2000);
      assert.deepEqual(await jobLedger(service, jobId), [
        { kind: 'charge', amount_cents: -60 },
        { kind: 'refund', amount_cents: 60 },
      ]);
      const after = await service.call('GET', '/api/v1/usage');
      assert.equal(after.body.data.balance_usd_cents, balanceBefore);
    } finally {
      await service.stop();
    }
  });

  void test('a job still queued past its deadline is failed with PROCESS_TIMEOUT by a worker that starts later', async () => {
    const api = await startTestService({ env, worker: false });
    let worker: TestService | undefined;
    try {
      const jobId = await submit(api, { outcome: 'succeed' });
      await sleep((LIFETIME_SECONDS + 1) * 1000);
      const waiting = await api.call('GET', `/api/v1/jobs/${jobId}`);
      assert.equal(waiting.body.data.job.status, 'queued', 'no worker exists yet');

      worker = await startTestService({
        databaseUrl: api.databaseUrl,
        dataDir: api.dataDir,
        http: false,
        worker: true,
        env,
      });
      const job = await waitForJob(api, jobId, { timeoutMs: 15_000 });
      assertTimedOut(job);
      assert.equal(job.artifacts.videoUrl, undefined, 'an overdue job is not rendered');
      assert.ok(!job.progress.some((p: { stage: string }) => p.stage === 'render'));
      await sleep(1500);
      assert.deepEqual(await jobLedger(api, jobId), [
        { kind: 'charge', amount_cents: -60 },
        { kind: 'refund', amount_cents: 60 },
      ]);
    } finally {
      await worker?.stop();
      await api.stop();
    }
  });

  void test('a job left running by a dead worker is failed with PROCESS_TIMEOUT by another worker at its deadline, not at its lease', async () => {
    const api = await startTestService({ env: { ...env, JOB_LEASE_SECONDS: '600' }, worker: false });
    let worker: TestService | undefined;
    const child = await spawnChildService({ ...api.env });
    try {
      const jobId = await submit(api, { outcome: 'sleep', sleep_ms: 60_000 });
      await waitForJob(api, jobId, { until: (job) => job.status === 'running', timeoutMs: 20_000 });
      child.process.kill('SIGKILL');
      await child.exited;

      worker = await startTestService({
        databaseUrl: api.databaseUrl,
        dataDir: api.dataDir,
        http: false,
        worker: true,
        env: { ...env, JOB_LEASE_SECONDS: '600' },
      });
      const job = await waitForJob(api, jobId, { timeoutMs: 15_000 });
      assertTimedOut(job);
      assert.equal(job.attempts, 1, 'the queue did not hand the job out again: the lease is 10 minutes');
      await sleep(1500);
      assert.deepEqual(await jobLedger(api, jobId), [
        { kind: 'charge', amount_cents: -60 },
        { kind: 'refund', amount_cents: 60 },
      ]);
    } finally {
      await child.dispose();
      await worker?.stop();
      await api.stop();
    }
  });
});
