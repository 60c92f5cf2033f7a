import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newClient, replayable, uniqueKey } from './support/idem-helpers.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Spec 1 §4.1 and §8: Idempotency-Key replay, identical-request protection, and their edges.
// Every test uses its own account, so balances and job counts belong to that test alone.

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

const START = 100_000;

void describe('idempotency', () => {
  void test('a paid live call needs an Idempotency-Key of 8-256 characters', async () => {
    const c = await newClient(service, START);
    const missing = await c.generate({ topic: 'no key' }, null);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.success, false);
    assert.equal(missing.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.ok(missing.body.meta.request_id);

    const short = await c.generate({ topic: 'short key' }, 'k'.repeat(7));
    assert.equal(short.status, 400);
    assert.equal(short.body.success, false);
    const long = await c.generate({ topic: 'long key' }, 'k'.repeat(257));
    assert.equal(long.status, 400);
    assert.equal(long.body.success, false);
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);

    const shortest = await c.generate({ topic: 'eight char key' }, 'k'.repeat(8));
    assert.equal(shortest.status, 202);
    const longest = await c.generate({ topic: '256 char key' }, 'k'.repeat(256));
    assert.equal(longest.status, 202);
    assert.equal(await c.balance(), START - 120);
  });

  void test('same key and same body replay the stored answer without a second job or charge', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey();
    const body = { topic: 'replay me', style: 'fancy' };
    const first = await c.generate(body, key);
    assert.equal(first.status, 202);
    assert.equal(first.headers.get('x-idempotent-replay'), null);
    assert.equal(first.body.meta.replayed, undefined);
    const jobId = first.body.data.job_id;
    assert.equal(first.headers.get('x-job-id'), jobId);

    const second = await c.generate(body, key);
    assert.deepEqual(replayable(second), replayable(first));
    assert.equal(second.headers.get('x-idempotent-replay'), 'true');
    assert.equal(second.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(second.body.meta.replayed, true);
    assert.equal(second.body.meta.request_id, second.headers.get('x-request-id'));
    assert.equal(await c.balance(), START - 60);
    assert.deepEqual(await c.jobIds(), [jobId]);
    assert.equal(await c.chargeCount(), 1);

    // The stored answer is the original receipt, also once the job has finished.
    await waitForJob(service, jobId, { key: c.account.live_key });
    const third = await c.generate(body, key);
    assert.deepEqual(replayable(third), replayable(first));
    assert.equal(third.headers.get('x-idempotent-replay'), 'true');
    assert.equal(await c.balance(), START - 60);
    assert.deepEqual(await c.jobIds(), [jobId]);
  });

  void test('an error answer is stored under its key and replayed for the same key and body', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey();
    const body = { topic: 'forbidden topic' };
    const first = await c.generate(body, key);
    assert.equal(first.status, 400);
    assert.equal(first.body.error.code, 'INPUT_INVALID');
    assert.equal(first.headers.get('x-idempotent-replay'), null);

    const second = await c.generate(body, key);
    assert.deepEqual(replayable(second), replayable(first));
    assert.equal(second.headers.get('x-idempotent-replay'), 'true');
    assert.equal(second.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(second.body.meta.replayed, true);
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);
  });

  void test('the same key with a different body is 409 RESOURCE_ALREADY_EXISTS', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey();
    const first = await c.generate({ topic: 'original body' }, key);
    assert.equal(first.status, 202);
    const conflict = await c.generate({ topic: 'another body' }, key);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.success, false);
    assert.equal(conflict.body.error.code, 'RESOURCE_ALREADY_EXISTS');
    assert.equal(conflict.headers.get('x-job-id'), null);
    assert.equal(await c.balance(), START - 60);
    assert.deepEqual(await c.jobIds(), [first.body.data.job_id]);

    const replay = await c.generate({ topic: 'original body' }, key);
    assert.equal(replay.body.data.job_id, first.body.data.job_id);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
  });

  void test('an identical body in another field order under a new key replays the first answer', async () => {
    const c = await newClient(service, START);
    const first = await c.generate({ topic: 'field order', style: 'fancy', duration_sec: 20 }, uniqueKey());
    assert.equal(first.status, 202);
    const second = await c.generate({ duration_sec: 20, style: 'fancy', topic: 'field order' }, uniqueKey());
    assert.deepEqual(replayable(second), replayable(first));
    assert.equal(second.headers.get('x-idempotent-replay'), 'true');
    assert.equal(second.headers.get('x-idempotent-replay-match'), 'body');
    assert.equal(second.body.meta.replayed, true);
    assert.equal(second.body.meta.replay_reason, 'identical_request');
    assert.equal(await c.balance(), START - 60);
    assert.equal(await c.chargeCount(), 1);
    assert.deepEqual(await c.jobIds(), [first.body.data.job_id]);
  });

  void test('a rejected first request does not block an identical later one', async () => {
    const invalid = await newClient(service, START);
    const refused = await invalid.generate({ topic: 'forbidden topic' }, uniqueKey());
    assert.equal(refused.status, 400);
    const again = await invalid.generate({ topic: 'forbidden topic' }, uniqueKey());
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('x-idempotent-replay'), null);
    assert.notEqual(again.body.meta.replayed, true);

    // A refusal that depends on the moment (402), then the same body once the balance allows it.
    const poor = await newClient(service, 30);
    const body = { topic: 'top up first' };
    const brokeKey = uniqueKey();
    const broke = await poor.generate(body, brokeKey);
    assert.equal(broke.status, 402);
    assert.equal(broke.body.error.code, 'INSUFFICIENT_API_CREDITS');
    assert.equal(broke.body.error.details.required_usd_cents, 60);
    await poor.topUp(1000);
    // Under its own key the 402 is replayed (errors included); a new key is a new request.
    const brokeAgain = await poor.generate(body, brokeKey);
    assert.deepEqual(replayable(brokeAgain), replayable(broke));
    assert.equal(brokeAgain.headers.get('x-idempotent-replay-match'), 'key');
    const accepted = await poor.generate(body, uniqueKey());
    assert.equal(accepted.status, 202);
    assert.equal(accepted.headers.get('x-idempotent-replay'), null);
    assert.equal(await poor.balance(), 1030 - 60);
    assert.deepEqual(await poor.jobIds(), [accepted.body.data.job_id]);
  });

  void test('a first request whose job failed does not block an identical later one', async () => {
    const c = await newClient(service, START);
    const body = { topic: 'fails first', outcome: 'fail' };
    const firstKey = uniqueKey();
    const first = await c.generate(body, firstKey);
    assert.equal(first.status, 202);
    const failed = await waitForJob(service, first.body.data.job_id, { key: c.account.live_key });
    assert.equal(failed.status, 'failed');
    assert.equal(await c.balance(), START);

    const second = await c.generate(body, uniqueKey());
    assert.equal(second.status, 202);
    assert.equal(second.headers.get('x-idempotent-replay'), null);
    assert.notEqual(second.body.data.job_id, first.body.data.job_id);
    assert.equal(await c.chargeCount(), 2);
    assert.equal(await c.balance(), START - 60);
    assert.deepEqual((await c.jobIds()).sort(), [first.body.data.job_id, second.body.data.job_id].sort());

    // The first key still replays its own answer: a retry needs a new key (spec 1 §7).
    const sameKey = await c.generate(body, firstKey);
    assert.deepEqual(replayable(sameKey), replayable(first));
    assert.equal(sameKey.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(await c.chargeCount(), 2);
  });

  void test('X-Repeat-Token makes an identical body a new job', async () => {
    const c = await newClient(service, START);
    const body = { topic: 'on purpose' };
    const first = await c.generate(body, uniqueKey());
    const repeat = await c.generate(body, uniqueKey(), { headers: { 'x-repeat-token': 'second-take' } });
    assert.equal(repeat.status, 202);
    assert.equal(repeat.headers.get('x-idempotent-replay'), null);
    assert.notEqual(repeat.body.data.job_id, first.body.data.job_id);
    assert.equal(await c.chargeCount(), 2);
    assert.equal(await c.balance(), START - 120);
  });

  void test('keys are scoped per account', async () => {
    const a = await newClient(service, START);
    const b = await newClient(service, START);
    const key = uniqueKey();
    const body = { topic: 'two accounts, one key' };
    const fromA = await a.generate(body, key);
    const fromB = await b.generate(body, key);
    assert.equal(fromA.status, 202);
    assert.equal(fromB.status, 202);
    assert.equal(fromB.headers.get('x-idempotent-replay'), null);
    assert.notEqual(fromA.body.data.job_id, fromB.body.data.job_id);
    assert.equal(await a.balance(), START - 60);
    assert.equal(await b.balance(), START - 60);
    assert.deepEqual(await a.jobIds(), [fromA.body.data.job_id]);
    assert.deepEqual(await b.jobIds(), [fromB.body.data.job_id]);
  });

  void test('live and sandbox keys of one account share the idempotency cache', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey();
    const body = { topic: 'sandbox first' };
    const sandbox = await c.generate(body, key, { key: c.account.sandbox_key });
    assert.equal(sandbox.status, 202);
    assert.match(sandbox.body.data.job_id, /^sandbox_job_/);

    const live = await c.generate(body, key);
    assert.deepEqual(replayable(live), replayable(sandbox));
    assert.equal(live.headers.get('x-idempotent-replay'), 'true');
    assert.equal(live.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(await c.balance(), START);
    assert.equal(await c.chargeCount(), 0);
    assert.deepEqual(await c.jobIds(), [sandbox.body.data.job_id]);
  });

  void test('an identical request while the first is handled waits 10 s, then 409 REQUEST_IN_PROGRESS', async () => {
    const c = await newClient(service, START);
    const body = { topic: 'slow validation', validate_ms: 12_000 };
    const firstKey = uniqueKey();
    const secondKey = uniqueKey();
    const firstPromise = c.generate(body, firstKey);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const waitStarted = Date.now();
    const [byBody, byKey] = await Promise.all([c.generate(body, secondKey), c.generate(body, firstKey)]);
    const waited = Date.now() - waitStarted;
    assert.ok(waited >= 9_000 && waited < 11_500, `answered after ${waited} ms`);
    for (const response of [byBody, byKey]) {
      assert.equal(response.status, 409);
      assert.equal(response.body.error.code, 'REQUEST_IN_PROGRESS');
      assert.equal(response.body.error.retryable, true);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.equal(response.headers.get('x-job-id'), null);
    }
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);

    const first = await firstPromise;
    assert.equal(first.status, 202);
    const jobId = first.body.data.job_id;
    // Nothing was stored for the 409s: the same requests now receive the first answer.
    const retryByBody = await c.generate(body, secondKey);
    assert.deepEqual(replayable(retryByBody), replayable(first));
    assert.equal(retryByBody.headers.get('x-idempotent-replay-match'), 'body');
    assert.equal(retryByBody.body.meta.replay_reason, 'identical_request');
    const retryByKey = await c.generate(body, firstKey);
    assert.deepEqual(replayable(retryByKey), replayable(first));
    assert.equal(retryByKey.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(await c.balance(), START - 60);
    assert.equal(await c.chargeCount(), 1);
    assert.deepEqual(await c.jobIds(), [jobId]);
  });
});
