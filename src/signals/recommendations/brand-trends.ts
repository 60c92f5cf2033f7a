// The live trends a brand is matched against: its industry's category (industry-categories.ts) and the
// general set of its country, both from the radar's shared 10-minute cache, merged. A story in both sets is
// kept once (same id, or a source article in common), as the category set tells it. Each set fails alone:
// when one is unavailable the other answers with a warning; when both are, the radar's 503
// SIGNALS_UNAVAILABLE is thrown for the caller to handle.
import { ApiError } from '../../platform/errors.ts';
import type { TrendSet, TrendSetKey } from '../radar/trend-cache.ts';
import type { TrendCategory } from '../sources/source-item.ts';
import type { Trend } from '../trends/trend.ts';
import { TREND_WINDOW_HOURS } from './recommendation-weights.ts';

/** The one thing recommendations need of the radar service. */
export interface TrendReader {
  trendSet(key: TrendSetKey, windowHours: number): Promise<TrendSet>;
}

export interface BrandTrends {
  trends: Trend[];
  warnings: string[];
  /** The sets that answered, for meta: "US" (general) and "US/business". */
  sets: string[];
}

const label = (key: TrendSetKey): string => (key.category ? `${key.geo}/${key.category}` : key.geo);

function sameStory(a: Trend, b: Trend): boolean {
  if (a.id === b.id) return true;
  const urls = new Set(a.sources.map((s) => s.url));
  return b.sources.some((s) => urls.has(s.url));
}

export async function readBrandTrends(
  radar: TrendReader,
  geo: string,
  category: TrendCategory | undefined,
): Promise<BrandTrends> {
  const keys: TrendSetKey[] = [...(category ? [{ geo, category }] : []), { geo, category: undefined }];
  const settled = await Promise.allSettled(keys.map((key) => radar.trendSet(key, TREND_WINDOW_HOURS)));
  const trends: Trend[] = [];
  const warnings: string[] = [];
  const sets: string[] = [];
  let unavailable: ApiError | undefined;
  settled.forEach((outcome, i) => {
    const key = keys[i]!;
    if (outcome.status === 'rejected') {
      const error: unknown = outcome.reason;
      if (!(error instanceof ApiError && error.code === 'SIGNALS_UNAVAILABLE')) throw error;
      unavailable = error;
      const failed = (error.details as { failed_sources?: string[] } | undefined)?.failed_sources ?? [];
      warnings.push(
        `No trend source answered for ${label(key)}${failed.length > 0 ? ` (${failed.join(', ')} failed)` : ''}.`,
      );
      return;
    }
    sets.push(label(key));
    for (const warning of outcome.value.warnings) if (!warnings.includes(warning)) warnings.push(warning);
    for (const trend of outcome.value.trends)
      if (!trends.some((kept) => sameStory(kept, trend))) trends.push(trend);
  });
  if (sets.length === 0) throw unavailable!;
  return { trends, warnings, sets };
}
