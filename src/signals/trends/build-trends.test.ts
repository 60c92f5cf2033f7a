// The trends engine on multi-source item sets: the recorded-shape fixtures of test/fixtures/signals-engine
// (a hurricane's landfall night, Apple's iPhone event evening and its refresh 40 minutes later) and sets
// built here where a test needs two stories that differ in one thing only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { SourceItem } from '../sources/source-item.ts';
import { buildTrends, type BuildTrendsOptions } from './build-trends.ts';
import type { Trend } from './trend.ts';

interface Fixture {
  now: string;
  geo: string;
  items: SourceItem[];
}

function fixture(name: string): Fixture {
  const url = new URL(`../../../test/fixtures/signals-engine/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Fixture;
}

function trendsOf(f: Fixture, options: Partial<BuildTrendsOptions> = {}): Trend[] {
  return buildTrends(f.items, { now: new Date(f.now), windowHours: 24, geo: f.geo, ...options });
}

/** The trend whose sources include the URL. */
function trendWith(trends: readonly Trend[], url: string): Trend {
  const found = trends.find((t) => t.sources.some((s) => s.url === url));
  assert.ok(found, `no trend has ${url}`);
  return found;
}

const MILTON = fixture('us-2024-10-10-milton');
const APPLE = fixture('us-2025-09-09-apple');
const APPLE_REFRESH = fixture('us-2025-09-09-apple-refresh');

const AP_LANDFALL = 'https://apnews.com/article/hurricane-milton-florida-landfall-tampa-bay-3a7d2b6d';
const POSTGRES_HN = 'https://news.ycombinator.com/item?id=41776420';
const SWIFT_MSN =
  'https://www.msn.com/en-us/music/news/taylor-swift-donates-5-million-to-hurricane-relief/ar-AA1rX2Qb';
const VERGE_EVENT = 'https://www.theverge.com/news/apple-iphone-17-event-news';
const AP_HARVEST = 'https://apnews.com/article/washington-apple-harvest-heat-growers-2025-8c1d0f3a';
const APPLE_PIE = 'https://www.seriouseats.com/best-apple-pie-recipe';

const HOUR = 3_600_000;
const NOW = new Date('2024-10-13T18:00:00.000Z');

function hoursAgo(hours: number): string {
  return new Date(NOW.getTime() - hours * HOUR).toISOString();
}

/** A story told by three primary publishers with a search trend of 200K: its strength is all in the shape. */
function wireStory(headlines: readonly string[], query: string, hours: number, slug: string): SourceItem[] {
  const publishers = ['reuters.com', 'apnews.com', 'bbc.com'];
  const news = headlines.map((title, i): SourceItem => ({
    source: 'gdelt',
    kind: 'news',
    title,
    url: `https://www.${publishers[i]}/news/${slug}`,
    domain: publishers[i]!,
    links: [],
    publishedAt: hoursAgo(hours - i * 0.1),
    geo: 'US',
  }));
  const search: SourceItem = {
    source: 'feed',
    kind: 'search',
    title: query,
    domain: 'trends.google.com',
    links: [],
    geo: 'US',
    rank: 2,
    traffic: { text: '200,000+', value: 200_000 },
  };
  return [...news, search];
}

const NOBEL = [
  'Nobel Prize in Chemistry awarded for protein design and structure prediction',
  'Baker, Hassabis and Jumper win Nobel Prize in Chemistry for protein work',
  'Chemistry Nobel Prize goes to protein design pioneers',
];
const STARSHIP = [
  'SpaceX catches Starship booster with launch tower arms in first attempt',
  'SpaceX Starship booster caught by launch tower chopsticks',
  'Starship test: SpaceX catches Super Heavy booster at launch tower',
];

