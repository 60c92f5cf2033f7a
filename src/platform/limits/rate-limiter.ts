import type pg from 'pg';
import { namedQuery } from '../db/database.ts';
import { errors } from '../errors.ts';

interface Waiter {
  resolve(result: { count: number; retryAfter: number }): void;
  reject(error: unknown): void;
}

/**
 * Fixed one-minute windows counted in PostgreSQL, so every API process shares exact counters. Hits on the
 * same bucket that arrive while its previous increment is in flight are added in one statement
 * (`count + n`), so a hot key costs one round trip per batch instead of one row lock per request.
 */
export class RateLimiter {
  private readonly pending = new Map<string, Waiter[]>();
  private readonly inFlight = new Set<string>();
  private hits = 0;

  constructor(private readonly pool: pg.Pool) {}

  /** Counts one hit on `bucket`; throws 429 with Retry-After once `limit` hits were made this minute. */
  async hit(bucket: string, limit: number, what: string): Promise<void> {
    const { count, retryAfter } = await this.increment(bucket);
    if (++this.hits % 1000 === 0) void this.prune();
    if (count > limit) throw errors.rateLimited(Math.max(1, retryAfter), what);
  }

  private increment(bucket: string): Promise<{ count: number; retryAfter: number }> {
    return new Promise((resolve, reject) => {
      let waiters = this.pending.get(bucket);
      if (!waiters) this.pending.set(bucket, (waiters = []));
      waiters.push({ resolve, reject });
      if (!this.inFlight.has(bucket)) void this.flush(bucket);
    });
  }

  private async flush(bucket: string): Promise<void> {
    const waiters = this.pending.get(bucket);
    if (!waiters) return;
    this.pending.delete(bucket);
    this.inFlight.add(bucket);
    try {
      const n = waiters.length;
      const [row] = await namedQuery<{ count: number; retry_after: number }>(
        this.pool,
        'HitRateCounter',
        `INSERT INTO rate_counters (bucket, window_start, count) VALUES ($1, date_trunc('minute', now()), $2)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_counters.count + $2
         RETURNING count, ceil(extract(epoch FROM (window_start + interval '1 minute' - now())))::int AS retry_after`,
        [bucket, n],
      );
      const { count, retry_after } = row!;
      waiters.forEach((waiter, i) => waiter.resolve({ count: count - n + i + 1, retryAfter: retry_after }));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight.delete(bucket);
      if (this.pending.has(bucket)) void this.flush(bucket);
    }
  }

  private async prune(): Promise<void> {
    await this.pool
      .query("DELETE FROM rate_counters WHERE window_start < now() - interval '5 minutes'")
      .catch(() => {});
  }
}
