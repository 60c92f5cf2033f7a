// Items from every source into ranked trends (spec 2 §2.1). Items outside the window, or observed for
// another country, are left out; the rest are clustered into stories (story-clustering.ts); each story is
// scored on five signals (story-signals.ts), averaged with the weights of score-weights.ts, and given its
// urgency, platforms, id, topic, traffic estimate and sources. Pure: the same items and options give the same
// trends.
import type { SourceItem, TrendCategory } from '../sources/source-item.ts';
import { canonicalUrl } from './canonical-url.ts';
import { headline } from './headline.ts';
import { weightedKeys } from './item-keys.ts';
import { platformRelevance } from './platforms.ts';
import { contributingSignals, viralityScore } from './score-weights.ts';
import { HOUR_MS, storyStart, type Story, type StoryItem } from './story.ts';
import { storyCategory } from './story-category.ts';
import { clusterStories } from './story-clustering.ts';
import { rankedKeys, storyId, storyTopic, ID_KEYS } from './story-identity.ts';
import { storyPublishers } from './story-publishers.ts';
import { scoreSignals } from './story-signals.ts';
import { storySources } from './story-sources.ts';
import { textFeatures } from './text-features.ts';
import { trafficEstimate } from './traffic-estimate.ts';
import type { Trend } from './trend.ts';
import { urgencyOf } from './urgency.ts';

export interface BuildTrendsOptions {
  now: Date;
  /** Items published longer ago are left out; an item without a time counts as current. */
  windowHours: number;
  /** ISO 3166-1 alpha-2; items observed for another country are left out (items with no country stay). */
  geo: string;
  /** Only stories of this category (story-category.ts); items tagged with another are left out. */
  category?: TrendCategory;
}

interface Ranked {
  trend: Trend;
  keys: string[];
  startedAt: number;
}

function publishedAt(item: SourceItem, now: number): number | undefined {
  if (item.publishedAt === undefined) return undefined;
  const at = Date.parse(item.publishedAt);
  return Number.isNaN(at) ? undefined : Math.min(at, now);
}

/** The article URLs an item names; a site's home page links nothing in particular. */
function articleUrls(item: SourceItem): string[] {
  const urls = [item.url, ...item.links.map((l) => l.url)].flatMap((u) => {
    const canonical = u === undefined ? undefined : canonicalUrl(u);
    return canonical?.includes('/') ? [canonical] : [];
  });
  return [...new Set(urls)];
}

/** Search queries and encyclopedia page titles name a subject rather than report on it. */
function isLabel(item: SourceItem): boolean {
  return item.kind === 'search' || item.kind === 'encyclopedia';
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function trendOf(story: Story, now: number, wanted: TrendCategory | undefined): Ranked | undefined {
  const publishers = storyPublishers(story);
  const category = storyCategory(story.items, publishers);
  if (wanted !== undefined && category !== wanted) return undefined;
  const startedAt = storyStart(story, now);
  const facts = { items: story.items, publishers, startedAt, now };
  const signals = scoreSignals(facts);
  const keys = rankedKeys(story);
  return {
    keys,
    startedAt,
    trend: {
      id: storyId(keys),
      topic: storyTopic(story),
      virality_score: round(viralityScore(signals), 3),
      urgency: urgencyOf({ ...facts, signals }),
      started_at: new Date(startedAt).toISOString(),
      recency_hours: round((now - startedAt) / HOUR_MS, 1),
      traffic_estimate: trafficEstimate(story.items),
      source_signals: contributingSignals(signals),
      platforms: platformRelevance(category, signals, story.items),
      sources: storySources(story.items),
    },
  };
}

/** Two stories of one answer never share an id: the later (weaker) one takes more of its keys. */
function distinctIds(ranked: readonly Ranked[]): void {
  const used = new Set<string>();
  for (const { trend, keys } of ranked) {
    let count = ID_KEYS;
    while (used.has(trend.id) && count < keys.length) trend.id = storyId(keys, ++count);
    for (let n = 2; used.has(trend.id); n += 1) trend.id = `${storyId(keys, count)}_${n}`;
    used.add(trend.id);
  }
}

/** The items in the window and the country, clustered into stories (the first half of buildTrends). */
export function storiesOf(items: readonly SourceItem[], options: BuildTrendsOptions): Story[] {
  const now = options.now.getTime();
  const since = now - options.windowHours * HOUR_MS;
  const geo = options.geo.toUpperCase();
  const kept = items.flatMap((item) => {
    if (item.geo !== undefined && item.geo.toUpperCase() !== geo) return [];
    if (options.category && item.category && item.category !== options.category) return [];
    const at = publishedAt(item, now);
    return at !== undefined && at < since ? [] : [{ item, at }];
  });
  // Clustering reads items in time order (untimed last); ties are broken on the items' own text, so the
  // order, and with it the stories, never depends on the order the sources answered in.
  kept.sort(
    (a, b) =>
      (a.at ?? now + 1) - (b.at ?? now + 1) ||
      compareStrings(a.item.source, b.item.source) ||
      compareStrings(a.item.url ?? '', b.item.url ?? '') ||
      compareStrings(a.item.title, b.item.title),
  );

  const headlines = kept.map(({ item }) => headline(item.title, item.domain));
  const keys = weightedKeys(textFeatures(headlines));
  const storyItems: StoryItem[] = kept.map(({ item, at }, i) => ({
    item,
    at,
    headline: headlines[i]!,
    keys: keys[i]!,
  }));
  const clusters = clusterStories(
    storyItems.map((s) => ({ keys: s.keys, urls: articleUrls(s.item), label: isLabel(s.item) })),
  );
  return clusters.map((c) => ({ items: c.members.map((i) => storyItems[i]!), centroid: c.centroid }));
}

export function buildTrends(items: readonly SourceItem[], options: BuildTrendsOptions): Trend[] {
  const now = options.now.getTime();
  const ranked = storiesOf(items, options)
    .flatMap((story) => trendOf(story, now, options.category) ?? [])
    .sort(
      (a, b) =>
        b.trend.virality_score - a.trend.virality_score ||
        b.startedAt - a.startedAt ||
        compareStrings(a.trend.topic, b.trend.topic) ||
        compareStrings(a.trend.id, b.trend.id),
    );
  distinctIds(ranked);
  return ranked.map((r) => r.trend);
}
