import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHangingReceiver, type HangingReceiver } from './support/hanging-receiver.ts';
import { startHookReceiver, type HookReceiver } from './support/hook-receiver.ts';
import { freePort, startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Delivery of webhooks under load and failure: concurrency with a per-destination cap shared by two processes,
// the retry schedule (compressed by WEBHOOK_RETRY_DELAY_SCALE), the deliveries list and redelivery.

const TIMEOUT_MS = 5000;
/** Schedule at 1/1000: retries after 5 ms, 300 ms, 1.8 s, 7.2 s, 18 s… */
const COMPRESSED = { WEBHOOK_RETRY_DELAY_SCALE: '0.001' };

let service: TestService;
let receiver: HookReceiver;

before(async () => {
  [service, receiver] = await Promise.all([
    startTestService({ env: { ...COMPRESSED, WEBHOOK_MAX_ATTEMPTS: '12', HEAVY_RENDERS_PER_ACCOUNT: '50' } }),
    startHookReceiver(),
  ]);
});
after(async () => {
  await service.stop();
  await receiver.close();
});

let paths = 0;
const newPath = () => `/deliveries/${++paths}-${Math.random().toString(36).slice(2)}`;

async function submit(target: TestService, webhookUrl: string, key?: string): Promise<string> {
  const response = await target.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `delivery ${Math.random()}`, outcome: 'succeed', webhook_url: webhookUrl },
    headers: { 'idempotency-key': `delivery-${Math.random()}` },
    ...(key ? { key } : {}),
  });
  assert.equal(response.status, 202, response.text);
  return response.body.data.job_id;
}

async function deliveriesOf(target: TestService, query: string, key?: string): Promise<any[]> {
  const response = await target.call('GET', `/api/v1/webhook-deliveries?${query}`, key ? { key } : {});
  assert.equal(response.status, 200, response.text);
  return response.body.data.deliveries;
}

async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const signatureTime = (header: unknown) => Number(/^t=(\d+),/.exec(String(header))![1]);

