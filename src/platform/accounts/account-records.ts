import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';
import { createApiKey, KEYS_CHANGED_CHANNEL } from './accounts.ts';
import { hashApiKey } from './api-keys.ts';

// What an account's key holder may read and manage about the account itself (docs/studio.md): its keys, its
// ledger entries and its jobs, newest first.

export interface KeyRecord {
  id: string;
  prefix: string;
  sandbox: boolean;
  created_at: string;
  revoked_at: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function listKeys(ex: Executor, accountId: string): Promise<KeyRecord[]> {
  const rows = await ex
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'sandbox', 'created_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, created_at: iso(row.created_at)!, revoked_at: iso(row.revoked_at) }));
}

/** A new key of the account; the key itself is returned this once and stored only hashed. */
export async function addKey(
  db: Db,
  accountId: string,
  sandbox: boolean,
): Promise<KeyRecord & { key: string }> {
  const key = await createApiKey(db, accountId, sandbox);
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'prefix', 'sandbox', 'created_at', 'revoked_at'])
    .where('key_hash', '=', hashApiKey(key))
    .executeTakeFirstOrThrow();
  return { ...row, created_at: iso(row.created_at)!, revoked_at: null, key };
}

/** Revokes one key of the account; undefined when the account has no such key. Every process forgets it at once. */
export async function revokeKey(
  ex: Executor,
  accountId: string,
  keyId: string,
): Promise<KeyRecord | undefined> {
  const row = await ex
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .returning(['id', 'prefix', 'sandbox', 'created_at', 'revoked_at'])
    .executeTakeFirst();
  if (!row) return undefined;
  await sql`SELECT pg_notify(${KEYS_CHANGED_CHANNEL}, ${row.prefix})`.execute(ex);
  return { ...row, created_at: iso(row.created_at)!, revoked_at: iso(row.revoked_at) };
}

export interface LedgerRecord {
  id: number;
  kind: string;
  amount_usd_cents: number;
  balance_after_usd_cents: number;
  job_id: string | null;
  mode: string | null;
  reason: string;
  created_at: string;
}

/** Ledger entries newest first, each with the balance it left and the mode of its job. */
export async function listLedger(
  ex: Executor,
  accountId: string,
  options: { limit: number; before?: number },
): Promise<LedgerRecord[]> {
  let query = ex
    .selectFrom('ledger_entries as l')
    .leftJoin('jobs as j', 'j.id', 'l.job_id')
    .select([
      'l.id',
      'l.kind',
      'l.amount_cents',
      'l.balance_after_cents',
      'l.job_id',
      'j.mode',
      'l.reason',
      'l.created_at',
    ])
    .where('l.account_id', '=', accountId);
  if (options.before !== undefined) query = query.where('l.id', '<', String(options.before));
  const rows = await query.orderBy('l.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    amount_usd_cents: Number(row.amount_cents),
    balance_after_usd_cents: Number(row.balance_after_cents),
    job_id: row.job_id,
    mode: row.mode,
    reason: row.reason,
    created_at: iso(row.created_at)!,
  }));
}

/** The account's jobs newest first; `before` is a job id of an earlier page. */
export async function listAccountJobs(
  ex: Executor,
  accountId: string,
  options: { limit: number; before?: string; status?: string },
): Promise<JobRow[]> {
  let query = ex.selectFrom('jobs').selectAll().where('account_id', '=', accountId);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.before) {
    const cursor = ex.selectFrom('jobs').select('created_at').where('id', '=', options.before);
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', cursor),
        eb.and([eb('created_at', '=', cursor), eb('id', '<', options.before!)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** Sets a job's listing; undefined when the account has no such job. */
export async function setJobListing(
  ex: Executor,
  accountId: string,
  jobId: string,
  listing: 'private' | 'public',
): Promise<JobRow | undefined> {
  return ex
    .updateTable('jobs')
    .set({ listing })
    .where('id', '=', jobId)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** The newest progress event of each job: its percent and stage. */
export async function latestProgress(
  ex: Executor,
  jobIds: string[],
): Promise<Map<string, { percent: number; stage: string; message: string }>> {
  if (jobIds.length === 0) return new Map();
  const rows = await ex
    .selectFrom('job_events')
    .distinctOn('job_id')
    .select(['job_id', 'percent', 'stage', 'message'])
    .where('job_id', 'in', jobIds)
    .orderBy('job_id')
    .orderBy('id', 'desc')
    .execute();
  return new Map(
    rows.map((row) => [row.job_id, { percent: row.percent, stage: row.stage, message: row.message }]),
  );
}
