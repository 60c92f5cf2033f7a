import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Spec 1 §5.3 and §3.1: sandbox keys get a completed placeholder job, free and unvalidated; dry runs validate.

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

const sandbox = () => service.account.sandbox_key;

async function balance(): Promise<number> {
  return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
}

async function download(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

void describe('sandbox keys', () => {
  void test('a Generate call answers a completed, free sandbox_job_ receipt without an Idempotency-Key', async () => {
    const before = await balance();
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      key: sandbox(),
      body: { topic: 'sandboxed' },
    });
    assert.equal(response.status, 202, response.text);
    const data = response.body.data;
    assert.match(data.job_id, /^sandbox_job_\w+$/);
    assert.equal(response.headers.get('x-job-id'), data.job_id);
    assert.equal(data.status, 'completed');
    assert.equal(data.price_usd_cents, 0);
    assert.equal(data.poll_url, `/api/v1/jobs/${data.job_id}`);
    assert.equal(response.body.jobId, data.job_id);
    assert.equal(await balance(), before);
  });

  void test('inputs are not validated: an invalid body still gets a completed placeholder job', async () => {
    const before = await balance();
    for (const body of [
      { style: 'neon', duration_sec: 9999 },
      { topic: '' },
      { topic: 'explode-during-validation' },
    ]) {
      const response = await service.call('POST', '/api/v1/generate-and-post', { key: sandbox(), body });
      assert.equal(response.status, 202, response.text);
      assert.match(response.body.data.job_id, /^sandbox_job_/);
      assert.equal(response.body.data.status, 'completed');
      assert.equal(response.body.data.price_usd_cents, 0);
    }
    const viaJobs = await service.call('POST', '/api/v1/jobs', {
      key: sandbox(),
      body: { operation: 'test_video', style: 'neon' },
    });
    assert.equal(viaJobs.status, 201, viaJobs.text);
    assert.match(viaJobs.body.data.job_id, /^sandbox_job_/);
    assert.equal(await balance(), before);
  });

  void test('the sandbox job polls as completed with example artifacts: a real MP4 and a JPEG poster', async () => {
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      key: sandbox(),
      body: { topic: 'artifacts' },
    });
    const jobId = response.body.data.job_id;
    const job = await waitForJob(service, jobId, { key: sandbox(), timeoutMs: 1_000 });
    assert.equal(job.id, jobId);
    assert.equal(job.status, 'completed');
    assert.equal(job.error, null);
    assert.equal(job.artifacts.videoId, response.body.data.video_id);
    assert.equal(typeof job.artifacts.title, 'string');

    const video = await download(job.artifacts.videoUrl);
    assert.equal(video.type, 'video/mp4');
    assert.ok(video.bytes.length > 1000);
    assert.equal(video.bytes.subarray(4, 8).toString('latin1'), 'ftyp');
    assert.deepEqual(job.artifacts.videoUrls, [job.artifacts.videoUrl]);

    const poster = await download(job.artifacts.thumbnailUrl);
    assert.equal(poster.type, 'image/jpeg');
    assert.deepEqual([...poster.bytes.subarray(0, 3)], [0xff, 0xd8, 0xff]);

    const byLiveKey = await service.call('GET', `/api/v1/jobs/${jobId}`);
    assert.equal(byLiveKey.status, 200);
    assert.equal(byLiveKey.body.data.job.status, 'completed');
    const other = await service.newAccount();
    assert.equal(
      (await service.call('GET', `/api/v1/jobs/${jobId}`, { key: other.sandbox_key })).status,
      404,
    );
  });

  void test('dry runs with the sandbox key validate and price the real body', async () => {
    const invalid = await service.call('POST', '/api/v1/generate-and-post', {
      key: sandbox(),
      body: { style: 'neon', dry_run: true },
    });
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.body.error.code, 'INPUT_INVALID');
    const fields = invalid.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    assert.deepEqual(fields, ['style', 'topic']);

    const valid = await service.call('POST', '/api/v1/generate-and-post', {
      key: sandbox(),
      body: { topic: 'priced', dry_run: true },
    });
    assert.equal(valid.status, 200, valid.text);
    assert.equal(valid.body.data.dry_run, true);
    assert.equal(valid.body.data.valid, true);
    assert.equal(valid.body.data.price.usd_cents, 60);
    assert.equal(valid.body.data.charged, false);
  });
});
