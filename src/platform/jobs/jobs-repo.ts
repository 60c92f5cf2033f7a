import { sql } from 'kysely';
import type pg from 'pg';
import { namedQuery, type Executor } from '../db/database.ts';
import type { JobRow, NewJobRow } from '../db/schema.ts';
import { type JobStatus, legalSources, OPEN_STATUSES, ACTIVE_RENDER_STATUSES } from './job-status.ts';

// Data access for jobs and their progress events. Status changes go through transitionJob only, whose
// UPDATE is guarded by the status machine: an illegal transition matches no row and changes nothing.

export const JOB_EVENTS_CHANNEL = 'reelsmith_job_events';

export interface ProgressEvent {
  id: number;
  at: Date;
  status: string;
  stage: string;
  message: string;
  percent: number;
  url: string | null;
}

export async function insertJob(ex: Executor, job: NewJobRow): Promise<void> {
  await ex.insertInto('jobs').values(job).execute();
}

export async function findJob(ex: Executor, jobId: string): Promise<JobRow | undefined> {
  return ex.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
}

export async function findAccountJob(
  ex: Executor,
  accountId: string,
  jobId: string,
): Promise<JobRow | undefined> {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', jobId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The job that made this video (a video id names one job), if the account owns it. */
export async function findAccountJobByVideo(
  ex: Executor,
  accountId: string,
  videoId: string,
): Promise<JobRow | undefined> {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('video_id', '=', videoId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function addJobEvent(
  ex: Executor,
  jobId: string,
  event: { status: string; stage: string; message: string; percent: number; url?: string | null },
  options: { notify?: boolean } = {},
): Promise<void> {
  await ex
    .insertInto('job_events')
    .values({
      job_id: jobId,
      status: event.status,
      stage: event.stage,
      message: event.message,
      percent: event.percent,
      url: event.url ?? null,
    })
    .execute();
  if (options.notify !== false) await sql`SELECT pg_notify(${JOB_EVENTS_CHANNEL}, ${jobId})`.execute(ex);
}

export async function listJobEvents(ex: Executor, jobId: string, afterId = 0): Promise<ProgressEvent[]> {
  const rows = await ex
    .selectFrom('job_events')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('id', '>', String(afterId))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), at: new Date(r.at) }));
}

export type JobPatch = Partial<
  Pick<JobRow, 'artifacts' | 'error' | 'started_at' | 'finished_at' | 'lease_expires_at'>
> & {
  attemptsIncrement?: boolean;
};

/**
 * Moves a job to `to` if the status machine allows it from the job's current status.
 * Returns the updated row, or undefined when the transition is not legal now (nothing is changed).
 */
export async function transitionJob(
  ex: Executor,
  jobId: string,
  to: JobStatus,
  patch: JobPatch = {},
  event?: { stage: string; message: string; percent: number },
): Promise<JobRow | undefined> {
  const { attemptsIncrement, artifacts, error, started_at, finished_at, lease_expires_at } = patch;
  const row = await ex
    .updateTable('jobs')
    .set({
      status: to,
      updated_at: sql`now()`,
      ...(artifacts !== undefined ? { artifacts: JSON.stringify(artifacts) } : {}),
      ...(error !== undefined ? { error: error === null ? null : JSON.stringify(error) } : {}),
      ...(started_at !== undefined ? { started_at } : {}),
      ...(finished_at !== undefined ? { finished_at } : {}),
      ...(lease_expires_at !== undefined ? { lease_expires_at } : {}),
      ...(attemptsIncrement ? { attempts: sql<number>`attempts + 1` } : {}),
    })
    .where('id', '=', jobId)
    .where('status', 'in', legalSources(to))
    .returningAll()
    .executeTakeFirst();
  if (row && event) await addJobEvent(ex, jobId, { status: to, ...event });
  return row;
}

export async function countOpenHeavyJobs(ex: Executor, accountId: string): Promise<number> {
  const row = await ex
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('heavy', '=', true)
    .where('status', 'in', [...OPEN_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countRenderingHeavyJobs(ex: Executor, accountId: string): Promise<number> {
  const row = await ex
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('heavy', '=', true)
    .where('status', 'in', [...ACTIVE_RENDER_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Open jobs whose maximum lifetime has passed (they are failed with PROCESS_TIMEOUT). */
export async function findOverdueJobs(ex: Executor, limit = 100): Promise<JobRow[]> {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('status', 'in', [...OPEN_STATUSES])
    .where('deadline_at', '<', sql<Date>`now()`)
    .limit(limit)
    .execute();
}

export async function countJobsByStatus(ex: Executor): Promise<Record<string, number>> {
  const rows = await ex
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Renews the lease of the attempts this worker is running. */
export async function renewLeases(ex: Executor, jobIds: string[], leaseSeconds: number): Promise<void> {
  if (jobIds.length === 0) return;
  await ex
    .updateTable('jobs')
    .set({ lease_expires_at: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where('id', 'in', jobIds)
    .where('status', 'in', [...ACTIVE_RENDER_STATUSES])
    .execute();
}

/** Attempts whose worker stopped renewing its lease (it died or hung). */
export async function findExpiredLeases(ex: Executor, limit = 100): Promise<JobRow[]> {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('status', 'in', [...ACTIVE_RENDER_STATUSES])
    .where('lease_expires_at', '<', sql<Date>`now()`)
    .limit(limit)
    .execute();
}

/** One round trip for GET /jobs/{id}: the job of this account with its progress events (a named query). */
export async function findAccountJobWithEvents(
  pool: pg.Pool,
  accountId: string,
  jobId: string,
): Promise<{ job: JobRow; events: ProgressEvent[] } | undefined> {
  const rows = await namedQuery<JobRow & { events: (Omit<ProgressEvent, 'at'> & { at: string })[] | null }>(
    pool,
    'FindAccountJobWithEvents',
    `SELECT jobs.*, (SELECT json_agg(json_build_object('id', e.id, 'at', e.at, 'status', e.status, 'stage', e.stage,
       'message', e.message, 'percent', e.percent, 'url', e.url) ORDER BY e.id) FROM job_events e WHERE e.job_id = jobs.id) AS events
     FROM jobs WHERE id = $1 AND account_id = $2`,
    [jobId, accountId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { events, ...job } = row;
  return { job, events: (events ?? []).map((e) => ({ ...e, id: Number(e.id), at: new Date(e.at) })) };
}
