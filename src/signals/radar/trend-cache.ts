import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from 'pino';
import { ApiError } from '../../platform/errors.ts';
import { randomToken } from '../../platform/ids.ts';
import type {
  SourceItem,
  SourceName,
  SourceQuery,
  TrendCategory,
  TrendSource,
} from '../sources/source-item.ts';
import { GATHER_TIMEOUT_MS, gatherItems } from '../sources/trend-sources.ts';
import { buildTrends } from '../trends/build-trends.ts';
import type { Trend } from '../trends/trend.ts';
import { radarErrors } from './radar-errors.ts';
import { MAX_WINDOW_HOURS } from './radar-query.ts';
import {
  claimRefresh,
  markRefreshFailed,
  readBuild,
  readCacheState,
  readSnapshotItems,
  releaseRefresh,
  storeBuild,
  storeSnapshot,
  type CacheKey,
} from './trend-cache-repo.ts';

// Source data cached 10 minutes per (geo, category) in PostgreSQL (spec 2 §4.1, §8), shared by every API
// process. One fetch per key at a time: the request that takes the lease fetches, the others poll the row until
// its snapshot is there (or the lease runs out because that process died, and one of them takes over).
// A snapshot is fetched for the widest window (168 h), so any window_hours is answered from it; the trends for
// one window are built once from it, as of its fetch time, and stored, so a repeat answers exactly the same set.

export const CACHE_TTL_SECONDS = 10 * 60;
/** A fetch holds its key this long (the sources' deadline, then storing); past it, its process is taken for dead. */
const LEASE_SECONDS = GATHER_TIMEOUT_MS / 1000 + 20;
const POLL_MS = 50;
/** Builds kept in memory per process (a few hundred KB): enough for every window asked of the live snapshots. */
const MEMO_SIZE = 256;

export interface TrendCacheDeps {
  pool: pg.Pool;
  sources: readonly TrendSource[];
  log: Logger;
}

export interface TrendSetKey {
  geo: string;
  category: TrendCategory | undefined;
}

/** The trends of one (geo, category) for one window, built from the snapshot fetched at `fetchedAt`. */
export interface TrendSet {
  /** Shared by every request of the process, and frozen: copy before reordering. */
  trends: readonly Trend[];
  fetchedAt: Date;
  /** When the snapshot expires: the next fetch happens on the first request after it (`next_refresh_at`). */
  expiresAt: Date;
  /** Sources that failed when the snapshot was fetched, named; empty when every source answered. */
  warnings: string[];
  failedSources: SourceName[];
  /** False when this call fetched the sources itself; true when another request had (or was) fetching. */
  fromCache: boolean;
}

export interface TrendSetOptions {
  /** Runs before this call fetches the sources itself (e.g. to refuse a caller who cannot pay for a fetch). */
  beforeFetch?: () => Promise<void>;
}

interface Snapshot {
  items: SourceItem[];
  fetchedAt: Date;
  expiresAt: Date;
  warnings: string[];
  failedSources: SourceName[];
}

function buildKey(key: CacheKey, windowHours: number, fetchedAt: Date): string {
  return `${key.geo}|${key.category}|${windowHours}|${fetchedAt.getTime()}`;
}

export class TrendCache {
  /**
   * Builds read or made by this process, keyed by snapshot (fetched_at) and window. A build never changes once
   * stored, so this saves reading and parsing it on every request; whether a snapshot is still the fresh one is
   * asked of PostgreSQL every time.
   */
  private readonly memo = new Map<string, readonly Trend[]>();

  constructor(private readonly deps: TrendCacheDeps) {}

  async trendSet(key: TrendSetKey, windowHours: number, options: TrendSetOptions = {}): Promise<TrendSet> {
    const dbKey: CacheKey = { geo: key.geo, category: key.category ?? '' };
    const deadline = Date.now() + (LEASE_SECONDS + GATHER_TIMEOUT_MS / 1000) * 1000;
    let waitingOn: string | null = null;
    for (;;) {
      const state = await readCacheState(this.deps.pool, dbKey, windowHours);
      if (state?.fresh && state.fetchedAt && state.expiresAt) {
        const trends = await this.stored(key, dbKey, windowHours, state.fetchedAt, state.built);
        if (trends) {
          return {
            trends,
            fetchedAt: state.fetchedAt,
            expiresAt: state.expiresAt,
            warnings: state.warnings,
            failedSources: state.failedSources,
            fromCache: true,
          };
        }
        continue; // a newer snapshot replaced this one while it was read
      }
      if (waitingOn !== null && state?.failedToken === waitingOn)
        throw radarErrors.signalsUnavailable(key.geo, key.category, state.failedSources);
      if (Date.now() > deadline)
        throw radarErrors.signalsUnavailable(key.geo, key.category, state?.failedSources ?? []);
      if (state?.leased && state.refreshToken !== null) {
        waitingOn = state.refreshToken;
        await sleep(POLL_MS);
        continue;
      }
      await options.beforeFetch?.();
      const token = randomToken();
      if (!(await claimRefresh(this.deps.pool, dbKey, token, LEASE_SECONDS))) continue;
      const snapshot = await this.refresh(key, dbKey, token);
      if (!snapshot) continue; // the lease ran out mid-fetch and another fetch took the key over
      const { items, ...fetched } = snapshot;
      const trends = await this.buildAndStore(key, dbKey, windowHours, fetched.fetchedAt, items);
      return { ...fetched, trends, fromCache: false };
    }
  }

