import { sql } from 'kysely';
import type { Executor, Tx } from '../db/database.ts';
import { errors } from '../errors.ts';

// Every function here runs inside the caller's transaction and first locks the account row, so entries of one
// account are appended one at a time and accounts.balance_cents always equals the sum of its entries.

async function lockBalance(tx: Executor, accountId: string): Promise<number> {
  const row = await tx
    .selectFrom('accounts')
    .select('balance_cents')
    .where('id', '=', accountId)
    // NO KEY UPDATE: inserts referencing the account (jobs, deliveries) take KEY SHARE locks on it, which a
    // plain FOR UPDATE would conflict with and deadlock against concurrent acceptances.
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  return Number(row.balance_cents);
}

async function append(
  tx: Executor,
  entry: {
    accountId: string;
    kind: 'top_up' | 'charge' | 'refund';
    amount: number;
    balanceAfter: number;
    jobId?: string;
    reason: string;
  },
): Promise<boolean> {
  const inserted = await tx
    .insertInto('ledger_entries')
    .values({
      account_id: entry.accountId,
      kind: entry.kind,
      amount_cents: entry.amount,
      balance_after_cents: entry.balanceAfter,
      job_id: entry.jobId ?? null,
      reason: entry.reason,
    })
    .onConflict((oc) => oc.columns(['job_id', 'reason']).where('kind', '=', 'refund').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  await tx
    .updateTable('accounts')
    .set({ balance_cents: entry.balanceAfter })
    .where('id', '=', entry.accountId)
    .execute();
  return true;
}

export async function topUp(tx: Tx, accountId: string, cents: number, reason: string): Promise<number> {
  if (!Number.isInteger(cents) || cents <= 0)
    throw new Error('top-up must be a positive whole number of cents');
  const balance = (await lockBalance(tx, accountId)) + cents;
  await append(tx, { accountId, kind: 'top_up', amount: cents, balanceAfter: balance, reason });
  return balance;
}

/**
 * Takes `cents` from the balance or throws 402 INSUFFICIENT_API_CREDITS; never lets the balance go negative.
 * One statement: the conditional UPDATE locks the account row (held to commit) and the entry is appended with
 * the balance it produced, so a busy account waits on each charge for as short a time as possible.
 */
export async function charge(
  tx: Tx,
  accountId: string,
  cents: number,
  jobId: string,
  reason: string,
): Promise<number> {
  if (cents === 0) return lockBalance(tx, accountId);
  const charged = await chargeIfCovered(tx, accountId, cents, jobId, reason);
  if (charged !== undefined) return charged;
  // Refused: take the lock to report a balance that cannot move meanwhile, and charge after all if a
  // concurrent top-up or refund covered it in between.
  const balance = await lockBalance(tx, accountId);
  if (balance < cents) throw errors.insufficientCredits(cents, balance);
  return (await chargeIfCovered(tx, accountId, cents, jobId, reason))!;
}

/**
 * A charge that is its own transaction: one statement, so no account row is held across round trips (paid
 * reads under load). Refused: the balance is read and the charge tried once more, in case a top-up landed.
 */
export async function chargeAlone(
  ex: Executor,
  accountId: string,
  cents: number,
  reference: string,
  reason: string,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const charged = await chargeIfCovered(ex, accountId, cents, reference, reason);
    if (charged !== undefined) return charged;
    const balance = await balanceOf(ex, accountId);
    if (balance < cents || attempt > 0) throw errors.insufficientCredits(cents, balance);
  }
}

async function chargeIfCovered(
  tx: Executor,
  accountId: string,
  cents: number,
  jobId: string,
  reason: string,
): Promise<number | undefined> {
  const charged = await sql<{ balance_after_cents: number }>`
    WITH account AS (
      UPDATE accounts SET balance_cents = balance_cents - ${cents}
      WHERE id = ${accountId} AND balance_cents >= ${cents}
      RETURNING balance_cents
    )
    INSERT INTO ledger_entries (account_id, kind, amount_cents, balance_after_cents, job_id, reason)
    SELECT ${accountId}::text, 'charge', ${-cents}::bigint, balance_cents, ${jobId}::text, ${reason}::text FROM account
    RETURNING balance_after_cents
  `.execute(tx);
  const row = charged.rows[0];
  return row ? Number(row.balance_after_cents) : undefined;
}

/**
 * Gives back what a job was charged and not yet refunded (or `cents` of it, for a partial refund).
 * At most one refund per job and reason, so a job that fails twice is still refunded once.
 */
export async function refundJob(
  tx: Tx,
  accountId: string,
  jobId: string,
  reason: string,
  cents?: number,
): Promise<number> {
  const balance = await lockBalance(tx, accountId);
  const totals = await tx
    .selectFrom('ledger_entries')
    .select([
      sql<number>`coalesce(-sum(amount_cents) filter (where kind = 'charge'), 0)`.as('charged'),
      sql<number>`coalesce(sum(amount_cents) filter (where kind = 'refund'), 0)`.as('refunded'),
    ])
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  const refundable = Number(totals.charged) - Number(totals.refunded);
  const amount = Math.min(cents ?? refundable, refundable);
  if (amount <= 0) return 0;
  const done = await append(tx, {
    accountId,
    kind: 'refund',
    amount,
    balanceAfter: balance + amount,
    jobId,
    reason,
  });
  return done ? amount : 0;
}

export async function balanceOf(ex: Executor, accountId: string): Promise<number> {
  const row = await ex
    .selectFrom('accounts')
    .select('balance_cents')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row ? Number(row.balance_cents) : 0;
}

export interface LedgerSummary {
  balance_cents: number;
  entries: number;
  topped_up_cents: number;
  charged_cents: number;
  refunded_cents: number;
}

export async function ledgerSummary(ex: Executor, accountId: string): Promise<LedgerSummary> {
  const row = await ex
    .selectFrom('ledger_entries')
    .select([
      sql<number>`count(*)`.as('entries'),
      sql<number>`coalesce(sum(amount_cents) filter (where kind = 'top_up'), 0)`.as('topped_up'),
      sql<number>`coalesce(-sum(amount_cents) filter (where kind = 'charge'), 0)`.as('charged'),
      sql<number>`coalesce(sum(amount_cents) filter (where kind = 'refund'), 0)`.as('refunded'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return {
    balance_cents: await balanceOf(ex, accountId),
    entries: Number(row.entries),
    topped_up_cents: Number(row.topped_up),
    charged_cents: Number(row.charged),
    refunded_cents: Number(row.refunded),
  };
}
