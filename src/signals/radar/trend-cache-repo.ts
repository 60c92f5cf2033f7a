import type pg from 'pg';
import { namedQuery } from '../../platform/db/database.ts';
import type { SourceItem, SourceName } from '../sources/source-item.ts';
import type { Trend } from '../trends/trend.ts';

// Every SQL statement of the trends cache (migrations/0009_trend_cache.sql). Named queries: the cached read is
// the hot path of GET /trends/radar. Times are the database's, so every process agrees on what is fresh.

export interface CacheKey {
  geo: string;
  /** '' when the request names no category. */
  category: string;
}

/** The state of one (geo, category) entry, and whether the trends of one window were built from it. */
export interface CacheState {
  fetchedAt: Date | null;
  expiresAt: Date | null;
  fresh: boolean;
  warnings: string[];
  failedSources: SourceName[];
  refreshToken: string | null;
  leased: boolean;
  failedToken: string | null;
  /** Whether the trends of this snapshot for the asked window were built and stored (readBuild reads them). */
  built: boolean;
}

interface StateRow {
  fetched_at: Date | null;
  expires_at: Date | null;
  fresh: boolean | null;
  warnings: string[];
  failed_sources: SourceName[];
  refresh_token: string | null;
  leased: boolean | null;
  failed_token: string | null;
  built: boolean;
}

export async function readCacheState(
  pool: pg.Pool,
  key: CacheKey,
  windowHours: number,
): Promise<CacheState | undefined> {
  const [row] = await namedQuery<StateRow>(
    pool,
    'TrendCacheRead',
    `SELECT c.fetched_at, c.expires_at, c.expires_at > now() AS fresh, c.warnings, c.failed_sources,
            c.refresh_token, c.refresh_lease_until > now() AS leased, c.failed_token,
            b.fetched_at IS NOT NULL AS built
       FROM trend_cache c
       LEFT JOIN trend_cache_builds b
         ON b.geo = c.geo AND b.category = c.category AND b.window_hours = $3 AND b.fetched_at = c.fetched_at
      WHERE c.geo = $1 AND c.category = $2`,
    [key.geo, key.category, windowHours],
  );
  if (!row) return undefined;
  return {
    fetchedAt: row.fetched_at,
    expiresAt: row.expires_at,
    fresh: row.fresh === true,
    warnings: row.warnings,
    failedSources: row.failed_sources,
    refreshToken: row.refresh_token,
    leased: row.leased === true,
    failedToken: row.failed_token,
    built: row.built,
  };
}

/** The trends built from the snapshot fetched at `fetchedAt` for one window, if they were stored. */
export async function readBuild(
  pool: pg.Pool,
  key: CacheKey,
  windowHours: number,
  fetchedAt: Date,
): Promise<Trend[] | undefined> {
  const [row] = await namedQuery<{ trends: Trend[] }>(
    pool,
    'TrendCacheBuild',
    `SELECT trends FROM trend_cache_builds
      WHERE geo = $1 AND category = $2 AND window_hours = $3 AND fetched_at = $4`,
    [key.geo, key.category, windowHours, fetchedAt],
  );
  return row?.trends;
}

/**
 * Takes the right to fetch `key` for `leaseSeconds`, when its snapshot is missing or expired and no other
 * fetch holds a live lease. True when this caller now holds it.
 */
export async function claimRefresh(
  pool: pg.Pool,
  key: CacheKey,
  token: string,
  leaseSeconds: number,
): Promise<boolean> {
  const rows = await namedQuery<{ refresh_token: string }>(
    pool,
    'TrendCacheClaimRefresh',
    `INSERT INTO trend_cache AS c (geo, category, refresh_token, refresh_lease_until)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     ON CONFLICT (geo, category) DO UPDATE
        SET refresh_token = excluded.refresh_token, refresh_lease_until = excluded.refresh_lease_until
      WHERE (c.expires_at IS NULL OR c.expires_at <= now())
        AND (c.refresh_lease_until IS NULL OR c.refresh_lease_until <= now())
     RETURNING c.refresh_token`,
    [key.geo, key.category, token, leaseSeconds],
  );
  return rows[0]?.refresh_token === token;
}

export interface StoredSnapshot {
  fetchedAt: Date;
  expiresAt: Date;
}

/**
 * Stores what the fetch holding `token` gathered and ends its lease; drops the builds of older snapshots of the
 * key and snapshots nobody refreshed for a day. Undefined when the lease was lost to another fetch meanwhile.
 */
