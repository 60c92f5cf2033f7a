import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Issue 2 item 15: GET /metrics in the Prometheus text format.

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

const submit = (target: TestService, topic: string) =>
  target.call('POST', '/api/v1/generate-and-post', {
    body: { topic },
    headers: { 'idempotency-key': `metrics-${randomUUID()}` },
  });

async function scrape(target: TestService): Promise<string> {
  const response = await target.call('GET', '/metrics', { key: null });
  assert.equal(response.status, 200, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  return response.text;
}

/** The value of the sample whose name and labels are exactly `series` (e.g. `reelsmith_jobs{status="completed"}`). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

void describe('GET /metrics', () => {
  void test('request latency is a histogram with buckets, labelled by route and status', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await service.call('GET', '/api/v1/health', { key: null })).status, 200);
    assert.equal((await service.call('GET', '/api/v1/usage', { key: null })).status, 401);
    const text = await scrape(service);
    assert.match(text, /^# TYPE reelsmith_http_request_duration_seconds histogram$/m);
    const health = 'method="GET",route="/api/v1/health",status="200"';
    assert.equal(sample(text, `reelsmith_http_request_duration_seconds_count{${health}}`), 3);
    assert.equal(sample(text, `reelsmith_http_request_duration_seconds_bucket{le="+Inf",${health}}`), 3);
    const buckets = text
      .split('\n')
      .filter((l) => l.startsWith('reelsmith_http_request_duration_seconds_bucket{') && l.includes(health));
    assert.ok(buckets.length >= 5, buckets.join('\n'));
    const counts = buckets.map((l) => Number(l.split(' ').pop()));
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
      'bucket counts are cumulative',
    );
    assert.ok((sample(text, `reelsmith_http_request_duration_seconds_sum{${health}}`) ?? -1) >= 0);
    assert.equal(
      sample(
        text,
        'reelsmith_http_request_duration_seconds_count{method="GET",route="/api/v1/usage",status="401"}',
      ),
      1,
    );
  });

  void test('jobs by status reflect a finished job', async () => {
    const before = await scrape(service);
    assert.match(before, /^# TYPE reelsmith_jobs gauge$/m);
    const completedBefore = sample(before, 'reelsmith_jobs{status="completed"}') ?? 0;
    const receipt = await submit(service, 'measured');
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal((await waitForJob(service, receipt.body.data.job_id)).status, 'completed');
    const after = await scrape(service);
    assert.equal(sample(after, 'reelsmith_jobs{status="completed"}'), completedBefore + 1);
    assert.equal(sample(after, 'reelsmith_jobs{status="failed"}'), 0);
  });

  void test('queue depth counts messages waiting for a worker', async () => {
    const apiOnly = await startTestService({ worker: false });
    try {
      const idle = await scrape(apiOnly);
      assert.match(idle, /^# TYPE reelsmith_queue_depth gauge$/m);
      assert.equal(sample(idle, 'reelsmith_queue_depth{queue="generation"}'), 0);
      for (const topic of ['waiting one', 'waiting two'])
        assert.equal((await submit(apiOnly, topic)).status, 202);
      const text = await scrape(apiOnly);
      assert.equal(sample(text, 'reelsmith_queue_depth{queue="generation"}'), 2);
      assert.equal(sample(text, 'reelsmith_jobs{status="queued"}'), 2);
    } finally {
      await apiOnly.stop();
    }
  });
});
