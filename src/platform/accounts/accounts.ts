import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.ts';
import type { AccountRow } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { topUp } from '../ledger/ledger.ts';
import { generateApiKey, hashApiKey, keyPrefix } from './api-keys.ts';

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  sandbox: boolean;
}

export interface CreatedAccount {
  account_id: string;
  live_key: string;
  sandbox_key: string;
}

export async function createApiKey(ex: Executor, accountId: string, sandbox: boolean): Promise<string> {
  const key = generateApiKey(sandbox);
  await ex
    .insertInto('api_keys')
    .values({
      id: newId.apiKey(),
      account_id: accountId,
      prefix: keyPrefix(key),
      key_hash: hashApiKey(key),
      sandbox,
    })
    .execute();
  return key;
}

/** Creates an account with one live and one sandbox key; the keys are returned once and stored only hashed. */
export async function createAccount(db: Db, name: string, balanceCents: number): Promise<CreatedAccount> {
  return db.transaction().execute(async (tx) => {
    const id = newId.account();
    await tx
      .insertInto('accounts')
      .values({ id, name, webhook_secret: `whsec_${randomBytes(24).toString('base64url')}` })
      .execute();
    if (balanceCents > 0) await topUp(tx, id, balanceCents, 'initial balance');
    return {
      account_id: id,
      live_key: await createApiKey(tx, id, false),
      sandbox_key: await createApiKey(tx, id, true),
    };
  });
}

export async function findAccount(ex: Executor, accountId: string): Promise<AccountRow | undefined> {
  return ex.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

export async function findAccountByName(ex: Executor, name: string): Promise<AccountRow | undefined> {
  return ex.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function countAccounts(ex: Executor): Promise<number> {
  const row = await ex
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function authenticateKey(ex: Executor, key: string): Promise<AuthenticatedKey | undefined> {
  const row = await ex
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'sandbox'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { keyId: row.id, accountId: row.account_id, sandbox: row.sandbox };
}

export const KEYS_CHANGED_CHANNEL = 'reelsmith_keys_changed';

/** Revokes every active key whose public prefix matches; returns how many were revoked. */
export async function revokeKeysByPrefix(ex: Executor, prefix: string): Promise<number> {
  const rows = await ex
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  // API processes cache authenticated keys; this tells them to forget them at once.
  if (rows.length > 0) await sql`SELECT pg_notify(${KEYS_CHANGED_CHANNEL}, ${prefix})`.execute(ex);
  return rows.length;
}
