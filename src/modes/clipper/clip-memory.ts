import { sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db/database.ts';

// Which video-site videos each account has clipped (table clipped_videos). A video counts as clipped while
// the job that took it holds it: open, completed, or failed because of the source itself (a non-retryable
// input error such as a removed video or one without speech, which would fail again). A cancelled or
// dead-lettered job, or one that failed for any other reason (the site was down, the server could not
// download or render), lets go of it, so the next channel call takes it again.

/** SQL: the job aliased `j` has let go of its video. */
const released = sql<boolean>`(
  j.status IN ('cancelled', 'dead_lettered')
  OR (
    j.status = 'failed'
    AND NOT (coalesce(j.error ->> 'category', '') = 'input' AND coalesce(j.error ->> 'retryable', '') = 'false')
  )
)`;

/** Of `videoIds`, those this account has clipped. */
export async function clippedVideoIds(
  db: Executor,
  accountId: string,
  videoIds: readonly string[],
): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('clipped_videos as c')
    .innerJoin('jobs as j', 'j.id', 'c.job_id')
    .select('c.video_id')
    .where('c.account_id', '=', accountId)
    .where('c.video_id', 'in', [...videoIds])
    .where(sql<boolean>`NOT ${released}`)
    .execute();
  return new Set(rows.map((r) => r.video_id));
}

export interface ClippedVideo {
  accountId: string;
  videoId: string;
  jobId: string;
  channelUrl: string | null;
  title: string | null;
}

/**
 * Records that `jobId` clips the video, inside the transaction accepting that job. Answers false when another
 * job of the account already holds the video (it stays with that job). The row is taken over only from a job
 * seen to have let go: a job accepted concurrently (committed while this insert waited on its row, so not in
 * this statement's snapshot) keeps it.
 */
export async function rememberClippedVideo(tx: Tx, video: ClippedVideo): Promise<boolean> {
  const result = await sql<{ job_id: string }>`
    INSERT INTO clipped_videos (account_id, video_id, job_id, channel_url, title)
    VALUES (${video.accountId}, ${video.videoId}, ${video.jobId}, ${video.channelUrl}, ${video.title})
    ON CONFLICT (account_id, video_id) DO UPDATE
      SET job_id = EXCLUDED.job_id, channel_url = EXCLUDED.channel_url, title = EXCLUDED.title, clipped_at = now()
      WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.id = clipped_videos.job_id AND ${released})
    RETURNING job_id
  `.execute(tx);
  return result.rows.length > 0;
}
