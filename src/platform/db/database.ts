import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// bigint (int8) comes back as a string by default; every int8 we store fits a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database handle or an open transaction: data-access functions accept both. */
export type Executor = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  /**
   * The same database through sessions with synchronous_commit off: for writes whose loss in a crash is
   * harmless (idempotency claims that expire, rate counters), so they do not wait for a WAL flush each.
   */
  ephemeral: Db;
  ephemeralPool: pg.Pool;
  connectionString: string;
  close(): Promise<void>;
}

export function openDatabase(connectionString: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20, application_name: 'reelsmith' });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const ephemeralPool = new pg.Pool({
    connectionString,
    max: Math.max(2, Math.ceil((options.max ?? 20) / 2)),
    application_name: 'reelsmith-ephemeral',
    options: '-c synchronous_commit=off',
  });
  ephemeralPool.on('error', () => {});
  const ephemeral = new Kysely<Database>({ dialect: new PostgresDialect({ pool: ephemeralPool }) });
  return {
    db,
    pool,
    ephemeral,
    ephemeralPool,
    connectionString,
    close: async () => {
      await ephemeral.destroy();
      await db.destroy();
    },
  };
}

/**
 * A named query: PostgreSQL parses and plans it once per connection and reuses the plan. Used on the hottest
 * paths (job reads, rate counters), where the query builder's and the planner's work per request show.
 */
export async function namedQuery<Row>(
  pool: pg.Pool,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const result = await pool.query({ name, text, values });
  return result.rows as Row[];
}
