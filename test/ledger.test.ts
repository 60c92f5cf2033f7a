import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../src/platform/accounts/accounts.ts';
import { openDatabase, type DatabaseHandle } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { ApiError } from '../src/platform/errors.ts';
import {
  balanceOf,
  charge,
  chargeAlone,
  ledgerSummary,
  refundJob,
  topUp,
} from '../src/platform/ledger/ledger.ts';
import { createTestDatabase } from './support/test-database.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

/** A small seeded generator, so a failing run can be replayed with LEDGER_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `tasks` with at most `limit` in flight at a time. */
async function inFlight(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: limit }, lane));
}

function isInsufficientCredits(error: unknown): boolean {
  return error instanceof ApiError && error.status === 402 && error.code === 'INSUFFICIENT_API_CREDITS';
}

/** The invariants of spec 1 §1.2 and issue 2 item 5, checked on the whole table. */
async function assertLedgerInvariants(handle: DatabaseHandle, accountIds: string[]): Promise<void> {
  const { pool } = handle;
  for (const accountId of accountIds) {
    const { rows } = await pool.query(
      `SELECT a.balance_cents, coalesce(sum(e.amount_cents), 0)::bigint AS total
         FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
        WHERE a.id = $1 GROUP BY a.balance_cents`,
      [accountId],
    );
    assert.equal(
      rows[0].balance_cents,
      rows[0].total,
      `balance of ${accountId} equals the sum of its entries`,
    );
    assert.ok(rows[0].balance_cents >= 0);

    // Entries of one account are appended one at a time: each balance_after follows from the previous one.
    const entries = await pool.query(
      'SELECT amount_cents, balance_after_cents FROM ledger_entries WHERE account_id = $1 ORDER BY id',
      [accountId],
    );
    let running = 0;
    for (const entry of entries.rows) {
      running += entry.amount_cents;
      assert.equal(entry.balance_after_cents, running, `running balance of ${accountId}`);
    }
  }
  const negative = await pool.query(
    'SELECT count(*)::int AS n FROM ledger_entries WHERE balance_after_cents < 0',
  );
  assert.equal(negative.rows[0].n, 0);
  const duplicates = await pool.query(
    "SELECT job_id, reason, count(*)::int AS n FROM ledger_entries WHERE kind = 'refund' GROUP BY job_id, reason HAVING count(*) > 1",
  );
  assert.deepEqual(duplicates.rows, [], 'at most one refund per job and reason');
  const overRefunded = await pool.query(
    `SELECT job_id, -sum(amount_cents) FILTER (WHERE kind = 'charge') AS charged, sum(amount_cents) FILTER (WHERE kind = 'refund') AS refunded
       FROM ledger_entries WHERE job_id IS NOT NULL GROUP BY job_id
     HAVING coalesce(sum(amount_cents) FILTER (WHERE kind = 'refund'), 0) > coalesce(-sum(amount_cents) FILTER (WHERE kind = 'charge'), 0)`,
  );
  assert.deepEqual(overRefunded.rows, [], 'refunds of a job never exceed its charge');
}