describe('buildTrends ranking', () => {
  test('a story carried by many publishers and search trends outranks a single-source one', () => {
    const trends = trendsOf(MILTON);
    const milton = trendWith(trends, AP_LANDFALL);
    const postgres = trendWith(trends, POSTGRES_HN);
    assert.equal(trends[0], milton);
    assert.ok(milton.virality_score >= 0.9, `landfall scores ${milton.virality_score}`);
    assert.ok(postgres.virality_score < 0.5, `one HN post scores ${postgres.virality_score}`);
    assert.ok(trends.indexOf(milton) < trends.indexOf(postgres));
    assert.deepEqual(milton.source_signals.slice().sort(), [
      'news_density',
      'novelty',
      'quality',
      'search_momentum',
      'social_signal',
    ]);
    assert.equal(milton.traffic_estimate, '2.5M+ searches');
    assert.equal(postgres.traffic_estimate, '853 interactions');
  });

  test('an 8-hour-old story loses to a fresh one of equal strength', () => {
    const bothFresh = buildTrends(
      [
        ...wireStory(NOBEL, 'nobel prize chemistry', 1, 'nobel'),
        ...wireStory(STARSHIP, 'starship launch', 1, 'starship'),
      ],
      { now: NOW, windowHours: 24, geo: 'US' },
    );
    assert.equal(bothFresh.length, 2);
    assert.ok(
      Math.abs(bothFresh[0]!.virality_score - bothFresh[1]!.virality_score) < 0.002,
      'the two stories are of equal strength when equally fresh',
    );

    const trends = buildTrends(
      [
        ...wireStory(NOBEL, 'nobel prize chemistry', 8, 'nobel'),
        ...wireStory(STARSHIP, 'starship launch', 1, 'starship'),
      ],
      { now: NOW, windowHours: 24, geo: 'US' },
    );
    const [first, second] = trends;
    assert.match(first!.topic, /Starship|SpaceX/);
    assert.match(second!.topic, /Nobel/);
    assert.ok(first!.virality_score > second!.virality_score);
    assert.ok(first!.source_signals.includes('novelty'));
    assert.ok(!second!.source_signals.includes('novelty'));
    assert.equal(second!.recency_hours, 8);
    assert.equal(second!.started_at, hoursAgo(8));
  });

  test('a story carried by aggregators alone is penalised', () => {
    const swift = MILTON.items.filter((i) => i.title.startsWith('Taylor Swift'));
    assert.equal(swift.length, 3);
    const original = ['people.com', 'ew.com', 'usmagazine.com'];
    const reported = swift.map((item, i) => ({
      ...item,
      domain: original[i]!,
      url: item.url!.replace(/^https:\/\/www\.[^/]+/, `https://www.${original[i]}`),
    }));
    const options = { now: new Date(MILTON.now), windowHours: 24, geo: 'US' };
    const [aggregated] = buildTrends(swift, options);
    const [firstHand] = buildTrends(reported, options);
    assert.ok(aggregated && firstHand);
    assert.ok(
      aggregated.virality_score < firstHand.virality_score,
      `aggregators ${aggregated.virality_score} vs publishers ${firstHand.virality_score}`,
    );
    assert.ok(!aggregated.source_signals.includes('quality'));

    // In the full radar the aggregated story ranks below the one-post story too.
    const trends = trendsOf(MILTON);
    assert.ok(trendWith(trends, SWIFT_MSN).virality_score < trendWith(trends, POSTGRES_HN).virality_score);
  });
});

describe('buildTrends stories', () => {
  test('the same story from many sources is one trend; stories sharing a word stay apart', () => {
    const trends = trendsOf(APPLE);
    const event = trendWith(trends, VERGE_EVENT);
    const eventUrls = APPLE.items
      .filter((i) => /iphone|apple (event|announces)/i.test(i.title) && i.url)
      .map((i) => i.url!);
    assert.ok(eventUrls.length >= 7);
    for (const url of eventUrls)
      assert.ok(
        event.sources.some((s) => s.url === url),
        `${url} is not in the event's trend`,
      );
    // All three search trends ("iphone 17", "iphone air", "apple event") count towards it.
    assert.equal(event.traffic_estimate, '1.7M+ searches');
    assert.deepEqual(
      new Set(event.sources.map((s) => s.domain)),
      new Set([
        'theverge.com',
        'reuters.com',
        'cnbc.com',
        'bloomberg.com',
        'engadget.com',
        'apple.com',
        'news.ycombinator.com',
        'youtube.com',
      ]),
    );

    const harvest = trendWith(trends, AP_HARVEST);
    const pie = trendWith(trends, APPLE_PIE);
    assert.notEqual(harvest.id, event.id);
    assert.notEqual(pie.id, event.id);
    assert.notEqual(pie.id, harvest.id);
    for (const t of [harvest, pie])
      assert.ok(!t.sources.some((s) => /iphone/i.test(s.title)), `${t.topic} took an iPhone source`);

    // The hurricane and a celebrity's donation for its relief share "hurricane" and "Milton": two stories.
    const milton = trendsOf(MILTON);
    assert.notEqual(trendWith(milton, AP_LANDFALL).id, trendWith(milton, SWIFT_MSN).id);
  });

  test('a story keeps its id when the sources refresh', () => {
    const before = trendsOf(APPLE);
    const after = trendsOf(APPLE_REFRESH);
    const event = trendWith(before, VERGE_EVENT);
    const refreshed = trendWith(after, VERGE_EVENT);
    assert.equal(refreshed.id, event.id);
    // The refresh brought new coverage, and it joined the same trend.
    assert.ok(refreshed.sources.some((s) => s.domain === 'theguardian.com'));
    assert.ok(!refreshed.sources.some((s) => s.domain === 'engadget.com'));
    assert.equal(trendWith(after, APPLE_PIE).id, trendWith(before, APPLE_PIE).id);
    // Ids are unique within an answer.
    assert.equal(new Set(after.map((t) => t.id)).size, after.length);
  });

  test('window_hours leaves out older items', () => {
    const helene = 'https://apnews.com/article/hurricane-helene-death-toll-north-carolina-recovery-6b1f0e44';
    const has = (trends: Trend[], url: string) => trends.some((t) => t.sources.some((s) => s.url === url));
    assert.ok(!has(trendsOf(MILTON), helene), 'a 3-day-old article is outside 24 hours');
    assert.ok(has(trendsOf(MILTON, { windowHours: 168 }), helene));

    const recent = trendsOf(MILTON, { windowHours: 2 });
    const since = new Date(MILTON.now).getTime() - 2 * HOUR;
    for (const t of recent)
      assert.ok(Date.parse(t.started_at) >= since, `${t.topic} started before the window`);
    assert.ok(!has(recent, POSTGRES_HN), 'the post of 23:10 is outside 2 hours');
    assert.ok(
      has(recent, 'https://www.bbc.com/news/articles/c5y3x8n4q1go'),
      'the article of 01:20 is inside',
    );
  });

  test('items observed for another country or tagged with another category are left out', () => {
    const elsewhere = MILTON.items.map((i) => (i.geo ? { ...i, geo: 'GB' } : i));
    const trends = buildTrends(elsewhere, { now: new Date(MILTON.now), windowHours: 24, geo: 'US' });
    // Only the items with no country (the Hacker News post) remain.
    assert.deepEqual(
      trends.map((t) => t.topic),
      ['PostgreSQL 17 Released'],
    );

    const tech = trendsOf(APPLE, { category: 'tech' });
    assert.ok(tech.some((t) => t.sources.some((s) => s.url === VERGE_EVENT)));
    assert.ok(!tech.some((t) => t.sources.some((s) => s.url === AP_HARVEST)), 'the harvest is business');
  });
});

