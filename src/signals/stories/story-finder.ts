import type { Db } from '../../platform/db/database.ts';
import { ApiError } from '../../platform/errors.ts';
import type { TrendSet, TrendSetKey } from '../radar/trend-cache.ts';
import { breakingView, radarView } from '../radar/trend-views.ts';
import type { TrendCategory } from '../sources/source-item.ts';
import type { Trend } from '../trends/trend.ts';
import { findCachedTrend } from './cached-trends-repo.ts';
import { readNiches } from './niche-categories.ts';
import { storyErrors } from './story-errors.ts';
import { articleSources, matchedKeywords, type StorySource } from './story-match.ts';

// Finds the real stories a news video is made from: the radar's trends (uncharged reads of the shared cache)
// for the categories the niches name, narrowed to those the keywords mention, most viral first. A story is
// only one with a publisher's article to read; its sources are kept in the trend's order, primary first.

/** The uncharged trend read of the radar (RadarService.trendSet). */
export interface TrendReader {
  trendSet(key: TrendSetKey, windowHours: number): Promise<TrendSet>;
}

/** Articles of a story kept for the pipeline: enough to survive a few that cannot be read. */
export const MAX_STORY_SOURCES = 5;

export interface ChosenStory {
  trendId: string;
  topic: string;
  viralityScore: number;
  urgency: string;
  startedAt: string;
  /** Publishers' articles to narrate from, best first. */
  sources: StorySource[];
  /** The request's keywords this story mentions (empty when none were sent). */
  matchedKeywords: string[];
}

export interface StoryQuery {
  geo: string;
  niches: readonly string[];
  keywords: readonly string[];
  /** How many stories to pick (the most viral that fit); fewer are returned when fewer fit. */
  count: number;
  windowHours: number;
  /** Only trends of urgency `breaking` (ordered as GET /trends/breaking orders them). */
  breakingOnly: boolean;
}

export interface FoundStories {
  stories: ChosenStory[];
  /** Partial failures worth telling the caller (a category whose sources were down). */
  warnings: string[];
}

function chosen(trend: Trend, keywords: readonly string[]): ChosenStory | undefined {
  const sources = articleSources(trend).slice(0, MAX_STORY_SOURCES);
  if (sources.length === 0) return undefined;
  return {
    trendId: trend.id,
    topic: trend.topic,
    viralityScore: trend.virality_score,
    urgency: trend.urgency,
    startedAt: trend.started_at,
    sources,
    matchedKeywords: matchedKeywords(trend, keywords),
  };
}

/**
 * The stories a query picks from trends (deduplicated by id): the most viral first (for breaking, the most
 * recent breaking first), only those with a publisher's article, and, when keywords or subject niches are
 * sent, only those mentioning one of them.
 */
export function pickStories(
  trends: readonly Trend[],
  query: Pick<StoryQuery, 'niches' | 'keywords' | 'count' | 'windowHours' | 'breakingOnly'>,
): ChosenStory[] {
  const terms = [...query.keywords, ...readNiches(query.niches).subjects];
  const unique = [...new Map(trends.map((t) => [t.id, t])).values()];
  const everything = { minVirality: 0, limit: unique.length };
  const ordered = query.breakingOnly
    ? breakingView(unique, { ...everything, windowHours: query.windowHours })
    : radarView(unique, everything);
  const stories: ChosenStory[] = [];
  for (const trend of ordered) {
    if (stories.length === query.count) break;
    const story = chosen(trend, terms);
    if (!story || (terms.length > 0 && story.matchedKeywords.length === 0)) continue;
    stories.push(story);
  }
  return stories;
}

export class StoryFinder {
  constructor(private readonly deps: { trends: TrendReader; db: Db }) {}

  /**
   * The stories for a request; throws 422 NO_STORY_AVAILABLE when none fits, and the radar's 503
   * SIGNALS_UNAVAILABLE when every trend read failed.
   */
  async find(query: StoryQuery): Promise<FoundStories> {
    const { categories } = readNiches(query.niches);
    const keys: (TrendCategory | undefined)[] = categories.length > 0 ? categories : [undefined];
    const reads = await Promise.allSettled(
      keys.map((category) => this.deps.trends.trendSet({ geo: query.geo, category }, query.windowHours)),
    );
    const warnings: string[] = [];
    const trends: Trend[] = [];
    for (const [i, read] of reads.entries()) {
      if (read.status === 'fulfilled') {
        trends.push(...read.value.trends);
        continue;
      }
      // A category whose sources are all down lowers coverage; only when every read failed is it the answer.
      const error: unknown = read.reason;
      if (!(error instanceof ApiError) || reads.every((r) => r.status === 'rejected')) throw error;
      warnings.push(`Trends of category ${keys[i]} could not be read: ${error.message}`);
    }
    const stories = pickStories(trends, query);
    if (stories.length === 0) {
      throw storyErrors.noStory({
        geo: query.geo,
        niches: query.niches,
        keywords: query.keywords,
        windowHours: query.windowHours,
        breakingOnly: query.breakingOnly,
      });
    }
    return { stories, warnings };
  }

  /** The cached trend with this id (spec 2 §4.7 trend_id); 404 TREND_NOT_FOUND when no stored set lists it. */
  async byId(trendId: string, keywords: readonly string[] = []): Promise<ChosenStory> {
    const trend = await findCachedTrend(this.deps.db, trendId);
    if (!trend) throw storyErrors.trendNotFound(trendId);
    const story = chosen(trend, keywords);
    if (!story) throw storyErrors.noArticles(trend.id, trend.topic);
    return story;
  }
}
