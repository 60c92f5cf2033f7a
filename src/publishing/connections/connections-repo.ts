// Platform connections (migrations/0014_publishing.sql). All SQL of connections lives here; tokens enter and
// leave sealed (token-cipher.ts), so nothing here ever sees them in the clear.
import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { PlatformId } from '../platforms/platform.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type ConnectionStatus = 'active' | 'expired';

type PlatformConnectionsTable = {
  id: string;
  account_id: string;
  platform: PlatformId;
  external_account_id: string;
  display_name: string | null;
  tokens: Buffer;
  key_fingerprint: string;
  access_expires_at: Timestamp | null;
  scopes: Generated<string[]>;
  status: Generated<ConnectionStatus>;
  status_reason: string | null;
  refreshed_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
};

type ConnectionTables = { platform_connections: PlatformConnectionsTable };

function connectionDb(db: Executor): Kysely<Database & ConnectionTables> {
  return (db as Kysely<Database>).withTables<ConnectionTables>();
}

export interface ConnectionRecord {
  id: string;
  accountId: string;
  platform: PlatformId;
  externalAccountId: string;
  displayName: string | null;
  tokens: Buffer;
  keyFingerprint: string;
  accessExpiresAt: Date | null;
  scopes: string[];
  status: ConnectionStatus;
  statusReason: string | null;
  refreshedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

function toRecord(row: {
  id: string;
  account_id: string;
  platform: PlatformId;
  external_account_id: string;
  display_name: string | null;
  tokens: Buffer;
  key_fingerprint: string;
  access_expires_at: Date | null;
  scopes: string[];
  status: ConnectionStatus;
  status_reason: string | null;
  refreshed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}): ConnectionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    platform: row.platform,
    externalAccountId: row.external_account_id,
    displayName: row.display_name,
    tokens: row.tokens,
    keyFingerprint: row.key_fingerprint,
    accessExpiresAt: row.access_expires_at,
    scopes: row.scopes,
    status: row.status,
    statusReason: row.status_reason,
    refreshedAt: row.refreshed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewConnection {
  id: string;
  accountId: string;
  platform: PlatformId;
  externalAccountId: string;
  displayName: string | null;
  tokens: Buffer;
  keyFingerprint: string;
  accessExpiresAt: Date | null;
  scopes: string[];
}

/**
 * Connects a platform for an account, replacing its earlier connection to that platform (a reconnection after
 * expiry keeps its id). Answers the record and whether it replaced one.
 */
export async function upsertConnection(
  db: Executor,
  input: NewConnection,
): Promise<{ record: ConnectionRecord; replaced: boolean }> {
  const row = await connectionDb(db)
    .insertInto('platform_connections')
    .values({
      id: input.id,
      account_id: input.accountId,
      platform: input.platform,
      external_account_id: input.externalAccountId,
      display_name: input.displayName,
      tokens: input.tokens,
      key_fingerprint: input.keyFingerprint,
      access_expires_at: input.accessExpiresAt,
      scopes: input.scopes,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'platform']).doUpdateSet({
        external_account_id: input.externalAccountId,
        display_name: input.displayName,
        tokens: input.tokens,
        key_fingerprint: input.keyFingerprint,
        access_expires_at: input.accessExpiresAt,
        scopes: input.scopes,
        status: 'active',
        status_reason: null,
        refreshed_at: null,
        updated_at: sql`now()`,
      }),
    )
    .returningAll()
    .returning(sql<boolean>`xmax <> 0`.as('replaced'))
    .executeTakeFirstOrThrow();
  return { record: toRecord(row), replaced: row.replaced };
}

export async function listConnections(db: Executor, accountId: string): Promise<ConnectionRecord[]> {
  const rows = await connectionDb(db)
    .selectFrom('platform_connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('platform')
    .execute();
  return rows.map(toRecord);
}

export async function findConnection(
  db: Executor,
  accountId: string,
  id: string,
): Promise<ConnectionRecord | undefined> {
  const row = await connectionDb(db)
    .selectFrom('platform_connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function findConnectionByPlatform(
  db: Executor,
  accountId: string,
  platform: PlatformId,
): Promise<ConnectionRecord | undefined> {
  const row = await connectionDb(db)
    .selectFrom('platform_connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('platform', '=', platform)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** The connection, locked for the rest of the transaction (one refresh at a time across processes). */
export async function lockConnection(db: Executor, id: string): Promise<ConnectionRecord | undefined> {
  const row = await connectionDb(db)
    .selectFrom('platform_connections')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function deleteConnection(db: Executor, accountId: string, id: string): Promise<boolean> {
  const result = await connectionDb(db)
    .deleteFrom('platform_connections')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function storeRefreshedTokens(
  db: Executor,
  id: string,
  tokens: Buffer,
  keyFingerprint: string,
  accessExpiresAt: Date | null,
): Promise<void> {
  await connectionDb(db)
    .updateTable('platform_connections')
    .set({
      tokens,
      key_fingerprint: keyFingerprint,
      access_expires_at: accessExpiresAt,
      refreshed_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function markExpired(db: Executor, id: string, reason: string): Promise<void> {
  await connectionDb(db)
    .updateTable('platform_connections')
    .set({ status: 'expired', status_reason: reason, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Active connections whose access token expires before `before` (the refresher's work list). */
export async function expiringConnectionIds(db: Executor, before: Date, limit = 100): Promise<string[]> {
  const rows = await connectionDb(db)
    .selectFrom('platform_connections')
    .select('id')
    .where('status', '=', 'active')
    .where('access_expires_at', '<', before)
    .orderBy('access_expires_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Key fingerprints of stored connections (start-up checks the configured key against them). */
export async function storedKeyFingerprints(db: Executor): Promise<{ fingerprint: string; count: number }[]> {
  const rows = await connectionDb(db)
    .selectFrom('platform_connections')
    .select(['key_fingerprint', sql<string>`count(*)`.as('count')])
    .groupBy('key_fingerprint')
    .execute();
  return rows.map((r) => ({ fingerprint: r.key_fingerprint, count: Number(r.count) }));
}
