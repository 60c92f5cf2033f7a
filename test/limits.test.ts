import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../src/platform/accounts/accounts.ts';
import { startChildService } from './support/http-child-process.ts';
import { startTestService, type TestResponse, type TestService } from './support/test-service.ts';

// Spec 1 §8 and issue 2 item 12: per-key read limits shared by every API process, and at most five
// concurrent heavy renders per account.

const JOB_READS = 5;
const METADATA_READS = 3;

let service: TestService;
let jobId: string;
before(async () => {
  service = await startTestService({
    env: { JOB_READS_PER_MINUTE: String(JOB_READS), METADATA_READS_PER_MINUTE: String(METADATA_READS) },
  });
  const receipt = await service.call('POST', '/api/v1/generate-and-post', {
    body: { topic: 'read me' },
    headers: { 'idempotency-key': `limits-${randomUUID()}` },
  });
  assert.equal(receipt.status, 202, receipt.text);
  jobId = receipt.body.data.job_id;
});
after(async () => {
  await service.stop();
});

/** A fresh live key of the test account: every read-limit test starts from an unused per-key counter. */
const freshKey = () => createApiKey(service.runtime.database.db, service.account.account_id, false);

/** Waits for a new minute when little of the current one is left, so a test's reads all fall in one minute. */
async function roomInThisMinute(neededMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await sleep(left + 250);
}

function assertRateLimited(response: TestResponse): void {
  assert.equal(response.status, 429, response.text);
  assert.equal(response.body.success, false);
  assert.equal(response.body.error.retryable, true);
  assert.match(response.body.error.code, /^[A-Z_]+$/);
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `Retry-After ${response.headers.get('retry-after')}`,
  );
  assert.equal(response.headers.get('x-request-id'), response.body.meta.request_id);
}

const readJob = (key: string, target: Pick<TestService, 'call'> = service) =>
  target.call('GET', `/api/v1/jobs/${jobId}`, { key });

void describe('read limits', () => {
  void test('job reads: the sixth read of a key within a minute is 429 with Retry-After; another key still reads', async () => {
    const key = await freshKey();
    const other = await freshKey();
    await roomInThisMinute();
    for (let i = 0; i < JOB_READS; i++) assert.equal((await readJob(key)).status, 200, `read ${i + 1}`);
    assertRateLimited(await readJob(key));
    assertRateLimited(await readJob(key));
    const byOther = await readJob(other);
    assert.equal(byOther.status, 200, byOther.text);
    assert.equal(byOther.body.data.job.id, jobId);
  });

  void test('metadata reads (/usage) are limited per key likewise', async () => {
    const key = await freshKey();
    await roomInThisMinute();
    for (let i = 0; i < METADATA_READS; i++)
      assert.equal((await service.call('GET', '/api/v1/usage', { key })).status, 200);
    assertRateLimited(await service.call('GET', '/api/v1/usage', { key }));
    assert.equal(
      (await service.call('GET', '/api/v1/usage', { key: service.account.sandbox_key })).status,
      200,
    );
  });

  void test('counters are shared by two API processes on one database', async () => {
    const child = await startChildService(service, { RUN_WORKER: '0' });
    try {
      const key = await freshKey();
      await roomInThisMinute();
      for (let i = 0; i < 3; i++) assert.equal((await readJob(key)).status, 200, `in-process read ${i + 1}`);
      for (let i = 0; i < 2; i++)
        assert.equal((await readJob(key, child)).status, 200, `child read ${i + 1}`);
      assertRateLimited(await readJob(key, child));
      assertRateLimited(await readJob(key));

      const metaKey = await freshKey();
      await roomInThisMinute();
      assert.equal((await service.call('GET', '/api/v1/usage', { key: metaKey })).status, 200);
      assert.equal((await child.call('GET', '/api/v1/usage', { key: metaKey })).status, 200);
      assert.equal((await service.call('GET', '/api/v1/usage', { key: metaKey })).status, 200);
      assertRateLimited(await child.call('GET', '/api/v1/usage', { key: metaKey }));
    } finally {
      await child.stop();
    }
  });
});

void describe('heavy render concurrency', () => {
  void test('five heavy renders in flight per account: the sixth is 429 RENDER_CONCURRENCY_LIMIT_EXCEEDED and free', async () => {
    const account = await service.newAccount(10_000);
    const key = account.live_key;
    const submit = (topic: string) =>
      service.call('POST', '/api/v1/generate-and-post', {
        key,
        body: { topic, outcome: 'sleep', sleep_ms: 60_000 },
        headers: { 'idempotency-key': `heavy-${randomUUID()}` },
      });

    const first = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(`heavy ${i}`)));
    const accepted = first.filter((r) => r.status === 202);
    const refused = first.filter((r) => r.status !== 202);
    assert.equal(accepted.length, 5, first.map((r) => r.status).join(','));
    assert.equal(refused.length, 1);
    assert.equal(refused[0]!.status, 429, refused[0]!.text);
    assert.equal(refused[0]!.body.error.code, 'RENDER_CONCURRENCY_LIMIT_EXCEEDED');
    assert.equal(refused[0]!.body.error.retryable, true);
    assert.equal(
      (await service.call('GET', '/api/v1/usage', { key })).body.data.balance_usd_cents,
      10_000 - 5 * 60,
    );

    const sixth = await submit('heavy direct');
    assert.equal(sixth.status, 429, sixth.text);
    assert.equal(sixth.body.error.code, 'RENDER_CONCURRENCY_LIMIT_EXCEEDED');
    assert.equal(
      (await service.call('GET', '/api/v1/usage', { key })).body.data.balance_usd_cents,
      10_000 - 5 * 60,
    );

    const ids = accepted.map((r) => r.body.data.job_id as string);
    const cancelled = await service.call('POST', `/api/v1/jobs/${ids[0]}/cancel`, { key });
    assert.equal(cancelled.status, 200, cancelled.text);
    const next = await submit('heavy after cancel');
    assert.equal(next.status, 202, next.text);
    ids.push(next.body.data.job_id);

    for (const id of ids.slice(1))
      assert.equal((await service.call('POST', `/api/v1/jobs/${id}/cancel`, { key })).status, 200);
  });
});
