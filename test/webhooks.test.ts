import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startHookReceiver, type HookReceiver, type ReceivedHook } from './support/hook-receiver.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

let service: TestService;
let receiver: HookReceiver;
let secret: string;

before(async () => {
  // Retry delays at 1/100: 50 ms, 3 s, 18 s… (docs/webhooks.md).
  [service, receiver] = await Promise.all([
    startTestService({ env: { WEBHOOK_RETRY_DELAY_SCALE: '0.01' } }),
    startHookReceiver(),
  ]);
  const response = await service.call('GET', '/api/v1/webhook-secret');
  assert.equal(response.status, 200);
  secret = response.body.data.secret;
});
after(async () => {
  await service.stop();
  await receiver.close();
});

let paths = 0;
const newPath = () => `/hooks/${++paths}-${Math.random().toString(36).slice(2)}`;

async function submit(target: TestService, body: Record<string, unknown>): Promise<string> {
  const response = await target.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `webhook ${Math.random()}`, ...body },
    headers: { 'idempotency-key': `hook-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  return response.body.data.job_id;
}

/** What a receiver does (docs/webhooks.md): recompute HMAC-SHA256(secret, "<t>.<raw body>") and compare. */
function signedWith(hook: ReceivedHook, key: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(hook.headers['x-service-signature']));
  if (!match) return false;
  const [, t, v1] = match;
  return v1 === createHmac('sha256', key).update(`${t}.${hook.rawBody}`).digest('hex');
}

function assertSigned(hook: ReceivedHook, key: string): void {
  const header = String(hook.headers['x-service-signature']);
  assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.ok(signedWith(hook, key), 'the signature verifies with the secret of GET /webhook-secret');
  const t = Number(/^t=(\d+)/.exec(header)![1]);
  assert.ok(Math.abs(t - hook.at / 1000) < 60, 'the timestamp is the time of sending');
}

async function deliveryOf(target: TestService, jobId: string): Promise<any[]> {
  const { rows } = await target.runtime.database.pool.query(
    'SELECT * FROM webhook_deliveries WHERE job_id = $1',
    [jobId],
  );
  return rows;
}

async function waitForDeliveryState(target: TestService, jobId: string, timeoutMs: number): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveryOf(target, jobId);
    if (rows.length === 1 && rows[0].state !== 'pending') return rows[0];
    if (Date.now() > deadline) throw new Error(`delivery of ${jobId} still pending: ${JSON.stringify(rows)}`);
    await sleep(200);
  }
}

void describe('webhooks', { concurrency: true }, () => {
  void test('a completed job sends exactly one signed POST with the event headers and body', async () => {
    const path = newPath();
    const jobId = await submit(service, {
      outcome: 'succeed',
      webhook_url: receiver.url + path,
      agent_run_id: 'run-42',
    });
    const [hook] = await receiver.waitFor(path, 1);
    assert.ok(hook);
    assertSigned(hook, secret);
    assert.equal(hook.headers['content-type'], 'application/json');
    assert.equal(hook.headers['x-service-event-type'], 'video.completed');
    const body = JSON.parse(hook.rawBody);
    assert.equal(hook.headers['x-service-event-id'], body.event_id);
    assert.match(body.event_id, /\w{8,}/);
    assert.equal(body.event_type, 'video.completed');
    assert.equal(body.data.job_id, jobId);
    assert.equal(body.data.status, 'completed');
    assert.equal(body.data.agent_run_id, 'run-42');
    assert.equal(typeof body.data.title, 'string');
    assert.equal(typeof body.data.description, 'string');
    const video = await fetch(body.data.video_url);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');

    const job = await waitForJob(service, jobId);
    assert.equal(job.status, 'completed');
    await sleep(2000);
    assert.equal(receiver.received(path).length, 1, 'one POST per job');
    const [delivery] = await deliveryOf(service, jobId);
    assert.equal(delivery.state, 'delivered');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.event_id, body.event_id);
  });

  void test('a job retried before it completes still sends one POST', async () => {
    const path = newPath();
    const jobId = await submit(service, { outcome: 'flaky', webhook_url: receiver.url + path });
    const [hook] = await receiver.waitFor(path, 1);
    const job = await waitForJob(service, jobId);
    assert.equal(job.attempts, 2);
    assert.equal(JSON.parse(hook!.rawBody).event_type, 'video.completed');
    await sleep(2000);
    assert.equal(receiver.received(path).length, 1);
  });

  void test('a failed job sends video.failed with its error and no link, once even if failed again', async () => {
    const path = newPath();
    const jobId = await submit(service, {
      outcome: 'fail',
      webhook_url: receiver.url + path,
      agent_run_id: 'run-failing',
    });
    const [hook] = await receiver.waitFor(path, 1);
    assertSigned(hook!, secret);
    assert.equal(hook!.headers['x-service-event-type'], 'video.failed');
    const body = JSON.parse(hook!.rawBody);
    assert.equal(body.event_type, 'video.failed');
    assert.equal(body.data.job_id, jobId);
    assert.equal(body.data.status, 'failed');
    assert.equal(body.data.error.code, 'AI_OUTPUT_LOW_QUALITY');
    assert.equal(body.data.video_url, null);
    assert.equal(body.data.agent_run_id, 'run-failing');

    const again = await service.runtime.context.lifecycle.fail(jobId, {
      code: 'RENDER_FAILED',
      category: 'render',
      message: 'again',
      retryable: true,
    });
    assert.equal(again, undefined, 'a finished job cannot end twice');
    await sleep(2000);
    assert.equal(receiver.received(path).length, 1);
  });

  void test('private delivery: the callback carries video_url null and no link at all', async () => {
    const path = newPath();
    const jobId = await submit(service, {
      outcome: 'succeed',
      webhook_url: receiver.url + path,
      delivery: { visibility: 'private' },
    });
    const [hook] = await receiver.waitFor(path, 1);
    assertSigned(hook!, secret);
    const body = JSON.parse(hook!.rawBody);
    assert.equal(body.event_type, 'video.completed');
    assert.equal(body.data.job_id, jobId);
    assert.equal(body.data.status, 'completed');
    assert.equal(body.data.video_url, null);
    assert.doesNotMatch(hook!.rawBody, /https?:\/\//, 'no link anywhere in the body');
    const job = await waitForJob(service, jobId);
    assert.match(job.artifacts.videoUrl, /^http/, 'the job record itself still links the file for polling');
  });

  void test('each account signs with its own secret', async () => {
    const other = await service.newAccount();
    const otherSecret = (await service.call('GET', '/api/v1/webhook-secret', { key: other.live_key })).body
      .data.secret;
    assert.notEqual(otherSecret, secret);
    const path = newPath();
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      key: other.live_key,
      body: { topic: 'other account hook', webhook_url: receiver.url + path },
      headers: { 'idempotency-key': `hook-${Math.random()}` },
    });
    assert.equal(response.status, 202);
    const [hook] = await receiver.waitFor(path, 1);
    assertSigned(hook!, otherSecret);
    assert.equal(signedWith(hook!, secret), false);
    assert.equal(
      signedWith({ ...hook!, rawBody: hook!.rawBody.replace('completed', 'failed') }, otherSecret),
      false,
      'a tampered body fails',
    );
  });

  void test('a receiver answering 500 twice then 200 gets the event on the third attempt, the waits growing', async () => {
    const path = newPath();
    receiver.script(path, [500, 500, 200]);
    const jobId = await submit(service, { outcome: 'succeed', webhook_url: receiver.url + path });
    const hooks = await receiver.waitFor(path, 3, 50_000);
    const delivery = await waitForDeliveryState(service, jobId, 5000);
    assert.equal(delivery.state, 'delivered');
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.last_status, 200);
    for (const hook of hooks) assertSigned(hook, secret);
    assert.equal(
      new Set(hooks.map((h) => h.headers['x-service-event-id'])).size,
      1,
      'retries carry the same event id',
    );
    assert.equal(new Set(hooks.map((h) => h.rawBody)).size, 1, 'retries carry the same body');
    const [first, second, third] = hooks.map((h) => h.at) as [number, number, number];
    assert.ok(second - first >= 50, `first retry after ${second - first} ms (5 s scaled)`);
    assert.ok(third - second >= 3000, `second retry after ${third - second} ms (5 min scaled)`);
    assert.ok(third - second > second - first, 'the delay grows');
    await sleep(1500);
    assert.equal(receiver.received(path).length, 3);
  });

  void test('a receiver that always fails ends failed after WEBHOOK_MAX_ATTEMPTS attempts', async () => {
    const limited = await startTestService({
      env: { WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_RETRY_DELAY_SCALE: '0.01' },
    });
    try {
      const path = newPath();
      receiver.script(path, [500]);
      const jobId = await submit(limited, { outcome: 'succeed', webhook_url: receiver.url + path });
      const delivery = await waitForDeliveryState(limited, jobId, 40_000);
      assert.equal(delivery.state, 'failed');
      assert.equal(delivery.attempts, 2);
      assert.equal(delivery.last_status, 500);
      assert.equal(delivery.delivered_at, null);
      await sleep(2000);
      assert.equal(receiver.received(path).length, 2);
      const job = await waitForJob(limited, jobId);
      assert.equal(job.status, 'completed', 'a failed delivery does not change the job');
    } finally {
      await limited.stop();
    }
  });
});
