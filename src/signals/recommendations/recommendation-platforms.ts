// Platforms in recommendations. A trend rates four platforms (spec 2 §2.1 `platforms`); callers name theirs
// with the platform values hooks take (spec 1 §2.8 plus proforum, hooks/hook-platforms.ts), each read
// through the trend column of the same kind of feed:
//   shortsite, vidsite_shorts, facesite_reels → shortsite_relevance (short vertical video)
//   vidsite                                   → vidsite_relevance   (longer, searched-for video)
//   photosite, facesite                       → photosite_relevance (image-led social feeds)
//   proforum, microsite, microsite_x          → proforum_relevance  (text-first feeds where news is discussed)
// The plan suggests one of the four trend platforms by name.
import type { TrendCategory } from '../sources/source-item.ts';
import type { HookPlatform } from '../hooks/hook-platforms.ts';
import { platformRelevance } from '../trends/platforms.ts';
import { SIGNAL_NAMES, type Signals } from '../trends/story-signals.ts';
import type { TrendPlatforms } from '../trends/trend.ts';

export type RelevanceColumn = keyof TrendPlatforms;
export type PlanPlatform = 'shortsite' | 'vidsite' | 'proforum' | 'photosite';

export const PLATFORM_COLUMNS: Readonly<Record<HookPlatform, RelevanceColumn>> = {
  shortsite: 'shortsite_relevance',
  vidsite_shorts: 'shortsite_relevance',
  facesite_reels: 'shortsite_relevance',
  vidsite: 'vidsite_relevance',
  photosite: 'photosite_relevance',
  facesite: 'photosite_relevance',
  proforum: 'proforum_relevance',
  microsite: 'proforum_relevance',
  microsite_x: 'proforum_relevance',
};

/** The column a trend rates highest; ties go to the first in the spec's order. */
export function bestPlatform(platforms: TrendPlatforms): RelevanceColumn {
  const order: RelevanceColumn[] = [
    'shortsite_relevance',
    'vidsite_relevance',
    'proforum_relevance',
    'photosite_relevance',
  ];
  return order.reduce((best, key) => (platforms[key] > platforms[best] ? key : best), order[0]!);
}

export function planPlatformOf(column: RelevanceColumn): PlanPlatform {
  return column.replace(/_relevance$/, '') as PlanPlatform;
}

/**
 * The platforms for a brand's own topics, best first: the relevance the trends engine gives a story of the
 * brand's category whose five signals are all middling, so that only the category's affinity decides.
 */
function brandPlatforms(category: TrendCategory | undefined): TrendPlatforms {
  const middling = Object.fromEntries(SIGNAL_NAMES.map((name) => [name, 0.5])) as Signals;
  return platformRelevance(category, middling, []);
}

export function brandPlatform(category: TrendCategory | undefined): PlanPlatform {
  return planPlatformOf(bestPlatform(brandPlatforms(category)));
}
