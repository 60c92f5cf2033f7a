import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

const submit = (body: Record<string, unknown>, key = `key-${Math.random()}`) =>
  service.call('POST', '/api/v1/generate-and-post', { body, headers: { 'idempotency-key': key } });

async function balance(): Promise<number> {
  const usage = await service.call('GET', '/api/v1/usage');
  return usage.body.data.balance_usd_cents;
}

void describe('jobs', () => {
  void test('a paid call answers a receipt, charges, runs and completes with artifacts', async () => {
    const before = await balance();
    const response = await submit({ topic: 'receipts', outcome: 'succeed' });
    assert.equal(response.status, 202);
    const data = response.body.data;
    assert.match(data.job_id, /^job_/);
    assert.equal(response.headers.get('x-job-id'), data.job_id);
    assert.equal(data.status, 'queued');
    assert.equal(data.poll_url, `/api/v1/jobs/${data.job_id}`);
    assert.equal(data.price_usd_cents, 60);
    assert.match(data.websocket_url, /^ws:\/\/127\.0\.0\.1:\d+\/api\/v1\/jobs\/job_\w+\/stream\?token=/);
    assert.equal(response.body.jobId, data.job_id);
    assert.equal(response.body.videoId, data.video_id);
    assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), '60');
    assert.ok(response.headers.get('x-request-id'));
    assert.equal(await balance(), before - 60);

    const job = await waitForJob(service, data.job_id);
    assert.equal(job.status, 'completed');
    assert.equal(job.kind, 'generation');
    assert.equal(job.operation, 'test_video');
    assert.equal(job.error, null);
    assert.deepEqual(
      job.progress.map((p: { stage: string }) => p.stage),
      ['queued', 'leased', 'running', 'script', 'render', 'uploading', 'completed'],
    );
    assert.equal(job.artifacts.title, 'About receipts');
    const video = await fetch(job.artifacts.videoUrl);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    assert.ok((await video.arrayBuffer()).byteLength > 100);
    assert.deepEqual(job.artifacts.videoUrls, [job.artifacts.videoUrl]);
  });

  void test('a non-retryable failure ends failed with the error object and exactly one refund', async () => {
    const before = await balance();
    const response = await submit({ topic: 'fails', outcome: 'fail' });
    const job = await waitForJob(service, response.body.data.job_id);
    assert.equal(job.status, 'failed');
    assert.deepEqual(job.error, {
      code: 'AI_OUTPUT_LOW_QUALITY',
      category: 'provider',
      message: 'The output did not pass checks.',
      retryable: false,
    });
    assert.equal(job.attempts, 1);
    assert.equal(await balance(), before);
  });

  void test('a retryable failure is retried and can then succeed', async () => {
    const response = await submit({ topic: 'flaky', outcome: 'flaky' });
    const job = await waitForJob(service, response.body.data.job_id);
    assert.equal(job.status, 'completed');
    assert.equal(job.attempts, 2);
    assert.ok(job.progress.some((p: { stage: string }) => p.stage === 'retrying'));
  });

  void test('retries exhausted end in dead_lettered with a refund', async () => {
    const before = await balance();
    const response = await submit({ topic: 'always busy', outcome: 'retryable' });
    const job = await waitForJob(service, response.body.data.job_id, { timeoutMs: 60_000 });
    assert.equal(job.status, 'dead_lettered');
    assert.equal(job.error.code, 'PROVIDER_UNAVAILABLE');
    assert.equal(job.attempts, 3);
    assert.equal(await balance(), before);
  });

  void test("another account's job is a 404", async () => {
    const response = await submit({ topic: 'private' });
    const other = await service.newAccount();
    const read = await service.call('GET', `/api/v1/jobs/${response.body.data.job_id}`, {
      key: other.live_key,
    });
    assert.equal(read.status, 404);
    assert.equal(read.body.success, false);
    const cancel = await service.call('POST', `/api/v1/jobs/${response.body.data.job_id}/cancel`, {
      key: other.live_key,
    });
    assert.equal(cancel.status, 404);
  });

  void test('cancel refunds a running job; a finished job answers 409 JOBS_CANCEL_NOT_ALLOWED', async () => {
    const before = await balance();
    const response = await submit({ topic: 'long', outcome: 'sleep', sleep_ms: 20_000 });
    const jobId = response.body.data.job_id;
    await waitForJob(service, jobId, { until: (job) => job.status === 'running' });
    const cancelled = await service.call('POST', `/api/v1/jobs/${jobId}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.data.job.status, 'cancelled');
    assert.equal(await balance(), before);
    const again = await service.call('POST', `/api/v1/jobs/${jobId}/cancel`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'JOBS_CANCEL_NOT_ALLOWED');
    const job = await waitForJob(service, jobId);
    assert.equal(job.status, 'cancelled');
  });

  void test('DELETE cancels only before the video starts', async () => {
    const running = await submit({ topic: 'started', outcome: 'sleep', sleep_ms: 20_000 });
    await waitForJob(service, running.body.data.job_id, { until: (job) => job.status === 'running' });
    const refused = await service.call('DELETE', `/api/v1/jobs/${running.body.data.job_id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'JOBS_CANCEL_NOT_ALLOWED');
    await service.call('POST', `/api/v1/jobs/${running.body.data.job_id}/cancel`);
  });

  void test('POST /jobs creates a job of the named operation with 201', async () => {
    const response = await service.call('POST', '/api/v1/jobs', {
      body: { operation: 'test_video', topic: 'via jobs' },
      headers: { 'idempotency-key': `jobs-${Math.random()}` },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-job-id'), response.body.data.job_id);
    const job = await waitForJob(service, response.body.data.job_id);
    assert.equal(job.status, 'completed');
    const unknown = await service.call('POST', '/api/v1/jobs', {
      body: { operation: 'nope', topic: 'x' },
      headers: { 'idempotency-key': 'abcdefgh-1' },
    });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.error.details.fields[0].valid_values, ['test_video']);
  });
});