void describe('webhook delivery', { concurrency: true }, () => {
  void test('a receiver that never answers does not hold up another job’s callback, in either of two processes', async () => {
    // Two slots per process and two processes: without the per-destination cap of 2, the four hanging
    // deliveries (and their retries) would hold all four slots for 5 s at a time.
    const env = {
      ...COMPRESSED,
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_DESTINATION_CONCURRENCY: '2',
    };
    const first = await startTestService({ env });
    const second = await startTestService({ env, databaseUrl: first.databaseUrl });
    const hanging: HangingReceiver = await startHangingReceiver();
    try {
      const slowJobs = await Promise.all([1, 2, 3, 4].map((n) => submit(first, `${hanging.url}/slow/${n}`)));
      await Promise.all(slowJobs.map((jobId) => waitForJob(first, jobId)));
      await waitUntil('two attempts at the hanging receiver', async () =>
        hanging.arrivals.length >= 2 ? true : undefined,
      );

      const path = newPath();
      const healthyJob = await submit(first, receiver.url + path);
      const [hook] = await receiver.waitFor(path, 1, 20_000);
      const [delivery] = await deliveriesOf(first, `job_id=${healthyJob}`);
      const delayMs = hook!.at - Date.parse(delivery.created_at);
      assert.ok(delayMs < 3000, `the healthy callback arrived ${delayMs} ms after its job ended`);

      // Keep the hanging deliveries retrying until one has made a second attempt.
      const retried = await waitUntil(
        'a retry of a hanging delivery',
        async () => {
          const listed = (
            await Promise.all(slowJobs.map((jobId) => deliveriesOf(first, `job_id=${jobId}`)))
          ).flat();
          return listed.find((d) => d.attempts.length >= 2);
        },
        40_000,
      );
      assert.equal(retried.state, 'pending');
      for (const attempt of retried.attempts) {
        assert.equal(attempt.status, null);
        assert.match(attempt.error, /timed out/);
        assert.ok(attempt.duration_ms >= TIMEOUT_MS - 100 && attempt.duration_ms < TIMEOUT_MS + 2000);
      }
      assert.ok(
        hanging.mostOpenAtOnce() <= 2,
        `at most 2 attempts in flight at the destination across both processes, saw ${hanging.mostOpenAtOnce()}`,
      );
    } finally {
      await second.stop();
      await first.stop();
      await hanging.close();
    }
  });

  void test('failed attempts are retried on the schedule and listed with their status and duration, in the job record too', async () => {
    const path = newPath();
    receiver.script(path, [500, 503, 500, 200]);
    const jobId = await submit(service, receiver.url + path);
    const hooks = await receiver.waitFor(path, 4, 20_000);
    const gaps = hooks.slice(1).map((hook, i) => hook.at - hooks[i]!.at);
    assert.ok(gaps[2]! >= 1800, `the third retry waits the (compressed) 30 minutes: ${gaps.join(', ')} ms`);
    assert.ok(gaps[2]! > gaps[0]!, `the waits grow: ${gaps.join(', ')} ms`);
    assert.equal(new Set(hooks.map((h) => h.headers['x-service-event-id'])).size, 1);

    const [delivery] = await waitUntil('the delivery to be recorded as delivered', async () => {
      const listed = await deliveriesOf(service, `job_id=${jobId}`);
      return listed[0]?.state === 'delivered' ? listed : undefined;
    });
    assert.equal(delivery.event_id, hooks[0]!.headers['x-service-event-id']);
    assert.equal(delivery.url, receiver.url + path);
    assert.deepEqual(
      delivery.attempts.map((a: any) => a.status),
      [500, 503, 500, 200],
    );
    delivery.attempts.forEach((attempt: any, i: number) => {
      assert.equal(attempt.attempt, i + 1);
      assert.equal(attempt.error, null);
      assert.ok(Number.isInteger(attempt.duration_ms) && attempt.duration_ms >= 0);
      assert.ok(Math.abs(Date.parse(attempt.at) - hooks[i]!.at) < 1000, 'at is when the attempt was sent');
    });
    assert.equal(delivery.next_attempt_at, null);

    const job = await waitForJob(service, jobId);
    assert.equal(job.webhook.url, receiver.url + path);
    assert.equal(job.webhook.state, 'delivered');
    assert.equal(job.webhook.delivery_id, delivery.id);
    assert.deepEqual(
      job.webhook.attempts.map((a: any) => a.status),
      [500, 503, 500, 200],
    );
  });

  void test('an unreachable receiver is listed with the connection error of each attempt', async () => {
    const closedPort = await freePort();
    const jobId = await submit(service, `http://127.0.0.1:${closedPort}/hook`);
    const delivery = await waitUntil('two failed attempts', async () => {
      const [listed] = await deliveriesOf(service, `job_id=${jobId}`);
      return listed?.attempts.length >= 2 ? listed : undefined;
    });
    assert.equal(delivery.state, 'pending');
    assert.ok(Date.parse(delivery.next_attempt_at) > Date.parse(delivery.attempts[1].at));
    for (const attempt of delivery.attempts) {
      assert.equal(attempt.status, null);
      assert.match(attempt.error, /127\.0\.0\.1/);
    }
  });

  void test('a delivery that exhausts its attempts is listed as failed and can be redelivered with a fresh signature', async () => {
    const limited = await startTestService({ env: { ...COMPRESSED, WEBHOOK_MAX_ATTEMPTS: '3' } });
    try {
      const path = newPath();
      receiver.script(path, [500, 500, 500, 200]);
      const jobId = await submit(limited, receiver.url + path);
      const failed = await waitUntil('the delivery to fail', async () => {
        const listed = await deliveriesOf(limited, `job_id=${jobId}&state=failed`);
        return listed[0];
      });
      assert.equal(failed.attempts.length, 3);
      assert.equal(failed.next_attempt_at, null);
      await sleep(1500);
      assert.equal(receiver.received(path).length, 3, 'no attempt after the last one');

      const answer = await limited.call('POST', `/api/v1/webhook-deliveries/${failed.id}/redeliver`);
      assert.equal(answer.status, 202, answer.text);
      const fresh = answer.body.data.delivery;
      assert.notEqual(fresh.id, failed.id);
      assert.equal(fresh.event_id, failed.event_id);
      assert.equal(fresh.job_id, jobId);

      const hooks = await receiver.waitFor(path, 4);
      const [original, , last, redelivered] = hooks;
      assert.equal(redelivered!.headers['x-service-event-id'], failed.event_id, 'the same event id');
      assert.equal(redelivered!.rawBody, original!.rawBody, 'the same body');
      assert.ok(
        signatureTime(redelivered!.headers['x-service-signature']) >
          signatureTime(last!.headers['x-service-signature']),
        'a fresh signature timestamp',
      );

      const listed = await waitUntil('the redelivery to be delivered', async () => {
        const all = await deliveriesOf(limited, `job_id=${jobId}`);
        return all.some((d) => d.id === fresh.id && d.state === 'delivered') ? all : undefined;
      });
      assert.deepEqual(
        listed.map((d) => [d.id, d.state]),
        [
          [fresh.id, 'delivered'],
          [failed.id, 'failed'],
        ],
        'newest first; the failed delivery keeps its record',
      );
      const job = await waitForJob(limited, jobId);
      assert.equal(job.webhook.state, 'delivered');
      assert.deepEqual(
        job.webhook.attempts.map((a: any) => [a.delivery_id, a.status]),
        [
          [failed.id, 500],
          [failed.id, 500],
          [failed.id, 500],
          [fresh.id, 200],
        ],
      );
    } finally {
      await limited.stop();
    }
  });

  void test('redelivering an event still being retried supersedes its pending delivery', async () => {
    const path = newPath();
    receiver.script(path, [500, 500, 500, 200]);
    const jobId = await submit(service, receiver.url + path);
    await receiver.waitFor(path, 3, 20_000);
    const pending = await waitUntil('three recorded attempts', async () => {
      const [listed] = await deliveriesOf(service, `job_id=${jobId}`);
      return listed?.attempts.length === 3 ? listed : undefined;
    });
    assert.equal(pending.state, 'pending', 'the fourth attempt is 7.2 s away');

    const answer = await service.call('POST', `/api/v1/webhook-deliveries/${pending.id}/redeliver`);
    assert.equal(answer.status, 202, answer.text);
    await receiver.waitFor(path, 4);
    await sleep(9000);
    assert.equal(receiver.received(path).length, 4, 'the superseded delivery made no further attempt');
    const [fresh, old] = await deliveriesOf(service, `job_id=${jobId}`);
    assert.equal(fresh.state, 'delivered');
    assert.equal(old.id, pending.id);
    assert.equal(old.state, 'superseded');
    assert.equal(old.attempts.length, 3);
    assert.equal(old.next_attempt_at, null);
  });

  void test('another account sees none of the deliveries and cannot redeliver them', async () => {
    const path = newPath();
    const jobId = await submit(service, receiver.url + path);
    await receiver.waitFor(path, 1);
    const [mine] = await deliveriesOf(service, `job_id=${jobId}`);
    assert.ok(mine);
    const other = await service.newAccount();
    assert.deepEqual(await deliveriesOf(service, `job_id=${jobId}`, other.live_key), []);
    assert.ok((await deliveriesOf(service, 'limit=100', other.live_key)).every((d) => d.id !== mine.id));

    const theirs = await service.call('POST', `/api/v1/webhook-deliveries/${mine.id}/redeliver`, {
      key: other.live_key,
    });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.success, false);
    assert.equal(theirs.body.error.code, 'NOT_FOUND');
    const unknown = await service.call('POST', '/api/v1/webhook-deliveries/whd_doesnotexist/redeliver');
    assert.equal(unknown.status, 404);
    await sleep(1000);
    assert.equal(receiver.received(path).length, 1, 'nothing was sent again');
  });

  void test('the list filters by state and limit and refuses malformed queries', async () => {
    const path = newPath();
    await submit(service, receiver.url + path);
    await submit(service, receiver.url + path);
    await receiver.waitFor(path, 2);
    const delivered = await waitUntil('two delivered', async () => {
      const listed = await deliveriesOf(service, 'state=delivered&limit=2');
      return listed.length === 2 ? listed : undefined;
    });
    assert.ok(delivered.every((d) => d.state === 'delivered'));
    assert.ok(Date.parse(delivered[0].created_at) >= Date.parse(delivered[1].created_at), 'newest first');
    for (const query of ['limit=0', 'limit=101', 'state=lost', 'colour=blue']) {
      const response = await service.call('GET', `/api/v1/webhook-deliveries?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.body.error.code, 'INPUT_INVALID');
    }
    const anonymous = await service.call('GET', '/api/v1/webhook-deliveries', { key: null });
    assert.equal(anonymous.status, 401);
  });
});