void describe('ledger under thousands of concurrent operations', () => {
  let handle: DatabaseHandle;
  before(async () => {
    handle = openDatabase(await createTestDatabase(), { max: 24 });
    await migrate(handle.pool);
  });
  after(async () => {
    await handle.close();
  });

  void test('balance = sum of entries >= 0, one refund per job and reason, refunds never exceed charges', async () => {
    const { db } = handle;
    const seed = Number(process.env.LEDGER_SEED ?? randomInt(2 ** 31));
    const random = prng(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const amount = (max: number) => 1 + Math.floor(random() * max);
    const context = `LEDGER_SEED=${seed}`;

    const accounts: string[] = [];
    for (let i = 0; i < 6; i++)
      accounts.push((await createAccount(db, `ledger-${seed}-${i}`, 1000)).account_id);
    const tally = new Map(accounts.map((id) => [id, { toppedUp: 1000, charged: 0, refunded: 0 }]));
    const jobs: { id: string; accountId: string; cents: number; charged?: boolean }[] = [];
    let refused = 0;
    let operations = 0;

    const doTopUp = (accountId: string, cents: number) => async () => {
      operations++;
      await db.transaction().execute((tx) => topUp(tx, accountId, cents, 'test top-up'));
      tally.get(accountId)!.toppedUp += cents;
    };
    const doCharge = (job: (typeof jobs)[number]) => async () => {
      operations++;
      try {
        const after = await db
          .transaction()
          .execute((tx) => charge(tx, job.accountId, job.cents, job.id, 'test job'));
        assert.ok(after >= 0);
        job.charged = true;
        tally.get(job.accountId)!.charged += job.cents;
      } catch (error) {
        assert.ok(isInsufficientCredits(error), `${context}: ${String(error)}`);
        const details = (error as ApiError).details as {
          required_usd_cents: number;
          balance_usd_cents: number;
        };
        assert.equal(details.required_usd_cents, job.cents);
        assert.ok(details.balance_usd_cents < job.cents);
        job.charged = false;
        refused++;
      }
    };
    const doRefund = (job: (typeof jobs)[number], reason: string, cents?: number) => async () => {
      operations++;
      const refunded = await db
        .transaction()
        .execute((tx) => refundJob(tx, job.accountId, job.id, reason, cents));
      assert.ok(refunded >= 0 && refunded <= job.cents, `${context}: refunded ${refunded} of ${job.cents}`);
      if (cents !== undefined) assert.ok(refunded <= cents);
      tally.get(job.accountId)!.refunded += refunded;
    };

    const tasks: (() => Promise<void>)[] = [];
    while (tasks.length < 2600) {
      const roll = random();
      if (roll < 0.15) {
        tasks.push(doTopUp(pick(accounts), amount(200)));
      } else if (roll < 0.65 || jobs.length === 0) {
        const job = {
          id: `job_ledger_${jobs.length}_${seed}`,
          accountId: pick(accounts),
          cents: amount(250),
        };
        jobs.push(job);
        tasks.push(doCharge(job));
      } else if (roll < 0.77) {
        tasks.push(doRefund(pick(jobs), 'job_failed'));
      } else if (roll < 0.87) {
        const job = pick(jobs);
        tasks.push(doRefund(job, 'undelivered_items', amount(job.cents)));
      } else {
        // The same job refunded several times at once, as when a failure and a reaper race.
        const job = pick(jobs);
        const copies = 3 + Math.floor(random() * 3);
        const burst = Array.from({ length: copies }, () => doRefund(job, 'job_failed'));
        tasks.push(async () => {
          await Promise.all(burst.map((run) => run()));
        });
      }
    }
    await inFlight(tasks, 20);

    assert.ok(operations >= 3000, `${operations} operations`);
    assert.ok(refused > 50, `${context}: only ${refused} charges met a short balance`);
    assert.ok(jobs.filter((j) => j.charged).length > 300, context);
    await assertLedgerInvariants(handle, accounts);

    for (const accountId of accounts) {
      const expected = tally.get(accountId)!;
      const summary = await ledgerSummary(db, accountId);
      assert.equal(summary.topped_up_cents, expected.toppedUp, `${context}: top-ups of ${accountId}`);
      assert.equal(summary.charged_cents, expected.charged, `${context}: charges of ${accountId}`);
      assert.equal(summary.refunded_cents, expected.refunded, `${context}: refunds of ${accountId}`);
      assert.equal(summary.balance_cents, expected.toppedUp - expected.charged + expected.refunded);
      assert.equal(await balanceOf(db, accountId), summary.balance_cents);
    }
    const refusedIds = jobs.filter((j) => j.charged === false).map((j) => j.id);
    const leaked = await handle.pool.query(
      'SELECT count(*)::int AS n FROM ledger_entries WHERE job_id = ANY($1)',
      [refusedIds],
    );
    assert.equal(leaked.rows[0].n, 0, 'a refused charge leaves no entry and nothing to refund');
  });

  void test('a charge of exactly the balance leaves 0; one cent more is refused with 402', async () => {
    const { db } = handle;
    const { account_id: accountId } = await createAccount(db, `exact-${Math.random()}`, 1000);
    await assert.rejects(
      db.transaction().execute((tx) => charge(tx, accountId, 1001, 'job_exact_1', 'test job')),
      (error: unknown) => isInsufficientCredits(error) && (error as ApiError).retryable === false,
    );
    assert.equal(
      await db.transaction().execute((tx) => charge(tx, accountId, 1000, 'job_exact_2', 'test job')),
      0,
    );
    await assert.rejects(
      db.transaction().execute((tx) => charge(tx, accountId, 1, 'job_exact_3', 'test job')),
      isInsufficientCredits,
    );
    assert.equal(
      await db.transaction().execute((tx) => refundJob(tx, accountId, 'job_exact_1', 'job_failed')),
      0,
      'nothing to refund for a refused charge',
    );
    assert.equal(
      await db
        .transaction()
        .execute((tx) => refundJob(tx, accountId, 'job_exact_2', 'undelivered_items', 300)),
      300,
    );
    assert.equal(
      await db.transaction().execute((tx) => refundJob(tx, accountId, 'job_exact_2', 'job_failed')),
      700,
      'the rest, after a partial refund',
    );
    assert.equal(
      await db.transaction().execute((tx) => refundJob(tx, accountId, 'job_exact_2', 'job_cancelled')),
      0,
    );
    assert.equal(await balanceOf(db, accountId), 1000);
    await assertLedgerInvariants(handle, [accountId]);
  });

  void test('a charge on its own (paid reads): 100 concurrent charges never overdraw; the rest are 402', async () => {
    const { db } = handle;
    const { account_id: accountId } = await createAccount(db, `alone-${Math.random()}`, 1000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => chargeAlone(db, accountId, 30, `req_alone_${i}`, 'test read')),
    );
    const charged = outcomes.filter((o) => o.status === 'fulfilled');
    assert.equal(charged.length, 33, 'exactly floor(1000 / 30) charges succeed');
    assert.ok(outcomes.every((o) => o.status === 'fulfilled' || isInsufficientCredits(o.reason)));
    assert.equal(await balanceOf(db, accountId), 10);
    await assertLedgerInvariants(handle, [accountId]);
  });

  void test('ledger_entries is append-only: UPDATE and DELETE raise', async () => {
    const { pool } = handle;
    const { account_id: accountId } = await createAccount(handle.db, `append-${Math.random()}`, 1000);
    await assert.rejects(
      pool.query('UPDATE ledger_entries SET amount_cents = 5000 WHERE account_id = $1', [accountId]),
      /append-only/,
    );
    await assert.rejects(
      pool.query("UPDATE ledger_entries SET reason = 'edited' WHERE account_id = $1", [accountId]),
      /append-only/,
    );
    await assert.rejects(
      pool.query('DELETE FROM ledger_entries WHERE account_id = $1', [accountId]),
      /append-only/,
    );
    const { rows } = await pool.query(
      'SELECT amount_cents, reason FROM ledger_entries WHERE account_id = $1',
      [accountId],
    );
    assert.deepEqual(rows, [{ amount_cents: 1000, reason: 'initial balance' }]);
    await assert.rejects(
      pool.query('UPDATE accounts SET balance_cents = -1 WHERE id = $1', [accountId]),
      /check/i,
    );
  });
});

