import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AccountClient, GENERATE_PATH, newClient, uniqueKey } from './support/idem-helpers.ts';
import { type ChildService, startChildService } from './support/idem-child-process.ts';
import { call, startTestService, type TestResponse, type TestService } from './support/test-service.ts';

// Spec 1 §8 across processes: the in-process service and a second API process share one database, so a key
// or an identical body sent to both at once still makes exactly one job and one charge.

let service: TestService;
let second: ChildService;
before(async () => {
  service = await startTestService();
  second = await startChildService({ ...service.env, RUN_WORKER: '0' });
});
after(async () => {
  await second?.stop();
  await service.stop();
});

const START = 100_000;
const PER_PROCESS = 3;

/** Sends the same body to both processes at once, PER_PROCESS times each, with the key `keyOf(i)`. */
function fireAtBoth(c: AccountClient, body: unknown, keyOf: (i: number) => string): Promise<TestResponse[]> {
  const sends: Promise<TestResponse>[] = [];
  for (let i = 0; i < PER_PROCESS * 2; i++) {
    const baseUrl = i % 2 === 0 ? service.url : second.url;
    sends.push(
      call(baseUrl, c.account.live_key, 'POST', GENERATE_PATH, {
        body,
        headers: { 'idempotency-key': keyOf(i) },
      }),
    );
  }
  return Promise.all(sends);
}

function assertOneJob(responses: TestResponse[], match: 'key' | 'body'): string {
  for (const response of responses) assert.equal(response.status, 202, response.text);
  const jobIds = new Set(responses.map((r) => r.body.data.job_id));
  assert.equal(jobIds.size, 1, `one job id for every answer: ${[...jobIds].join(', ')}`);
  const headerIds = new Set(responses.map((r) => r.headers.get('x-job-id')));
  assert.deepEqual(headerIds, jobIds);
  const fresh = responses.filter((r) => r.headers.get('x-idempotent-replay') === null);
  assert.equal(fresh.length, 1, 'exactly one answer is the original');
  for (const replay of responses.filter((r) => r !== fresh[0])) {
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    assert.equal(replay.headers.get('x-idempotent-replay-match'), match);
  }
  return [...jobIds][0]!;
}

void describe('idempotency across two API processes on one database', () => {
  void test('the second process serves the same accounts', async () => {
    const c = await newClient(service, START);
    const usage = await call(second.url, c.account.live_key, 'GET', '/api/v1/usage');
    assert.equal(usage.status, 200);
    assert.equal(usage.body.data.balance_usd_cents, START);
  });

  void test('the same key and body sent to both at once make one job and one charge', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey('two-proc');
    const responses = await fireAtBoth(c, { topic: 'one key, two processes', validate_ms: 300 }, () => key);
    const jobId = assertOneJob(responses, 'key');
    assert.deepEqual(await c.jobIds(), [jobId]);
    assert.equal(await c.chargeCount(), 1);
    assert.equal(await c.balance(), START - 60);
  });

  void test('an identical body under different keys sent to both at once makes one job and one charge', async () => {
    const c = await newClient(service, START);
    const prefix = uniqueKey('two-proc');
    const responses = await fireAtBoth(
      c,
      { topic: 'one body, many keys', validate_ms: 300 },
      (i) => `${prefix}-${i}`,
    );
    const jobId = assertOneJob(responses, 'body');
    for (const replay of responses.filter((r) => r.headers.get('x-idempotent-replay') === 'true')) {
      assert.equal(replay.body.meta.replay_reason, 'identical_request');
    }
    assert.deepEqual(await c.jobIds(), [jobId]);
    assert.equal(await c.chargeCount(), 1);
    assert.equal(await c.balance(), START - 60);
  });
});
