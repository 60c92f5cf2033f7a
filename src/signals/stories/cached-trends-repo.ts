import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import type { Trend } from '../trends/trend.ts';

// Reading one trend by id from the radar's cache (migrations/0009_trend_cache.sql): the trend sets the radar
// built and stored. A set is replaced when its (geo, category) is fetched again, and a story still trending
// then keeps its id in the new set (ids are stable), so an id resolves as long as some stored set lists it.

/** A stored set older than this no longer answers for a trend id, even while the cache still holds it. */
export const TREND_ID_MAX_AGE_HOURS = 24;

/** The trend with this id from the newest stored set that lists it; undefined when none does. */
export async function findCachedTrend(db: Db, trendId: string): Promise<Trend | undefined> {
  const { rows } = await sql<{ trend: Trend }>`
    SELECT t.trend
      FROM trend_cache_builds b
     CROSS JOIN LATERAL json_array_elements(b.trends) AS t(trend)
     WHERE b.fetched_at > now() - make_interval(hours => ${TREND_ID_MAX_AGE_HOURS})
       AND t.trend ->> 'id' = ${trendId}
     ORDER BY b.fetched_at DESC
     LIMIT 1`.execute(db);
  return rows[0]?.trend;
}