void describe('ledger through HTTP', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { HEAVY_RENDERS_PER_ACCOUNT: '100' } });
  });
  after(async () => {
    await service.stop();
  });

  const paidCall = (key: string, body: Record<string, unknown>) =>
    service.call('POST', '/api/v1/generate-and-post', {
      key,
      body,
      headers: { 'idempotency-key': `ledger-${Math.random()}` },
    });

  async function jobCount(accountId: string): Promise<number> {
    const { rows } = await service.runtime.database.pool.query(
      'SELECT count(*)::int AS n FROM jobs WHERE account_id = $1',
      [accountId],
    );
    return rows[0].n;
  }

  async function refundsOf(jobId: string): Promise<number[]> {
    const { rows } = await service.runtime.database.pool.query(
      "SELECT amount_cents FROM ledger_entries WHERE job_id = $1 AND kind = 'refund'",
      [jobId],
    );
    return rows.map((r: { amount_cents: number }) => r.amount_cents);
  }

  void test('50 cents: 402 INSUFFICIENT_API_CREDITS states 60 required; nothing charged, no job', async () => {
    const account = await service.newAccount(50);
    const response = await paidCall(account.live_key, { topic: 'too poor' });
    assert.equal(response.status, 402);
    assert.equal(response.body.success, false);
    assert.equal(response.body.error.code, 'INSUFFICIENT_API_CREDITS');
    assert.equal(response.body.error.retryable, false);
    assert.equal(response.body.error.details.required_usd_cents, 60);
    assert.ok(response.body.meta.request_id);
    const usage = await service.call('GET', '/api/v1/usage', { key: account.live_key });
    assert.equal(usage.body.data.balance_usd_cents, 50);
    assert.equal(await jobCount(account.account_id), 0);
    const summary = await ledgerSummary(service.runtime.database.db, account.account_id);
    assert.deepEqual(summary, {
      balance_cents: 50,
      entries: 1,
      topped_up_cents: 50,
      charged_cents: 0,
      refunded_cents: 0,
    });
  });

  void test('20 concurrent paid calls on exactly 5 jobs worth: 5 accepted, 15 refused with 402, balance 0', async () => {
    const account = await service.newAccount(300);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        paidCall(account.live_key, { topic: `race ${i}`, outcome: 'succeed' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 202).length, 5, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 402).length, 15, JSON.stringify(statuses));
    for (const refused of responses.filter((r) => r.status === 402)) {
      assert.equal(refused.body.error.code, 'INSUFFICIENT_API_CREDITS');
      assert.equal(refused.body.error.details.required_usd_cents, 60);
    }
    assert.equal(await jobCount(account.account_id), 5);
    const summary = await ledgerSummary(service.runtime.database.db, account.account_id);
    assert.equal(summary.balance_cents, 0);
    assert.equal(summary.charged_cents, 300);
    await assertLedgerInvariants(service.runtime.database, [account.account_id]);
    for (const accepted of responses.filter((r) => r.status === 202)) {
      assert.equal(
        (await waitForJob(service, accepted.body.data.job_id, { key: account.live_key })).status,
        'completed',
      );
    }
    const usage = await service.call('GET', '/api/v1/usage', { key: account.live_key });
    assert.equal(usage.body.data.balance_usd_cents, 0);
  });

  void test('every failed, dead-lettered or cancelled job is refunded exactly once, even when ended twice', async () => {
    const account = await service.newAccount(1000);
    const key = account.live_key;
    const submit = async (body: Record<string, unknown>) => {
      const response = await paidCall(key, { topic: `refund ${Math.random()}`, ...body });
      assert.equal(response.status, 202, response.text);
      return response.body.data.job_id as string;
    };
    const failed = await Promise.all([
      submit({ outcome: 'fail' }),
      submit({ outcome: 'fail' }),
      submit({ outcome: 'fail' }),
    ]);
    const deadLettered = await submit({ outcome: 'retryable' });
    const cancelled = await submit({ outcome: 'sleep', sleep_ms: 20_000 });
    const completed = await submit({ outcome: 'succeed' });

    await waitForJob(service, cancelled, { key, until: (job) => job.status === 'running' });
    // A cancellation and a failure racing on the same running job: only one of them ends it.
    const lifecycle = service.runtime.context.lifecycle;
    const timeout = {
      code: 'PROCESS_TIMEOUT',
      category: 'timeout',
      message: 'test',
      retryable: true,
    } as const;
    const [cancelResponse] = await Promise.all([
      service.call('POST', `/api/v1/jobs/${cancelled}/cancel`, { key }),
      lifecycle.fail(cancelled, timeout),
    ]);
    assert.ok([200, 409].includes(cancelResponse.status), cancelResponse.text);

    for (const jobId of [...failed, deadLettered, cancelled, completed])
      await waitForJob(service, jobId, { key, timeoutMs: 45_000 });
    assert.equal((await waitForJob(service, deadLettered, { key })).status, 'dead_lettered');

    for (const jobId of [...failed, deadLettered, cancelled, completed]) {
      await Promise.all([lifecycle.fail(jobId, timeout), lifecycle.fail(jobId, timeout)]);
      assert.equal(
        await lifecycle.fail(jobId, timeout, 'dead_lettered'),
        undefined,
        'a finished job does not end again',
      );
    }
    for (const jobId of [...failed, deadLettered, cancelled])
      assert.deepEqual(await refundsOf(jobId), [60], jobId);
    assert.deepEqual(await refundsOf(completed), []);

    const summary = await ledgerSummary(service.runtime.database.db, account.account_id);
    assert.equal(summary.charged_cents, 6 * 60);
    assert.equal(summary.refunded_cents, 5 * 60);
    assert.equal(summary.balance_cents, 1000 - 60);
    await assertLedgerInvariants(service.runtime.database, [account.account_id]);
  });
});
