import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ledgerSummary } from '../src/platform/ledger/ledger.ts';
import { testMode } from './support/test-mode.ts';
import { call, startTestService, type TestService } from './support/test-service.ts';

// The two hottest paths in their fast forms: a paid acceptance of one light job is one statement (job, event,
// queue message, charge, ledger entry, stored answers), and GET /jobs/{id} answers from a per-process cache
// that every change to a job invalidates in every process.

void describe('one-statement acceptance', () => {
  let service: TestService;
  let price: number;
  before(async () => {
    service = await startTestService({ modes: [testMode({ heavy: false })], worker: false });
    const dry = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'p', dry_run: true },
    });
    price = dry.body.data.price.usd_cents;
    assert.ok(price > 0);
  });
  after(async () => {
    await service.stop();
  });

  const count = async (text: string, values: unknown[]): Promise<number> => {
    const { rows } = await service.runtime.database.pool.query(text, values);
    return Number(rows[0].n);
  };

  void test('20 concurrent calls on exactly 5 jobs worth: 5 accepted with job, event and message; 15 refused, nothing left', async () => {
    const account = await service.newAccount(5 * price);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        service.call('POST', '/api/v1/generate-and-post', {
          key: account.live_key,
          body: { topic: `race ${i}` },
          headers: { 'idempotency-key': `race-${account.account_id}-${i}` },
        }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 402);
    assert.equal(accepted.length, 5, JSON.stringify(responses.map((r) => r.status)));
    assert.equal(refused.length, 15);
    for (const r of refused) {
      assert.equal(r.body.error.code, 'INSUFFICIENT_API_CREDITS');
      assert.equal(r.body.error.details.required_usd_cents, price);
    }
    const remaining = accepted.map((r) => r.body.meta.credits_remaining).sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      [0, 1, 2, 3, 4].map((i) => i * price),
    );
    assert.equal(
      await count('SELECT count(*) AS n FROM jobs WHERE account_id = $1', [account.account_id]),
      5,
    );
    for (const r of accepted) {
      const jobId = r.body.data.job_id;
      assert.equal(
        await count("SELECT count(*) AS n FROM job_events WHERE job_id = $1 AND status = 'queued'", [jobId]),
        1,
      );
      assert.equal(
        await count(
          "SELECT count(*) AS n FROM pgboss.job WHERE name = 'generation' AND data->>'jobId' = $1",
          [jobId],
        ),
        1,
      );
    }
    const summary = await ledgerSummary(service.runtime.database.db, account.account_id);
    assert.equal(summary.balance_cents, 0);
    assert.equal(summary.charged_cents, 5 * price);
    // The balance is the sum of the entries, and each entry's balance_after follows from the one before.
    const { rows } = await service.runtime.database.pool.query(
      'SELECT amount_cents, balance_after_cents FROM ledger_entries WHERE account_id = $1 ORDER BY id',
      [account.account_id],
    );
    let running = 0;
    for (const entry of rows) {
      running += Number(entry.amount_cents);
      assert.equal(Number(entry.balance_after_cents), running);
    }
    assert.equal(running, 0);
  });

  void test("the queue message is pg-boss's own: same policy, retries, expiry and dead letter as a message it sends", async () => {
    const accepted = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'message shape' },
      headers: { 'idempotency-key': 'message-shape-0001' },
    });
    assert.equal(accepted.status, 202);
    const { db, pool } = service.runtime.database;
    await service.runtime.context.queue.enqueueGeneration(db, 'job_sent_by_pg_boss');
    const columns =
      'name, priority, state, retry_limit, retry_delay, retry_backoff, expire_in, dead_letter, policy, ' +
      'keep_until - start_after AS kept_for, singleton_key';
    const row = async (jobId: string) => {
      const { rows } = await pool.query(`SELECT ${columns} FROM pgboss.job WHERE data->>'jobId' = $1`, [
        jobId,
      ]);
      assert.equal(rows.length, 1);
      return rows[0];
    };
    assert.deepEqual(await row(accepted.body.data.job_id), await row('job_sent_by_pg_boss'));
  });

  void test('a replay with the same key returns the stored answer, balance included, and charges nothing', async () => {
    const account = await service.newAccount(10 * price);
    const send = () =>
      service.call('POST', '/api/v1/generate-and-post', {
        key: account.live_key,
        body: { topic: 'replayed' },
        headers: { 'idempotency-key': `replay-${account.account_id}` },
      });
    const first = await send();
    assert.equal(first.status, 202);
    assert.equal(first.body.meta.credits_remaining, 9 * price);
    const again = await send();
    assert.equal(again.status, 202);
    // The stored answer, with the replay's own request id and the replay fields in meta.
    const { meta: firstMeta, ...firstRest } = first.body;
    const { meta: againMeta, ...againRest } = again.body;
    assert.deepEqual(againRest, firstRest);
    assert.equal(againMeta.replayed, true);
    assert.equal(againMeta.original_request_id, firstMeta.request_id);
    assert.equal(againMeta.credits_used, firstMeta.credits_used);
    assert.equal(againMeta.credits_remaining, firstMeta.credits_remaining);
    assert.equal(again.headers.get('x-job-id'), first.headers.get('x-job-id'));
    assert.equal(
      (await ledgerSummary(service.runtime.database.db, account.account_id)).balance_cents,
      9 * price,
    );
  });
});

void describe('job reads across two API processes', () => {
  let a: TestService;
  let b: TestService;
  before(async () => {
    a = await startTestService({ modes: [testMode({ heavy: false })], worker: false });
    b = await startTestService({
      modes: [testMode({ heavy: false })],
      worker: false,
      databaseUrl: a.databaseUrl,
    });
  });
  after(async () => {
    await b.stop();
    await a.stop();
  });

  const readOnB = async (jobId: string) => {
    const response = await call(b.url, a.account.live_key, 'GET', `/api/v1/jobs/${jobId}`);
    assert.equal(response.status, 200);
    return response.body.data.job;
  };

  void test('a change made anywhere is seen by the next read in the other process, never an older state', async () => {
    const accepted = await a.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'cached' },
      headers: { 'idempotency-key': 'cached-read-0001' },
    });
    assert.equal(accepted.status, 202);
    const jobId = accepted.body.data.job_id;
    assert.equal((await readOnB(jobId)).status, 'queued');
    // A write straight to the database, as no API route makes it: only the row's trigger can tell B.
    for (let i = 1; i <= 20; i++) {
      await a.runtime.database.pool.query('UPDATE jobs SET artifacts = $2::jsonb WHERE id = $1', [
        jobId,
        JSON.stringify({ title: `version ${i}` }),
      ]);
      assert.equal((await readOnB(jobId)).artifacts.title, `version ${i}`);
    }
    const cancelled = await a.call('POST', `/api/v1/jobs/${jobId}/cancel`);
    assert.equal(cancelled.status, 200);
    const job = await readOnB(jobId);
    assert.equal(job.status, 'cancelled');
    assert.ok(
      job.progress.some((p: { stage: string }) => p.stage === 'cancelled'),
      JSON.stringify(job.progress),
    );
  });

  void test("another account's job is not found, cached or not", async () => {
    const accepted = await a.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'private' },
      headers: { 'idempotency-key': 'cached-read-0002' },
    });
    const jobId = accepted.body.data.job_id;
    await readOnB(jobId);
    const other = await b.newAccount();
    const response = await call(b.url, other.live_key, 'GET', `/api/v1/jobs/${jobId}`);
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'JOB_NOT_FOUND');
  });
});
