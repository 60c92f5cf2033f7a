import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// A render longer than the lease keeps its lease alive by heartbeats: it is never handed to a second worker.

let service: TestService;
before(async () => {
  service = await startTestService({ env: { JOB_LEASE_SECONDS: '2', QUEUE_MAINTENANCE_SECONDS: '1' } });
});
after(async () => {
  await service.stop();
});

void test('an attempt running three times its lease is still the only attempt', async () => {
  const response = await service.call('POST', '/api/v1/generate-and-post', {
    body: { topic: 'long render', outcome: 'sleep', sleep_ms: 6000 },
    headers: { 'idempotency-key': 'lease-heartbeat-1' },
  });
  const job = await waitForJob(service, response.body.data.job_id, { timeoutMs: 30_000 });
  assert.equal(job.status, 'completed');
  assert.equal(job.attempts, 1);
  assert.equal(job.progress.filter((p: { stage: string }) => p.stage === 'leased').length, 1);
  assert.ok(!job.progress.some((p: { stage: string }) => p.stage === 'retrying'));
});
