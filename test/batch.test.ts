import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { type AccountClient, newClient, replayable, uniqueKey } from './support/idem-helpers.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// Spec 1 §4.10: POST /batch runs each item through its endpoint's normal path, keys items by
// `<batch key>:<index>` (or their own key), replays whole batches, and lets heavy items queue past the limit.

let service: TestService;
before(async () => {
  // Enough worker slots that only the per-account render limit (5) can hold a heavy job back.
  service = await startTestService({ env: { WORKER_CONCURRENCY: '12' } });
});
after(async () => {
  await service.stop();
});

const START = 100_000;
const ENDPOINT = 'generate-and-post';
const RENDERING = new Set(['leased', 'running', 'uploading']);
const FINAL = new Set(['completed', 'failed', 'dead_lettered', 'cancelled']);

const item = (body: Record<string, unknown>, idempotencyKey?: string) => ({
  endpoint: ENDPOINT,
  body,
  ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
});

function batch(c: AccountClient, body: unknown, key: string | null) {
  return c.call('POST', '/api/v1/batch', { body, headers: key === null ? {} : { 'idempotency-key': key } });
}

interface RenderSample {
  rendering: string[];
  queued: string[];
}

/** Samples the account's job statuses until every job is final; returns the samples and the final statuses. */
async function watchUntilFinal(
  c: AccountClient,
  timeoutMs: number,
): Promise<{ samples: RenderSample[]; final: Map<string, string> }> {
  const samples: RenderSample[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await c.jobStatuses();
    samples.push({
      rendering: jobs.filter((j) => RENDERING.has(j.status)).map((j) => j.id),
      queued: jobs.filter((j) => j.status === 'queued').map((j) => j.id),
    });
    if (jobs.every((j) => FINAL.has(j.status)))
      return { samples, final: new Map(jobs.map((j) => [j.id, j.status])) };
    if (Date.now() > deadline)
      throw new Error(`jobs not final after ${timeoutMs} ms: ${JSON.stringify(jobs)}`);
    await sleep(100);
  }
}

