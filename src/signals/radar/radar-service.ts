import type { Answer, Caller } from '../../platform/generation/submit.ts';
import type { FlatPricedOperation } from '../../platform/pricing/price-table.ts';
import type { PaidReads } from '../paid-read.ts';
import type { Trend } from '../trends/trend.ts';
import type { TrendsQuery } from './radar-query.ts';
import type { TrendCache, TrendSet, TrendSetKey } from './trend-cache.ts';
import { breakingView, radarView } from './trend-views.ts';

// The paid reads GET /trends/radar and GET /trends/breaking (spec 2 §4.1; prices and billing in
// docs/signals.md): trends from the shared cache, filtered for the request, charged once they are in hand
// (signals/paid-read.ts).

export type TrendsRead = 'radar' | 'breaking';

export interface TrendsReadInput {
  caller: Caller;
  requestId: string;
  /** Recommended, not required: a retry with the same key answers the first answer, charged once. */
  idempotencyKey: string | undefined;
  query: TrendsQuery;
  /** Warnings of the query itself (e.g. both spellings of the window sent). */
  warnings: string[];
}

export interface RadarServiceDeps {
  paidReads: PaidReads;
  cache: TrendCache;
}

/** Which price-table entry a read is charged at: radar costs less when answered from the cache. */
function operationOf(read: TrendsRead, fromCache: boolean): FlatPricedOperation {
  if (read === 'breaking') return 'trends_breaking';
  return fromCache ? 'trends_radar_cached' : 'trends_radar';
}

export class RadarService {
  constructor(private readonly deps: RadarServiceDeps) {}

  trendSet(key: TrendSetKey, windowHours: number): Promise<TrendSet> {
    return this.deps.cache.trendSet(key, windowHours);
  }

  read(read: TrendsRead, input: TrendsReadInput): Promise<Answer> {
    const { caller, query } = input;
    const { paidReads, cache } = this.deps;
    return paidReads.serve(
      {
        caller,
        requestId: input.requestId,
        idempotencyKey: input.idempotencyKey,
        keyRule: 'recommended',
        endpoint: `trends/${read}`,
        request: query,
      },
      async () => {
        // A caller who cannot pay for a fetch is refused before one starts; one answered from the cache is
        // refused by the charge itself.
        const set = await cache.trendSet({ geo: query.geo, category: query.category }, query.windowHours, {
          beforeFetch: () => paidReads.ensureAffordable(caller, operationOf(read, false)),
        });
        const trends: Trend[] =
          read === 'radar' ? radarView(set.trends, query) : breakingView(set.trends, query);
        return {
          data: { trends },
          operation: operationOf(read, set.fromCache),
          tool: read === 'radar' ? 'trends_radar' : 'trends_breaking',
          tier: set.fromCache ? 'cached' : 'fresh',
          meta: {
            next_refresh_at: set.expiresAt.toISOString(),
            fetched_at: set.fetchedAt.toISOString(),
            cached: set.fromCache,
          },
          warnings: [...input.warnings, ...set.warnings],
        };
      },
    );
  }
}
