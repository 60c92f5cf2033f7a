// One row per platform of a publish job (migrations/0014_publishing.sql). All SQL of platform posts lives here.
import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { PlatformId } from '../platforms/platform.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type PostStatus = 'queued' | 'posted' | 'failed';

type PlatformPostsTable = {
  job_id: string;
  platform: PlatformId;
  connection_id: string | null;
  status: Generated<PostStatus>;
  external_id: string | null;
  external_url: string | null;
  posted_at: Timestamp | null;
  error_code: string | null;
  error_message: string | null;
  failed_at: Timestamp | null;
  attempts: Generated<number>;
  updated_at: Generated<Date>;
};

type PostTables = { platform_posts: PlatformPostsTable };

function postDb(db: Executor): Kysely<Database & PostTables> {
  return (db as Kysely<Database>).withTables<PostTables>();
}

/** A platform's state within a publish job, as the job record and the completion event show it. */
export interface PlatformPostState {
  platform: PlatformId;
  status: PostStatus;
  external_id?: string;
  external_url?: string;
  posted_at?: string;
  error_code?: string;
  error_message?: string;
  failed_at?: string;
}

export interface PlatformPostRow {
  platform: PlatformId;
  connectionId: string | null;
  status: PostStatus;
  attempts: number;
}

/** Written in the transaction that accepts the job: every platform starts queued. */
export async function insertPlatformPosts(
  tx: Executor,
  jobId: string,
  targets: { platform: PlatformId; connectionId: string }[],
): Promise<void> {
  await postDb(tx)
    .insertInto('platform_posts')
    .values(targets.map((t) => ({ job_id: jobId, platform: t.platform, connection_id: t.connectionId })))
    .execute();
}

export async function platformPostRows(db: Executor, jobId: string): Promise<PlatformPostRow[]> {
  const rows = await postDb(db)
    .selectFrom('platform_posts')
    .select(['platform', 'connection_id', 'status', 'attempts'])
    .where('job_id', '=', jobId)
    .orderBy('platform')
    .execute();
  return rows.map((r) => ({
    platform: r.platform,
    connectionId: r.connection_id,
    status: r.status,
    attempts: r.attempts,
  }));
}

export async function markPosting(db: Executor, jobId: string, platform: PlatformId): Promise<void> {
  await postDb(db)
    .updateTable('platform_posts')
    .set({ attempts: sql`attempts + 1`, updated_at: sql`now()` })
    .where('job_id', '=', jobId)
    .where('platform', '=', platform)
    .execute();
}

export async function markPosted(
  db: Executor,
  jobId: string,
  platform: PlatformId,
  posted: { externalId: string; externalUrl: string; postedAt: Date },
): Promise<void> {
  await postDb(db)
    .updateTable('platform_posts')
    .set({
      status: 'posted',
      external_id: posted.externalId,
      external_url: posted.externalUrl,
      posted_at: posted.postedAt,
      error_code: null,
      error_message: null,
      failed_at: null,
      updated_at: sql`now()`,
    })
    .where('job_id', '=', jobId)
    .where('platform', '=', platform)
    .execute();
}

export async function markPostFailed(
  db: Executor,
  jobId: string,
  platform: PlatformId,
  error: { code: string; message: string },
): Promise<void> {
  await postDb(db)
    .updateTable('platform_posts')
    .set({
      status: 'failed',
      error_code: error.code,
      error_message: error.message,
      failed_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('job_id', '=', jobId)
    .where('platform', '=', platform)
    .where('status', '<>', 'posted')
    .execute();
}

export async function platformPostStates(db: Executor, jobId: string): Promise<PlatformPostState[]> {
  const rows = await postDb(db)
    .selectFrom('platform_posts')
    .selectAll()
    .where('job_id', '=', jobId)
    .orderBy('platform')
    .execute();
  return rows.map((r) => ({
    platform: r.platform,
    status: r.status,
    ...(r.external_id ? { external_id: r.external_id } : {}),
    ...(r.external_url ? { external_url: r.external_url } : {}),
    ...(r.posted_at ? { posted_at: r.posted_at.toISOString() } : {}),
    ...(r.error_code ? { error_code: r.error_code } : {}),
    ...(r.error_message ? { error_message: r.error_message } : {}),
    ...(r.failed_at ? { failed_at: r.failed_at.toISOString() } : {}),
  }));
}
