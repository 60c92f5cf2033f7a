// Schedules and their runs (migrations/0015_schedules.sql). All SQL of schedules lives here.
import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { RecurrenceCursor, RecurrenceKind } from './recurrence.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type ScheduleStatus = 'active' | 'paused' | 'ended';
export type RunStatus = 'job_created' | 'skipped' | 'missed';

/** Why the service (not the caller) paused or ended a schedule. */
export interface StatusReason {
  code: string;
  message: string;
}

// Type aliases, not interfaces: Kysely's withTables needs index-compatible table types.
type SchedulesTable = {
  id: string;
  account_id: string;
  api_key_id: string;
  sandbox: boolean;
  name: string | null;
  recurrence_kind: RecurrenceKind;
  expression: string;
  time_zone: string;
  start_wall: string;
  endpoint: string;
  body: Json<Record<string, unknown>>;
  price_cents: number | null;
  status: ScheduleStatus;
  status_reason: Json<StatusReason> | null;
  next_run_at: Timestamp | null;
  cursor: Json<RecurrenceCursor> | null;
  last_run_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

type ScheduleRunsTable = {
  schedule_id: string;
  tick_at: Timestamp;
  status: RunStatus;
  job_ids: ColumnType<string[], string[] | undefined, string[]>;
  price_cents: number | null;
  error_code: string | null;
  error_message: string | null;
  missed_count: number | null;
  last_missed_at: Timestamp | null;
  recorded_at: Timestamp;
};

type ScheduleTables = {
  schedules: SchedulesTable;
  schedule_runs: ScheduleRunsTable;
};

export type ScheduleRow = Selectable<SchedulesTable>;
export type RunRow = Selectable<ScheduleRunsTable>;

/** Runs kept per schedule; older ones are dropped as new ones are recorded. */
export const RUNS_KEPT = 100;

function scheduleDb(db: Executor): Kysely<Database & ScheduleTables> {
  // A transaction's withTables is a transaction too; the cast only widens the union for the call.
  return (db as Kysely<Database>).withTables<ScheduleTables>();
}

export interface NewSchedule {
  id: string;
  accountId: string;
  apiKeyId: string;
  sandbox: boolean;
  name: string | null;
  kind: RecurrenceKind;
  expression: string;
  timeZone: string;
  startWall: string;
  endpoint: string;
  body: Record<string, unknown>;
  priceCents: number | null;
  nextRunAt: Date;
  cursor: RecurrenceCursor | null;
}

/** Locks the account row for the rest of the transaction: creations of one account count one at a time. */
export async function lockAccount(tx: Executor, accountId: string): Promise<void> {
  await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
}

export async function countSchedules(db: Executor, accountId: string): Promise<number> {
  const row = await scheduleDb(db)
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSchedule(db: Executor, schedule: NewSchedule): Promise<ScheduleRow> {
  return scheduleDb(db)
    .insertInto('schedules')
    .values({
      id: schedule.id,
      account_id: schedule.accountId,
      api_key_id: schedule.apiKeyId,
      sandbox: schedule.sandbox,
      name: schedule.name,
      recurrence_kind: schedule.kind,
      expression: schedule.expression,
      time_zone: schedule.timeZone,
      start_wall: schedule.startWall,
      endpoint: schedule.endpoint,
      body: JSON.stringify(schedule.body),
      price_cents: schedule.priceCents,
      status: 'active',
      next_run_at: schedule.nextRunAt,
      cursor: schedule.cursor ? JSON.stringify(schedule.cursor) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findSchedule(
  db: Executor,
  accountId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ScheduleRow | undefined> {
  let query = scheduleDb(db)
    .selectFrom('schedules')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** An account's schedules, newest first; `after` is the id of the last schedule of the previous page. */
export async function listSchedules(
  db: Executor,
  accountId: string,
  options: { limit: number; after?: string; status?: ScheduleStatus },
): Promise<ScheduleRow[]> {
  let query = scheduleDb(db)
    .selectFrom('schedules as s')
    .selectAll('s')
    .where('s.account_id', '=', accountId);
  if (options.status !== undefined) query = query.where('s.status', '=', options.status);
  if (options.after !== undefined) {
    const after = options.after;
    query = query.where(
      sql<boolean>`(s.created_at, s.id) < (SELECT c.created_at, c.id FROM schedules c WHERE c.id = ${after} AND c.account_id = ${accountId})`,
    );
  }
  return query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(options.limit).execute();
}

export interface ScheduleChange {
  status?: ScheduleStatus;
  statusReason?: StatusReason | null;
  nextRunAt?: Date | null;
  cursor?: RecurrenceCursor | null;
  lastRunAt?: Date;
  apiKeyId?: string;
  sandbox?: boolean;
}

export async function updateSchedule(db: Executor, id: string, change: ScheduleChange): Promise<ScheduleRow> {
  return scheduleDb(db)
    .updateTable('schedules')
    .set({
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.statusReason !== undefined
        ? { status_reason: change.statusReason ? JSON.stringify(change.statusReason) : null }
        : {}),
      ...(change.nextRunAt !== undefined ? { next_run_at: change.nextRunAt } : {}),
      ...(change.cursor !== undefined
        ? { cursor: change.cursor ? JSON.stringify(change.cursor) : null }
        : {}),
      ...(change.lastRunAt !== undefined ? { last_run_at: change.lastRunAt } : {}),
      ...(change.apiKeyId !== undefined ? { api_key_id: change.apiKeyId } : {}),
      ...(change.sandbox !== undefined ? { sandbox: change.sandbox } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSchedule(db: Executor, accountId: string, id: string): Promise<boolean> {
  const deleted = await scheduleDb(db)
    .deleteFrom('schedules')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

/**
 * Claims the most overdue active schedule due at `now`, locked until the transaction ends; schedules another
 * process holds are skipped, so every due tick is claimed by exactly one ticker.
 */
export async function claimDueSchedule(
  tx: Executor,
  now: Date,
  exclude: readonly string[],
): Promise<ScheduleRow | undefined> {
  let query = scheduleDb(tx)
    .selectFrom('schedules')
    .selectAll()
    .where('status', '=', 'active')
    .where('next_run_at', '<=', now);
  if (exclude.length > 0) query = query.where('id', 'not in', exclude);
  return query.orderBy('next_run_at').limit(1).forUpdate().skipLocked().executeTakeFirst();
}

export interface NewRun {
  scheduleId: string;
  tickAt: Date;
  status: RunStatus;
  jobIds?: string[];
  priceCents?: number | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  missedCount?: number | null;
  lastMissedAt?: Date | null;
}

/** Records a tick; false when that tick was already recorded. Keeps the latest RUNS_KEPT runs. */
export async function insertRun(tx: Executor, run: NewRun): Promise<boolean> {
  const db = scheduleDb(tx);
  const inserted = await db
    .insertInto('schedule_runs')
    .values({
      schedule_id: run.scheduleId,
      tick_at: run.tickAt,
      status: run.status,
      job_ids: run.jobIds ?? [],
      price_cents: run.priceCents ?? null,
      error_code: run.errorCode ?? null,
      error_message: run.errorMessage ?? null,
      missed_count: run.missedCount ?? null,
      last_missed_at: run.lastMissedAt ?? null,
    })
    .onConflict((oc) => oc.columns(['schedule_id', 'tick_at']).doNothing())
    .returning('tick_at')
    .executeTakeFirst();
  await db
    .deleteFrom('schedule_runs')
    .where('schedule_id', '=', run.scheduleId)
    .where(
      'tick_at',
      '<',
      db
        .selectFrom('schedule_runs')
        .select('tick_at')
        .where('schedule_id', '=', run.scheduleId)
        .orderBy('tick_at', 'desc')
        .offset(RUNS_KEPT - 1)
        .limit(1),
    )
    .execute();
  return inserted !== undefined;
}

/** A schedule's latest runs, newest first. */
export async function listRuns(db: Executor, scheduleId: string, limit: number): Promise<RunRow[]> {
  return scheduleDb(db)
    .selectFrom('schedule_runs')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .orderBy('tick_at', 'desc')
    .limit(limit)
    .execute();
}

/** Whether the API key a schedule submits as is still valid. */
export async function keyIsActive(db: Executor, keyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
