// How well live trends match a brand (and a single topic): each trend is a document of its topic and its
// sources' titles, scored with BM25 against the brand query and read on a 0-1 scale
// (recommendation-weights.ts); the combined score weighs that match with the trend's virality and, when a
// platform is asked for, its relevance there.
import type { Trend } from '../trends/trend.ts';
import { Bm25Index } from './bm25.ts';
import { queryWeights, textQuery, wordsWithStems, type BrandQuery } from './brand-query.ts';
import {
  HALF_MATCH_UNITS,
  MIN_BRAND_MATCH,
  MIN_MATCHED_WORDS,
  round3,
  type ProfileField,
} from './recommendation-weights.ts';

export interface MatchedTerm {
  /** The brand's own word. */
  word: string;
  fields: ProfileField[];
}

export interface TrendMatch {
  trend: Trend;
  /** 0-1: s / (s + HALF_MATCH_UNITS · unit). */
  brandMatch: number;
  /** Strongest contribution first. */
  matched: MatchedTerm[];
}

export interface Exponents {
  match: number;
  virality: number;
  platform: number;
}

function trendStems(trend: Trend): string[] {
  return [trend.topic, ...trend.sources.map((source) => source.title)].flatMap((text) =>
    wordsWithStems(text).map((w) => w.stem),
  );
}

/** Whether a match is strong enough to recommend the trend to the brand (recommendation-weights.ts). */
export function isRelevant(match: TrendMatch): boolean {
  return match.brandMatch >= MIN_BRAND_MATCH && match.matched.length >= MIN_MATCHED_WORDS;
}

const FIELD_LABELS: Readonly<Record<ProfileField, string>> = {
  industry: 'industry',
  topic_pool: 'topic pool',
  audience: 'audience',
};

/** The matched words for a rationale, with the profile fields each came from. */
export function describeMatched(matched: readonly MatchedTerm[], max = 5): string {
  return matched
    .slice(0, max)
    .map((m) => `"${m.word}" (${m.fields.map((f) => FIELD_LABELS[f]).join(', ')})`)
    .join(', ');
}

/** Weighted geometric mean: any factor at 0 makes the whole 0. */
export function combinedScore(
  brandMatch: number,
  virality: number,
  platformRelevance: number,
  exponents: Exponents,
): number {
  const total = exponents.match + exponents.virality + exponents.platform;
  return round3(
    (brandMatch ** exponents.match *
      virality ** exponents.virality *
      platformRelevance ** exponents.platform) **
      (1 / total),
  );
}

/** The live trends of one answer, indexed once for every query against them. */
export class TrendCorpus {
  private readonly index: Bm25Index;

  constructor(readonly trends: readonly Trend[]) {
    this.index = new Bm25Index(trends.map(trendStems));
  }

  private scale(score: number): number {
    return score <= 0 ? 0 : round3(score / (score + HALF_MATCH_UNITS * this.index.unit));
  }

  /** Every trend's match with the brand, in the corpus's order. */
  matchBrand(query: BrandQuery): TrendMatch[] {
    const weights = queryWeights(query);
    return this.trends.map((trend, i) => {
      const { score, matched } = this.index.score(weights, i);
      return {
        trend,
        brandMatch: this.scale(score),
        matched: matched.map(({ term }) => {
          const found = query.get(term)!;
          return { word: found.word, fields: [...found.fields] };
        }),
      };
    });
  }

  /** The trend that best matches one topic, with its 0-1 match; undefined when none shares a word with it. */
  bestForTopic(topic: string): { trend: Trend; match: number } | undefined {
    const weights = textQuery(topic);
    let best: { trend: Trend; match: number } | undefined;
    this.trends.forEach((trend, i) => {
      const match = this.scale(this.index.score(weights, i).score);
      if (match > 0 && (!best || match > best.match)) best = { trend, match };
    });
    return best;
  }
}

/** Whether a trend is about one of a brand's banned topics: its text holds every content word of one. */
export function touchesBanned(trend: Trend, bannedTopics: readonly string[]): boolean {
  if (bannedTopics.length === 0) return false;
  const stems = new Set(trendStems(trend));
  return bannedTopics.some((topic) => {
    const words = wordsWithStems(topic);
    return words.length > 0 && words.every((w) => stems.has(w.stem));
  });
}