describe('buildTrends fields', () => {
  test('breaking: young, and several publishers within the last hours', () => {
    const trends = trendsOf(MILTON);
    assert.equal(trendWith(trends, AP_LANDFALL).urgency, 'breaking');
    assert.notEqual(trendWith(trends, POSTGRES_HN).urgency, 'breaking');
    const old = buildTrends(wireStory(NOBEL, 'nobel prize chemistry', 8, 'nobel'), {
      now: NOW,
      windowHours: 24,
      geo: 'US',
    });
    assert.equal(old[0]?.urgency, 'steady');
  });

  test('every field of spec 2 §2.1, in range, and the same answer whatever order the items came in', () => {
    const trends = trendsOf(APPLE);
    for (const t of trends) {
      assert.match(t.id, /^trd_[0-9a-f]{16}$/);
      assert.ok(t.topic.length > 0);
      assert.ok(t.virality_score >= 0 && t.virality_score <= 1);
      assert.ok(['breaking', 'rising', 'steady'].includes(t.urgency));
      assert.ok(!Number.isNaN(Date.parse(t.started_at)));
      assert.ok(t.recency_hours >= 0);
      assert.ok(t.traffic_estimate.length > 0);
      for (const value of Object.values(t.platforms)) assert.ok(value >= 0 && value <= 1);
      assert.equal(new Set(t.sources.map((s) => s.url)).size, t.sources.length);
      for (const s of t.sources) assert.ok(s.title && s.url && s.domain);
    }
    const scores = trends.map((t) => t.virality_score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );

    const reversed = buildTrends([...APPLE.items].reverse(), {
      now: new Date(APPLE.now),
      windowHours: 24,
      geo: 'US',
    });
    assert.deepEqual(reversed, trends);
  });

  test('platform relevance follows the story: a tech launch suits the professional network more than a pie recipe', () => {
    const trends = trendsOf(APPLE);
    const event = trendWith(trends, VERGE_EVENT);
    const pie = trendWith(trends, APPLE_PIE);
    assert.ok(event.platforms.proforum_relevance > pie.platforms.proforum_relevance);
    // The event has videos among its items: the video site's relevance is high.
    assert.ok(event.platforms.vidsite_relevance > 0.8);

    const swift = trendWith(trendsOf(MILTON), SWIFT_MSN);
    assert.ok(swift.platforms.shortsite_relevance > swift.platforms.proforum_relevance);
    assert.ok(swift.platforms.photosite_relevance > swift.platforms.proforum_relevance);
  });

  test('the topic is a headline of the story, without the publisher tail', () => {
    const trends = trendsOf(APPLE);
    const reuters = trendWith(
      trends,
      'https://www.reuters.com/business/apple-unveils-slimmer-iphone-air-2025-09-09/',
    );
    const source = reuters.sources.find((s) => s.domain === 'reuters.com');
    assert.equal(source?.title, 'Apple unveils slimmer iPhone Air as it seeks to revive sales');
    const headlines = new Set(APPLE.items.map((i) => i.title));
    assert.ok(headlines.has(reuters.topic));
  });
});
