// Data access of the library (docs/library.md): library videos are read straight from the jobs that make them,
// one row per video: a job's own (index 0), and for a completed clip job one per delivered clip. Named queries;
// pages are keyset pages on the video id (newest first), so rows written between two page reads never shift
// a page. A revision's customer, brand and purpose are those of the video it revises: each row carries the
// request of its origin, the first job up its chain of sources that is not a revision (itself for all others).
import type pg from 'pg';
import { namedQuery } from '../platform/db/database.ts';
import type { StoredArtifacts } from '../platform/jobs/job-presenter.ts';
import {
  FANOUT_JOB_MODE,
  MULTI_VIDEO_OPERATIONS,
  REVISION_JOB_MODE,
  VIDEO_OPERATIONS,
} from './library-modes.ts';

export interface LibraryRow {
  job_id: string;
  account_id: string;
  library_id: string;
  mode: string;
  status: string;
  request: unknown;
  /** Mode and request of the job whose request describes this video: the revised one for a revision. */
  origin_mode: string;
  origin_request: unknown;
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
 * The jobs up a revision's chain of sources, from the revision (depth 0) to its origin (the deepest): $6 the
 * revision job mode. The depth bound only guards against a cycle, which revisions (each made after its source)
 * cannot form. Used in scalar subqueries that run for revision rows alone (a CASE branch is evaluated only when
 * taken), so the other rows cost nothing more.
 */
const SOURCE_CHAIN = `WITH RECURSIVE chain (mode, request, depth) AS (
    SELECT j.mode, j.request, 0
    UNION ALL
    SELECT s.mode, s.request, c.depth + 1
    FROM chain c JOIN jobs s ON s.id = c.request ->> 'source_job_id' AND s.account_id = j.account_id
    WHERE c.mode = $6 AND c.depth < 1000
  )`;

/**
 * Every video of the account's live (or sandbox) jobs that make videos: $1 the operations that make videos,
 * $2 the fan-out job mode (its request names the operation and holds the video's request as `request`), $3 the
 * operations whose completed job is one video per clip, $4 the account, $5 sandbox, $6 the revision job mode.
 */
const VIDEOS = `
SELECT j.id AS job_id, j.account_id, j.library_id, j.mode, j.status, j.request, o.origin_mode,
  o.origin_request, j.artifacts, j.created_at, j.updated_at, j.media_deleted_at, v.video_index, v.video_id
FROM jobs j
CROSS JOIN LATERAL (
  SELECT
    CASE WHEN j.mode = $6
      THEN (${SOURCE_CHAIN} SELECT mode FROM chain ORDER BY depth DESC LIMIT 1)
      ELSE j.mode END AS origin_mode,
    CASE WHEN j.mode = $6
      THEN (${SOURCE_CHAIN} SELECT request FROM chain ORDER BY depth DESC LIMIT 1)
      ELSE j.request END AS origin_request
) o
CROSS JOIN LATERAL (
  SELECT CASE WHEN o.origin_mode = $2 THEN o.origin_request -> 'request' ELSE o.origin_request END AS body
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
  AND ($7::text IS NULL OR (j.library_id < $7 AND v.video_id < $7))
  AND ($8::text IS NULL OR r.body ->> 'customer_id' = $8)
  AND ($9::text IS NULL OR coalesce(r.body -> 'brand_kit' ->> 'brand_id', r.body ->> 'brand_id') = $9)
ORDER BY j.library_id DESC, v.video_index DESC
LIMIT $10`;

const FIND_SQL = `${VIDEOS}
  AND j.library_id = $7 AND v.video_id = $8`;

function videoParams(accountId: string, sandbox: boolean): unknown[] {
  return [VIDEO_OPERATIONS, FANOUT_JOB_MODE, MULTI_VIDEO_OPERATIONS, accountId, sandbox, REVISION_JOB_MODE];
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
