// The 7-day plan of GET /brand/{brand_id}/recommendations (spec 2 §4.2), pure: the same brand, trends, usage
// and start date give the same plan.
// - Up to MAX_TREND_DAYS days go to the live trends relevant to the brand (trend-match.ts `isRelevant`),
//   best plan combined score first, on the first days, while they are news; each such day takes the trend's
//   topic and the platform the trend rates highest.
// - The other days take the brand's topic pool least-used first: fewest plan days so far, then those this
//   plan has not used yet, then the longest unplanned, then the topic that echoes a live trend most, then the
//   pool's own order. A pool smaller than the days left comes round again.
// - Hook formats rotate through the ones the brand's tone favours (tone-hook-formats.ts).
import type { TrendCategory } from '../sources/source-item.ts';
import type { HookFormat } from '../hooks/hook-formats.ts';
import type { BrandQuery } from './brand-query.ts';
import {
  bestPlatform,
  brandPlatform,
  planPlatformOf,
  type PlanPlatform,
} from './recommendation-platforms.ts';
import { MAX_TREND_DAYS, MIN_BRAND_MATCH, PLAN_DAYS, PLAN_EXPONENTS } from './recommendation-weights.ts';
import type { SignalProfile } from './signal-profile.ts';
import { hookFormatsForTones, type FormatChoice } from './tone-hook-formats.ts';
import { topicKey, type PlannedTopic, type TopicUsage } from './topic-usage-repo.ts';
import {
  combinedScore,
  describeMatched,
  isRelevant,
  touchesBanned,
  type TrendCorpus,
  type TrendMatch,
} from './trend-match.ts';

export interface PlanDay {
  date: string;
  topic: string;
  hook_format_suggestion: HookFormat;
  platform_suggestion: PlanPlatform;
  /** Trend days: the trend's brand match. Pool days: how closely the topic echoes the best-matching live trend. */
  trend_match_score: number;
  rationale: string;
  /** The trend a trend day is about (GET /trends/radar ids); null on pool days. */
  trend_id: string | null;
}

export interface PlanInput {
  profile: SignalProfile;
  query: BrandQuery;
  /** The live trends; undefined when none could be read. */
  corpus: TrendCorpus | undefined;
  usage: ReadonlyMap<string, TopicUsage>;
  /** YYYY-MM-DD of the first day. */
  startDate: string;
  category: TrendCategory | undefined;
}

export interface Plan {
  days: PlanDay[];
  /** The pool topics the plan gave days to: what is counted as used. */
  poolTopics: PlannedTopic[];
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const FORMAT_NAMES: Readonly<Record<HookFormat, string>> = {
  question: 'question',
  bold_claim: 'bold-claim',
  number: 'number',
  story: 'story',
  warning: 'warning',
  contrarian: 'contrarian',
  how_to: 'how-to',
  before_after: 'before/after',
};

function formatReason(choice: FormatChoice): string {
  const name = FORMAT_NAMES[choice.format];
  return choice.tone
    ? `A ${name} hook suits the brand's ${choice.tone} tone.`
    : `A ${name} hook (the profile names no tone to choose by).`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The trends a plan gives days to, best first. */
function planTrends(matches: readonly TrendMatch[], bannedTopics: readonly string[]): TrendMatch[] {
  const plannable = matches.filter((m) => isRelevant(m) && !touchesBanned(m.trend, bannedTopics));
  const combined = (m: TrendMatch) => combinedScore(m.brandMatch, m.trend.virality_score, 1, PLAN_EXPONENTS);
  return plannable
    .map((m) => ({ m, score: combined(m) }))
    .sort((a, b) => b.score - a.score || (a.m.trend.id < b.m.trend.id ? -1 : 1))
    .slice(0, MAX_TREND_DAYS)
    .map(({ m }) => m);
}

interface PoolEntry {
  topic: string;
  order: number;
  uses: number;
  /** Days this plan has given it so far. */
  inPlan: number;
  last: string | undefined;
  echo: { topic: string; match: number } | undefined;
}

function nextPoolEntry(pool: readonly PoolEntry[]): PoolEntry {
  return [...pool].sort(
    (a, b) =>
      a.uses - b.uses ||
      a.inPlan - b.inPlan ||
      (a.last ?? '').localeCompare(b.last ?? '') ||
      (b.echo?.match ?? 0) - (a.echo?.match ?? 0) ||
      a.order - b.order,
  )[0]!;
}

export function buildPlan(input: PlanInput): Plan {
  const { profile, query, corpus, usage, startDate, category } = input;
  const formats = hookFormatsForTones(profile.tone);
  const formatFor = (day: number) => formats[day % formats.length]!;
  const days: PlanDay[] = [];

  const matches = corpus?.matchBrand(query) ?? [];
  const trendDays = planTrends(matches, profile.bannedTopics);
  for (const match of trendDays) {
    const { trend } = match;
    const column = bestPlatform(trend.platforms);
    const format = formatFor(days.length);
    days.push({
      date: addDays(startDate, days.length),
      topic: trend.topic,
      hook_format_suggestion: format.format,
      platform_suggestion: planPlatformOf(column),
      trend_match_score: match.brandMatch,
      rationale:
        `Live trend (virality ${trend.virality_score}, ${trend.urgency}, ${trend.recency_hours} h old, ` +
        `${plural(trend.sources.length, 'source', 'sources')}) matching the brand's ` +
        `${describeMatched(match.matched)}. It rates ${planPlatformOf(column)} highest ` +
        `(${trend.platforms[column]}). ${formatReason(format)}`,
      trend_id: trend.id,
    });
  }

  const seen = new Set<string>();
  const pool: PoolEntry[] = [];
  profile.topicPool.forEach((topic, order) => {
    const key = topicKey(topic);
    if (seen.has(key)) return;
    seen.add(key);
    const used = usage.get(key);
    const best = corpus?.bestForTopic(topic);
    pool.push({
      topic,
      order,
      uses: used?.uses ?? 0,
      inPlan: 0,
      last: used?.lastPlannedFor,
      echo: best && { topic: best.trend.topic, match: best.match },
    });
  });

  const poolTopics: PlannedTopic[] = [];
  const platform = brandPlatform(category);
  while (days.length < PLAN_DAYS && pool.length > 0) {
    const entry = nextPoolEntry(pool);
    const date = addDays(startDate, days.length);
    const format = formatFor(days.length);
    const history =
      entry.uses === 0
        ? 'never planned before'
        : `planned ${plural(entry.uses, 'time', 'times')} before, last for ${entry.last}`;
    const trendNote = !corpus
      ? 'Live trends could not be read, so this day comes from the pool alone.'
      : entry.echo && entry.echo.match >= MIN_BRAND_MATCH
        ? `It echoes the live trend "${entry.echo.topic}" (match ${entry.echo.match}).`
        : 'No live trend touches it today.';
    days.push({
      date,
      topic: entry.topic,
      hook_format_suggestion: format.format,
      platform_suggestion: platform,
      trend_match_score: entry.echo?.match ?? 0,
      rationale:
        `From the brand's topic pool, least used first (${history}). ${trendNote} ` +
        `${platform} suits ${category ?? 'general'} topics best. ${formatReason(format)}`,
      trend_id: null,
    });
    poolTopics.push({ topic: entry.topic, date });
    entry.uses += 1;
    entry.inPlan += 1;
    entry.last = date;
  }
  return { days, poolTopics };
}
