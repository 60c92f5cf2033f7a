// Every number that decides what is recommended to a brand, in one place (docs/signals.md, "Recommendations").

/** Which part of a brand profile a query term came from. */
export type ProfileField = 'industry' | 'topic_pool' | 'audience';

/**
 * Weight of each occurrence of a word in the brand query, by the field it came from. Industry keywords and
 * the topic pool name what the brand talks about; audience segments name who it talks to, and their words
 * ("owners", "teams") say less about a story's subject, so they count half.
 */
export const FIELD_WEIGHTS: Readonly<Record<ProfileField, number>> = {
  industry: 1,
  topic_pool: 1,
  audience: 0.5,
};

/**
 * brand_match_score = s / (s + HALF_MATCH_UNITS · u), where s is the trend's BM25 score against the brand
 * query and u the score of one ordinary match (bm25.ts `unit`): a trend that plainly mentions two of the
 * brand's words scores about 0.5, more and rarer words approach 1, and no word at all is 0.
 */
export const HALF_MATCH_UNITS = 2;

/**
 * A trend is recommended (or planned) only when it matches the brand at least this well and shares at least
 * MIN_MATCHED_WORDS distinct words with it: one word a story happens to repeat ("owners", "close") is not
 * relevance, however often its headlines say it.
 */
export const MIN_BRAND_MATCH = 0.25;
export const MIN_MATCHED_WORDS = 2;

/**
 * combined_score is a weighted geometric mean, so a trend with no brand match scores 0 however viral it is:
 *   recommend: brand_match^0.6 · virality^0.25 · platform_relevance^0.15
 *   plan:      brand_match^0.7 · virality^0.3   (the plan suggests the platform instead of taking one)
 */
export const RECOMMEND_EXPONENTS = { match: 0.6, virality: 0.25, platform: 0.15 } as const;
export const PLAN_EXPONENTS = { match: 0.7, virality: 0.3, platform: 0 } as const;

/** The window trends are read for: the radar's default, a day. */
export const TREND_WINDOW_HOURS = 24;

export const PLAN_DAYS = 7;
/** At most this many days of a plan go to live trends, so the topic pool keeps rotating. */
export const MAX_TREND_DAYS = 3;

export const DEFAULT_RECOMMEND_COUNT = 3;
export const MAX_RECOMMEND_COUNT = 10;

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
