// The five score signals of a story, each 0–1 (spec 2 §2.1). Items speak to the signal of their kind: search
// trends and encyclopedia page views to search momentum, articles and the articles others link to news
// density and quality, posts and videos to the social signal; novelty reads the story's age.
import type { SourceItem, SourceName } from '../sources/source-item.ts';
import { HOUR_MS, type StoryItem } from './story.ts';
import type { StoryPublisher } from './story-publishers.ts';

export const SIGNAL_NAMES = [
  'search_momentum',
  'news_density',
  'social_signal',
  'novelty',
  'quality',
] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];
export type Signals = Record<SignalName, number>;

export interface StoryFacts {
  items: readonly StoryItem[];
  publishers: readonly StoryPublisher[];
  startedAt: number;
  now: number;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** Independent pieces of evidence combined: 1 − Π(1 − s). Two searches at 0.8 make 0.96, never above 1. */
function combine(scores: readonly number[]): number {
  return 1 - scores.reduce((rest, s) => rest * (1 - clamp01(s)), 1);
}

function ageHours(at: number | undefined, now: number): number | undefined {
  return at === undefined ? undefined : Math.max(0, (now - at) / HOUR_MS);
}

// Search momentum: per search item, its rank (1 scores 1, 11 scores 0.5), its volume on a log scale (1M+
// searches score 1, 1K score 0.5) and its growth, the volume per hour since the trend began (100K/h scores
// 1); whichever the source states, weighted 0.4/0.35/0.25. Encyclopedia page views are attention too, but
// slower and partly evergreen: they count at ENCYCLOPEDIA_SHARE.
const RANK_HALF = 10;
const FULL_VOLUME_DIGITS = 6;
const FULL_GROWTH_DIGITS = 5;
const ENCYCLOPEDIA_SHARE = 0.6;

function searchItemScore({ item, at }: StoryItem, now: number): number {
  const parts: [number, number][] = [];
  if (item.rank !== undefined && item.rank >= 1) parts.push([0.4, 1 / (1 + (item.rank - 1) / RANK_HALF)]);
  if (item.traffic && item.traffic.value > 0) {
    const volume = item.traffic.value;
    parts.push([0.35, clamp01(Math.log10(volume) / FULL_VOLUME_DIGITS)]);
    const age = ageHours(at, now);
    if (age !== undefined)
      parts.push([0.25, clamp01(Math.log10(1 + volume / Math.max(1, age)) / FULL_GROWTH_DIGITS)]);
  }
  const weight = parts.reduce((sum, [w]) => sum + w, 0);
  if (weight === 0) return 0;
  const score = parts.reduce((sum, [w, s]) => sum + w * s, 0) / weight;
  return item.kind === 'encyclopedia' ? score * ENCYCLOPEDIA_SHARE : score;
}

export function searchMomentum(facts: StoryFacts): number {
  const searches = facts.items.filter((s) => s.item.kind === 'search' || s.item.kind === 'encyclopedia');
  return combine(searches.map((s) => searchItemScore(s, facts.now)));
}

// News density: distinct publishers in the window, 1 − e^(−n/4): one publisher 0.22, three 0.53, five 0.71,
// ten 0.92. An aggregator counts as half a publisher: it adds reach, not reporting.
const DENSITY_SCALE = 4;
const AGGREGATOR_COUNT = 0.5;

export function newsDensity(facts: StoryFacts): number {
  const n = facts.publishers.reduce((sum, p) => sum + (p.class === 'aggregator' ? AGGREGATOR_COUNT : 1), 0);
  return 1 - Math.exp(-n / DENSITY_SCALE);
}

// Social signal: per post or video, the volume of its interactions (points or likes plus comments; a video's
// views count at 1%) and their velocity per hour since posting, each on a log scale against what a very
// strong item reaches on that source (SOCIAL_REFERENCE; velocity against a sixth of it per hour), averaged.
const SOCIAL_REFERENCE: Readonly<Record<SourceName, number>> = {
  hackernews: 500,
  reddit: 20_000,
  youtube: 200_000,
  feed: 1_000,
  gdelt: 1_000,
  wikipedia: 1_000,
};
const VIEW_INTERACTION = 0.01;

function interactions(item: SourceItem): number {
  const engaged = item.engagement ? item.engagement.points + item.engagement.comments : 0;
  const views = item.kind === 'video' && item.traffic ? item.traffic.value * VIEW_INTERACTION : 0;
  return Math.max(0, engaged + views);
}

function socialItemScore({ item, at }: StoryItem, now: number): number {
  const count = interactions(item);
  if (count === 0) return 0;
  const reference = SOCIAL_REFERENCE[item.source];
  const volume = clamp01(Math.log1p(count) / Math.log1p(reference));
  const age = ageHours(at, now);
  if (age === undefined) return volume;
  const velocity = clamp01(Math.log1p(count / Math.max(1, age)) / Math.log1p(reference / 6));
  return (volume + velocity) / 2;
}

export function socialSignal(facts: StoryFacts): number {
  const posts = facts.items.filter((s) => s.item.kind === 'social' || s.item.kind === 'video');
  return combine(posts.map((s) => socialItemScore(s, facts.now)));
}

// Novelty: 1 while the story is at most NOVELTY_HOURS old (from its earliest item), then halving every
// NOVELTY_HALF_LIFE_HOURS: 8 h old 0.79, 12 h 0.5, 24 h 0.125.
export const NOVELTY_HOURS = 6;
const NOVELTY_HALF_LIFE_HOURS = 6;

export function novelty(facts: StoryFacts): number {
  const age = (facts.now - facts.startedAt) / HOUR_MS;
  return age <= NOVELTY_HOURS ? 1 : 0.5 ** ((age - NOVELTY_HOURS) / NOVELTY_HALF_LIFE_HOURS);
}

// Quality: neutral 0.5 (also for a story no publisher carries, such as a search or a post alone), plus 0.25
// for each primary publisher up to two, minus half the share of aggregators among its publishers. Two
// primary publishers make 1; a story carried by aggregators alone scores 0.
export const NEUTRAL_QUALITY = 0.5;
const PRIMARY_BOOST = 0.25;
const PRIMARY_BOOST_MAX = 2;
const AGGREGATOR_PENALTY = 0.5;

export function quality(facts: StoryFacts): number {
  const all = facts.publishers.length;
  if (all === 0) return NEUTRAL_QUALITY;
  const primary = facts.publishers.filter((p) => p.class === 'primary').length;
  const aggregators = facts.publishers.filter((p) => p.class === 'aggregator').length;
  return clamp01(
    NEUTRAL_QUALITY +
      PRIMARY_BOOST * Math.min(primary, PRIMARY_BOOST_MAX) -
      AGGREGATOR_PENALTY * (aggregators / all),
  );
}

export function scoreSignals(facts: StoryFacts): Signals {
  return {
    search_momentum: searchMomentum(facts),
    news_density: newsDensity(facts),
    social_signal: socialSignal(facts),
    novelty: novelty(facts),
    quality: quality(facts),
  };
}
