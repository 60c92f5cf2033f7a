// POST /news-broadcast/recommend's ranking, pure: the trends relevant to the brand (trend-match.ts
// `isRelevant`; none about a banned topic), best combined score first (match, virality and the asked
// platform's relevance; recommendation-weights.ts), each with the words it matched and why.
import type { Trend } from '../trends/trend.ts';
import type { RelevanceColumn } from './recommendation-platforms.ts';
import { RECOMMEND_EXPONENTS } from './recommendation-weights.ts';
import { combinedScore, describeMatched, isRelevant, touchesBanned, type TrendMatch } from './trend-match.ts';

export interface Recommendation {
  trend: Trend;
  brand_match_score: number;
  combined_score: number;
  /** The trend's relevance for the asked platform's column (recommendation-platforms.ts). */
  platform_relevance: number;
  /** The brand's own words the trend matched, strongest first. */
  matched_terms: string[];
  rationale: string;
}

export function recommendTrends(
  matches: readonly TrendMatch[],
  options: { count: number; column: RelevanceColumn; bannedTopics: readonly string[] },
): Recommendation[] {
  const { count, column, bannedTopics } = options;
  return matches
    .filter((m) => isRelevant(m) && !touchesBanned(m.trend, bannedTopics))
    .map((m): Recommendation => {
      const { trend } = m;
      const relevance = trend.platforms[column];
      return {
        trend,
        brand_match_score: m.brandMatch,
        combined_score: combinedScore(m.brandMatch, trend.virality_score, relevance, RECOMMEND_EXPONENTS),
        platform_relevance: relevance,
        matched_terms: m.matched.map((t) => t.word),
        rationale:
          `Matches the brand's ${describeMatched(m.matched)}; virality ${trend.virality_score} ` +
          `(${trend.urgency}, ${trend.recency_hours} h old); ${column.replace('_relevance', '')} relevance ${relevance}.`,
      };
    })
    .sort(
      (a, b) =>
        b.combined_score - a.combined_score ||
        b.brand_match_score - a.brand_match_score ||
        (a.trend.id < b.trend.id ? -1 : 1),
    )
    .slice(0, count);
}