  /** Gathers every source that covers the key; stores what came back unless every one of them failed. */
  private async refresh(key: TrendSetKey, dbKey: CacheKey, token: string): Promise<Snapshot | undefined> {
    const query: SourceQuery = {
      geo: key.geo,
      ...(key.category ? { category: key.category } : {}),
      windowHours: MAX_WINDOW_HOURS,
    };
    const { pool, log } = this.deps;
    try {
      // gatherItems bounds the fetch by its own deadline; nothing else cancels it, since the requests waiting
      // on this fetch need it even when the one that started it has gone.
      const gathered = await gatherItems(this.deps.sources, query, new AbortController().signal);
      if (gathered.failed.length >= gathered.consulted.length) {
        log.warn(
          { geo: key.geo, category: key.category, warnings: gathered.warnings },
          'no trend source answered',
        );
        await markRefreshFailed(pool, dbKey, token, gathered.failed);
        throw radarErrors.signalsUnavailable(key.geo, key.category, gathered.failed);
      }
      const stored = await storeSnapshot(pool, dbKey, token, {
        items: gathered.items,
        warnings: gathered.warnings,
        failedSources: gathered.failed,
        ttlSeconds: CACHE_TTL_SECONDS,
      });
      if (!stored) return undefined;
      log.info(
        { geo: key.geo, category: key.category, items: gathered.items.length, failed: gathered.failed },
        'trend sources fetched',
      );
      return {
        items: gathered.items,
        ...stored,
        warnings: gathered.warnings,
        failedSources: gathered.failed,
      };
    } catch (error) {
      if (!(error instanceof ApiError)) await releaseRefresh(pool, dbKey, token);
      throw error;
    }
  }

  /**
   * The trends of a stored snapshot for one window: remembered, stored, or built from its items now. Undefined
   * once a newer snapshot replaced it.
   */
  private async stored(
    key: TrendSetKey,
    dbKey: CacheKey,
    windowHours: number,
    fetchedAt: Date,
    built: boolean,
  ): Promise<readonly Trend[] | undefined> {
    const memoKey = buildKey(dbKey, windowHours, fetchedAt);
    const remembered = this.memo.get(memoKey);
    if (remembered) return remembered;
    const { pool } = this.deps;
    const read = built ? await readBuild(pool, dbKey, windowHours, fetchedAt) : undefined;
    if (read) return this.remember(memoKey, read);
    const items = await readSnapshotItems(pool, dbKey, fetchedAt);
    return items && this.buildAndStore(key, dbKey, windowHours, fetchedAt, items);
  }

  /** Frozen: every request of this process shares these objects. */
  private remember(memoKey: string, trends: Trend[]): readonly Trend[] {
    if (this.memo.size >= MEMO_SIZE) this.memo.delete(this.memo.keys().next().value!);
    for (const trend of trends) {
      for (const source of trend.sources) Object.freeze(source);
      Object.freeze(trend.sources);
      Object.freeze(trend.source_signals);
      Object.freeze(trend.platforms);
      Object.freeze(trend);
    }
    const frozen = Object.freeze(trends);
    this.memo.set(memoKey, frozen);
    return frozen;
  }

  /**
   * Builds the trends of one window as of the snapshot's fetch and stores them; the first build stored for a
   * snapshot is the one every later request answers, so that is the one answered here too.
   */
  private async buildAndStore(
    key: TrendSetKey,
    dbKey: CacheKey,
    windowHours: number,
    fetchedAt: Date,
    items: SourceItem[],
  ): Promise<readonly Trend[]> {
    const built = buildTrends(items, {
      now: fetchedAt,
      windowHours,
      geo: key.geo,
      ...(key.category ? { category: key.category } : {}),
    });
    const memoKey = buildKey(dbKey, windowHours, fetchedAt);
    // Undefined when another process stored its build of this snapshot while this one was storing (read it),
    // or a newer snapshot replaced this one (then this build answers for the snapshot the caller was given).
    const stored =
      (await storeBuild(this.deps.pool, dbKey, windowHours, fetchedAt, built)) ??
      (await readBuild(this.deps.pool, dbKey, windowHours, fetchedAt));
    return stored ? this.remember(memoKey, stored) : built;
  }
}
