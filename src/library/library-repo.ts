// Data access of the library (docs/library.md): library videos are read straight from the jobs that make them,
// one row per video: a job's own (index 0), and for a completed clip job one per delivered clip. Named queries;
// pages are keyset pages on the video id (newest first), so rows written between two page reads never shift
// a page.
import type pg from 'pg';
import { namedQuery } from '../platform/db/database.ts';
import type { StoredArtifacts } from '../platform/jobs/job-presenter.ts';
import { FANOUT_JOB_MODE, MULTI_VIDEO_OPERATIONS, VIDEO_OPERATIONS } from './library-modes.ts';

export interface LibraryRow {
  job_id: string;
  account_id: string;
  library_id: string;
  mode: string;
  status: string;
  request: unknown;
  artifacts: StoredArtifacts;
  created_at: Date;
  updated_at: Date;
  /** Set once MEDIA_RETENTION_DAYS deleted the job's files. */
  media_deleted_at: Date | null;
  video_index: number;
  video_id: string;
}

export interface LibraryPageQuery {
  accountId: string;
  sandbox: boolean;
  limit: number;
  /** List the videos whose id sorts below this one. */
  before?: string | undefined;
  customerId?: string | undefined;
  brandId?: string | undefined;
}

/**
 * Every video of the account's live (or sandbox) jobs that make videos: $1 the operations that make videos,
 * $2 the fan-out job mode (its request names the operation and holds the video's request as `request`), $3 the
 * operations whose completed job is one video per clip, $4 the account, $5 sandbox.
 */
const VIDEOS = `
SELECT j.id AS job_id, j.account_id, j.library_id, j.mode, j.status, j.request, j.artifacts,
  j.created_at, j.updated_at, j.media_deleted_at, v.video_index, v.video_id
FROM jobs j
CROSS JOIN LATERAL (
  SELECT CASE WHEN j.mode = $2 THEN j.request -> 'request' ELSE j.request END AS body
) r
CROSS JOIN LATERAL (
  SELECT n AS video_index, (left(j.library_id, 22) || lpad(to_hex(n), 2, '0')) COLLATE "C" AS video_id
  FROM generate_series(0, CASE
    WHEN j.mode = ANY($3::text[]) AND j.status = 'completed' AND jsonb_typeof(j.artifacts -> 'clips') = 'array'
    THEN greatest(jsonb_array_length(j.artifacts -> 'clips'), 1) - 1
    ELSE 0 END) AS n
) v
WHERE j.account_id = $4 AND j.sandbox = $5
  AND (j.mode = ANY($1::text[]) OR (j.mode = $2 AND j.request ->> 'operation' = ANY($1::text[])))`;

// A video's id is never below its job's library id (…00), so the index on library_id narrows the scan.
const LIST_SQL = `${VIDEOS}
  AND ($6::text IS NULL OR (j.library_id < $6 AND v.video_id < $6))
  AND ($7::text IS NULL OR r.body ->> 'customer_id' = $7)
  AND ($8::text IS NULL OR coalesce(r.body -> 'brand_kit' ->> 'brand_id', r.body ->> 'brand_id') = $8)
ORDER BY j.library_id DESC, v.video_index DESC
LIMIT $9`;

const FIND_SQL = `${VIDEOS}
  AND j.library_id = $6 AND v.video_id = $7`;

function videoParams(accountId: string, sandbox: boolean): unknown[] {
  return [VIDEO_OPERATIONS, FANOUT_JOB_MODE, MULTI_VIDEO_OPERATIONS, accountId, sandbox];
}

/** Up to `limit` videos of the account, newest first, below `before` when given. */
export async function listLibraryRows(pool: pg.Pool, query: LibraryPageQuery): Promise<LibraryRow[]> {
  return namedQuery<LibraryRow>(pool, 'ListLibraryVideos', LIST_SQL, [
    ...videoParams(query.accountId, query.sandbox),
    query.before ?? null,
    query.customerId ?? null,
    query.brandId ?? null,
    query.limit,
  ]);
}

/** One video of the account (and key mode), or undefined when it has no such video. */
export async function findLibraryRow(
  pool: pg.Pool,
  accountId: string,
  sandbox: boolean,
  videoId: string,
  libraryId: string,
): Promise<LibraryRow | undefined> {
  const rows = await namedQuery<LibraryRow>(pool, 'FindLibraryVideo', FIND_SQL, [
    ...videoParams(accountId, sandbox),
    libraryId,
    videoId,
  ]);
  return rows[0];
}