void describe('POST /batch', () => {
  void test('at most 25 jobs per batch', async () => {
    const c = await newClient(service, START);
    const jobs = (n: number) => Array.from({ length: n }, (_, i) => item({ topic: `item ${i}` }));
    const tooMany = await batch(c, { jobs: jobs(26) }, uniqueKey('batch'));
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.success, false);
    assert.equal(tooMany.body.error.code, 'INPUT_INVALID');
    const full = await batch(c, { jobs: jobs(25), dry_run: true }, null);
    assert.equal(full.status, 200);
    assert.equal(full.body.data.valid, true);
    assert.equal(full.body.data.price.usd_cents, 25 * 60);
    assert.deepEqual(await c.jobIds(), []);
    assert.equal(await c.balance(), START);
  });

  void test('a live batch needs an Idempotency-Key', async () => {
    const c = await newClient(service, START);
    const missing = await batch(c, { jobs: [item({ topic: 'no key' })] }, null);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.deepEqual(await c.jobIds(), []);
  });

  void test('per-item results, item keys, and a replay of the whole batch', async () => {
    const c = await newClient(service, START);
    const batchKey = uniqueKey('batch');
    const ownKey = uniqueKey('own');
    const body = { jobs: [item({ topic: 'item zero' }), item({ topic: 'item one' }, ownKey)] };
    const first = await batch(c, body, batchKey);
    assert.equal(first.status, 200);
    assert.equal(first.body.success, true);
    const data = first.body.data;
    assert.equal(data.accepted, 2);
    assert.equal(data.rejected, 0);
    assert.equal(data.results.length, 2);
    for (const [index, result] of data.results.entries()) {
      assert.equal(result.index, index);
      assert.equal(result.endpoint, ENDPOINT);
      assert.equal(result.ok, true);
      assert.equal(result.http_status, 202);
      assert.match(result.job_id, /^job_/);
      assert.equal(result.response.success, true);
      assert.equal(result.response.data.job_id, result.job_id);
      assert.equal(result.response.data.status, 'queued');
    }
    const [zero, one] = data.results.map((r: { job_id: string }) => r.job_id);
    assert.notEqual(zero, one);
    assert.deepEqual((await c.jobIds()).sort(), [zero, one].sort());
    assert.equal(await c.balance(), START - 120);

    const again = await batch(c, body, batchKey);
    assert.deepEqual(replayable(again), replayable(first));
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.equal(again.body.meta.replayed, true);
    assert.equal(await c.chargeCount(), 2);
    assert.equal((await c.jobIds()).length, 2);
    const otherBody = await batch(c, { jobs: [item({ topic: 'a different batch' })] }, batchKey);
    assert.equal(otherBody.status, 409);
    assert.equal(otherBody.body.error.code, 'RESOURCE_ALREADY_EXISTS');

    // Item 0 was stored under "<batch key>:0"; item 1 under its own key, so "<batch key>:1" is still unused.
    const single0 = await c.generate({ topic: 'item zero' }, `${batchKey}:0`);
    assert.equal(single0.status, 202);
    assert.equal(single0.headers.get('x-idempotent-replay'), 'true');
    assert.equal(single0.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(single0.body.data.job_id, zero);
    assert.deepEqual(single0.body.data, data.results[0].response.data);
    const single1 = await c.generate({ topic: 'item one' }, ownKey);
    assert.equal(single1.headers.get('x-idempotent-replay-match'), 'key');
    assert.equal(single1.body.data.job_id, one);
    const unusedKey = await c.generate({ topic: 'unrelated single call' }, `${batchKey}:1`);
    assert.equal(unusedKey.status, 202);
    assert.equal(unusedKey.headers.get('x-idempotent-replay'), null);
    assert.equal(await c.chargeCount(), 3);
  });

  void test('an invalid item is rejected alone', async () => {
    const c = await newClient(service, START);
    const response = await batch(
      c,
      {
        jobs: [
          item({ topic: 'fine one' }),
          item({ topic: 'bad style', style: 'neon' }),
          item({ topic: 'fine two' }),
        ],
      },
      uniqueKey('batch'),
    );
    assert.equal(response.status, 200);
    const { accepted, rejected, results } = response.body.data;
    assert.equal(accepted, 2);
    assert.equal(rejected, 1);
    assert.equal(results[1].ok, false);
    assert.equal(results[1].http_status, 400);
    assert.equal(results[1].job_id, null);
    assert.equal(results[1].response.error.code, 'INPUT_INVALID');
    assert.deepEqual(
      results[1].response.error.details.fields.map((f: { field: string }) => f.field),
      ['style'],
    );
    for (const index of [0, 2]) {
      assert.equal(results[index].ok, true);
      assert.equal(results[index].http_status, 202);
    }
    assert.deepEqual((await c.jobIds()).sort(), [results[0].job_id, results[2].job_id].sort());
    assert.equal(await c.balance(), START - 120);
  });

  void test('an item the balance cannot pay is 402 and the others are still accepted', async () => {
    const c = await newClient(service, 130);
    const response = await batch(
      c,
      { jobs: [item({ topic: 'paid one' }), item({ topic: 'paid two' }), item({ topic: 'unpaid three' })] },
      uniqueKey('batch'),
    );
    assert.equal(response.status, 200);
    const { accepted, rejected, results } = response.body.data;
    assert.equal(accepted, 2);
    assert.equal(rejected, 1);
    assert.deepEqual(
      results.map((r: { http_status: number }) => r.http_status),
      [202, 202, 402],
    );
    assert.equal(results[2].ok, false);
    assert.equal(results[2].job_id, null);
    assert.equal(results[2].response.error.code, 'INSUFFICIENT_API_CREDITS');
    assert.equal(results[2].response.error.details.required_usd_cents, 60);
    assert.equal(await c.balance(), 10);
    assert.equal((await c.jobIds()).length, 2);
  });

  void test('two identical items are two jobs', async () => {
    const c = await newClient(service, START);
    const response = await batch(
      c,
      { jobs: [item({ topic: 'twins' }), item({ topic: 'twins' })] },
      uniqueKey('batch'),
    );
    assert.equal(response.status, 200);
    const [a, b] = response.body.data.results;
    assert.equal(a.http_status, 202);
    assert.equal(b.http_status, 202);
    assert.notEqual(a.job_id, b.job_id);
    assert.deepEqual((await c.jobIds()).sort(), [a.job_id, b.job_id].sort());
    assert.equal(await c.chargeCount(), 2);
    assert.equal(await c.balance(), START - 120);
  });

  void test('a dry-run batch reports per-item validity and the total price and charges nothing', async () => {
    const c = await newClient(service, START);
    const valid = await batch(
      c,
      { jobs: [item({ topic: 'price a' }), item({ topic: 'price b', style: 'fancy' })], dry_run: true },
      null,
    );
    assert.equal(valid.status, 200);
    assert.equal(valid.body.data.valid, true);
    assert.equal(valid.body.data.price.usd_cents, 120);
    assert.deepEqual(
      valid.body.data.results.map((r: { ok: boolean }) => r.ok),
      [true, true],
    );
    assert.equal(valid.body.data.results[1].response.data.price.usd_cents, 60);

    const mixed = await batch(
      c,
      { jobs: [item({ topic: 'price a' }), item({ topic: 'price b', style: 'neon' })], dry_run: true },
      uniqueKey('batch'),
    );
    assert.equal(mixed.status, 200);
    assert.equal(mixed.body.data.valid, false);
    const [good, bad] = mixed.body.data.results;
    assert.equal(good.ok, true);
    assert.equal(good.index, 0);
    assert.equal(bad.ok, false);
    assert.equal(bad.index, 1);
    assert.equal(bad.http_status, 400);
    assert.equal(bad.response.error.code, 'INPUT_INVALID');
    assert.deepEqual(await c.jobIds(), []);
    assert.equal(await c.chargeCount(), 0);
    assert.equal(await c.balance(), START);
  });

  void describe('heavy render limit', { concurrency: true }, () => {
    void test('a sixth direct heavy call gets 429 RENDER_CONCURRENCY_LIMIT_EXCEEDED', async () => {
      const c = await newClient(service, START);
      const direct = [];
      for (let i = 0; i < 5; i++)
        direct.push(
          await c.generate({ topic: `direct ${i}`, outcome: 'sleep', sleep_ms: 3_000 }, uniqueKey()),
        );
      assert.deepEqual(
        direct.map((r) => r.status),
        [202, 202, 202, 202, 202],
      );
      const sixth = await c.generate({ topic: 'direct 5', outcome: 'sleep', sleep_ms: 3_000 }, uniqueKey());
      assert.equal(sixth.status, 429);
      assert.equal(sixth.body.error.code, 'RENDER_CONCURRENCY_LIMIT_EXCEEDED');
      assert.equal(await c.balance(), START - 5 * 60);
      assert.equal((await c.jobIds()).length, 5);
      const { final } = await watchUntilFinal(c, 30_000);
      assert.deepEqual([...final.values()], Array(5).fill('completed'));
    });

    void test('inside a batch more than 5 heavy jobs are accepted and the extra ones wait queued', async () => {
      const c = await newClient(service, START);
      const jobs = Array.from({ length: 7 }, (_, i) =>
        item({ topic: `batched ${i}`, outcome: 'sleep', sleep_ms: 2_000 }),
      );
      const response = await batch(c, { jobs }, uniqueKey('batch'));
      assert.equal(response.status, 200);
      assert.equal(response.body.data.accepted, 7);
      assert.deepEqual(
        response.body.data.results.map((r: { http_status: number }) => r.http_status),
        Array(7).fill(202),
      );
      assert.equal(await c.balance(), START - 7 * 60);

      const { samples, final } = await watchUntilFinal(c, 40_000);
      const mostRendering = Math.max(...samples.map((s) => s.rendering.length));
      assert.equal(mostRendering, 5, 'never more than 5 renders of the account at once');
      assert.ok(
        samples.some((s) => s.rendering.length === 5 && s.queued.length === 2),
        'two jobs waited queued while five rendered',
      );
      assert.deepEqual([...final.values()], Array(7).fill('completed'));
    });
  });
});