export async function storeSnapshot(
  pool: pg.Pool,
  key: CacheKey,
  token: string,
  snapshot: { items: SourceItem[]; warnings: string[]; failedSources: SourceName[]; ttlSeconds: number },
): Promise<StoredSnapshot | undefined> {
  const [row] = await namedQuery<{ fetched_at: Date; expires_at: Date }>(
    pool,
    'TrendCacheStore',
    `WITH stored AS (
       UPDATE trend_cache
          SET items = $4, warnings = $5, failed_sources = $6,
              fetched_at = date_trunc('milliseconds', now()),
              expires_at = date_trunc('milliseconds', now()) + make_interval(secs => $7),
              refresh_token = NULL, refresh_lease_until = NULL
        WHERE geo = $1 AND category = $2 AND refresh_token = $3
        RETURNING fetched_at, expires_at
     ), pruned AS (
       DELETE FROM trend_cache_builds b
        USING stored
        WHERE b.geo = $1 AND b.category = $2 AND b.fetched_at < stored.fetched_at
     ), forgotten AS (
       DELETE FROM trend_cache
        WHERE expires_at < now() - interval '1 day' AND refresh_token IS NULL
          AND (geo, category) <> ($1, $2) AND EXISTS (SELECT 1 FROM stored)
     )
     SELECT fetched_at, expires_at FROM stored`,
    [
      key.geo,
      key.category,
      token,
      JSON.stringify(snapshot.items),
      JSON.stringify(snapshot.warnings),
      snapshot.failedSources,
      snapshot.ttlSeconds,
    ],
  );
  return row ? { fetchedAt: row.fetched_at, expiresAt: row.expires_at } : undefined;
}

/**
 * Ends the lease of a fetch that found every source down, naming them; the requests that waited on it see
 * their token in `failed_token` and answer 503 too.
 */
export async function markRefreshFailed(
  pool: pg.Pool,
  key: CacheKey,
  token: string,
  failedSources: SourceName[],
): Promise<void> {
  await namedQuery(
    pool,
    'TrendCacheRefreshFailed',
    `UPDATE trend_cache
        SET refresh_token = NULL, refresh_lease_until = NULL, failed_token = $3, failed_sources = $4
      WHERE geo = $1 AND category = $2 AND refresh_token = $3`,
    [key.geo, key.category, token, failedSources],
  );
}

/** Ends the lease of a fetch that broke for another reason, so the next request fetches at once. */
export async function releaseRefresh(pool: pg.Pool, key: CacheKey, token: string): Promise<void> {
  await namedQuery(
    pool,
    'TrendCacheRelease',
    `UPDATE trend_cache SET refresh_token = NULL, refresh_lease_until = NULL
      WHERE geo = $1 AND category = $2 AND refresh_token = $3`,
    [key.geo, key.category, token],
  );
}

/** The items of the snapshot fetched at `fetchedAt`; undefined once a newer fetch replaced it. */
export async function readSnapshotItems(
  pool: pg.Pool,
  key: CacheKey,
  fetchedAt: Date,
): Promise<SourceItem[] | undefined> {
  const [row] = await namedQuery<{ items: SourceItem[] }>(
    pool,
    'TrendCacheItems',
    `SELECT items FROM trend_cache WHERE geo = $1 AND category = $2 AND fetched_at = $3`,
    [key.geo, key.category, fetchedAt],
  );
  return row?.items;
}

/**
 * Stores the trends built from the snapshot fetched at `fetchedAt` for one window, unless a build of that
 * snapshot or a newer one is there already; answers the build stored for that snapshot (the first one wins,
 * so every process answers the same set), or undefined when a newer snapshot replaced it meanwhile.
 */
export async function storeBuild(
  pool: pg.Pool,
  key: CacheKey,
  windowHours: number,
  fetchedAt: Date,
  trends: Trend[],
): Promise<Trend[] | undefined> {
  const [row] = await namedQuery<{ trends: Trend[] }>(
    pool,
    'TrendCacheStoreBuild',
    `WITH stored AS (
       INSERT INTO trend_cache_builds AS b (geo, category, window_hours, fetched_at, trends)
       SELECT $1::text, $2::text, $3::integer, $4::timestamptz, $5::json FROM trend_cache c
        WHERE c.geo = $1 AND c.category = $2 AND c.fetched_at = $4
       ON CONFLICT (geo, category, window_hours) DO UPDATE
          SET fetched_at = excluded.fetched_at, trends = excluded.trends
        WHERE b.fetched_at < excluded.fetched_at
       RETURNING trends
     )
     SELECT trends FROM stored
     UNION ALL
     SELECT trends FROM trend_cache_builds
      WHERE geo = $1 AND category = $2 AND window_hours = $3 AND fetched_at = $4
        AND NOT EXISTS (SELECT 1 FROM stored)`,
    [key.geo, key.category, windowHours, fetchedAt, JSON.stringify(trends)],
  );
  return row?.trends;
}
