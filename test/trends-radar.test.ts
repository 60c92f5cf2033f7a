import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Trend } from '../src/signals/trends/trend.ts';
import { startChildService, type ChildService } from './support/http-child-process.ts';
import {
  REPLAY_REDDIT_CREDENTIALS,
  REPLAY_YOUTUBE_KEY,
  SignalSourcesServer,
} from './support/signal-sources-server.ts';
import { call, startTestService, type TestResponse, type TestService } from './support/test-service.ts';

// GET /trends/radar and /trends/breaking against the real service and PostgreSQL, with every trend source
// (feeds, Hacker News, GDELT, Wikipedia, Reddit, YouTube) replayed by a loopback server in its own protocol.

let replay: SignalSourcesServer;
let service: TestService;
let feedsDir: string;

before(async () => {
  replay = await SignalSourcesServer.start({ slowMs: 1500 });
  feedsDir = await mkdtemp(join(tmpdir(), 'reelsmith-trend-feeds-'));
  const feedsFile = join(feedsDir, 'feeds.json');
  await writeFile(feedsFile, JSON.stringify(replay.feeds()));
  const urls = replay.baseUrls;
  service = await startTestService({
    env: {
      TRENDS_FEEDS: feedsFile,
      TRENDS_HN_BASE_URL: urls.hackerNews,
      TRENDS_GDELT_BASE_URL: urls.gdelt,
      TRENDS_REDDIT_BASE_URL: urls.reddit,
      TRENDS_WIKIMEDIA_BASE_URL: urls.wikimedia,
      TRENDS_YOUTUBE_BASE_URL: urls.youtube,
      REDDIT_CLIENT_ID: REPLAY_REDDIT_CREDENTIALS.clientId,
      REDDIT_CLIENT_SECRET: REPLAY_REDDIT_CREDENTIALS.clientSecret,
      YOUTUBE_API_KEY: REPLAY_YOUTUBE_KEY,
    },
    worker: false,
  });
});

after(async () => {
  await service.stop();
  await replay.close();
  await rm(feedsDir, { recursive: true, force: true });
});

async function balance(key = service.account.live_key): Promise<number> {
  const usage = await service.call('GET', '/api/v1/usage', { key });
  return usage.body.data.balance_usd_cents as number;
}

/** Makes the cached snapshots stale, as ten minutes passing would. */
async function expireCache(): Promise<void> {
  await service.runtime.database.pool.query(
    `UPDATE trend_cache SET expires_at = now() - interval '1 second'`,
  );
}

function trendsOf(response: TestResponse): Trend[] {
  assert.equal(response.status, 200, response.text);
  return response.body.data.trends as Trend[];
}

const ids = (trends: Trend[]) => trends.map((t) => t.id);

/** Requests the sources answered for Hacker News's top-stories list: one per fetch of a key it covers. */
const hackerNewsFetches = () =>
  replay.requestsFor('hackernews').filter((r) => r.path.endsWith('/topstories.json')).length;

void describe('GET /trends/radar', () => {
  void test('answers scored trends with every field of spec 2 §2.1, charged 10 cents when fetched', async () => {
    const before = await balance();
    const response = await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=100');
    const trends = trendsOf(response);
    assert.ok(trends.length >= 5, `only ${trends.length} trends`);
    for (const trend of trends) {
      assert.deepEqual(Object.keys(trend).sort(), [
        'id',
        'platforms',
        'recency_hours',
        'source_signals',
        'sources',
        'started_at',
        'topic',
        'traffic_estimate',
        'urgency',
        'virality_score',
      ]);
      assert.match(trend.id, /^trd_[0-9a-f]+/);
      assert.ok(trend.topic.length > 0);
      assert.ok(trend.virality_score >= 0 && trend.virality_score <= 1, String(trend.virality_score));
      assert.ok(['breaking', 'rising', 'steady'].includes(trend.urgency), trend.urgency);
      assert.ok(!Number.isNaN(Date.parse(trend.started_at)));
      assert.ok(trend.recency_hours >= 0 && trend.recency_hours <= 24, String(trend.recency_hours));
      assert.equal(typeof trend.traffic_estimate, 'string');
      assert.ok(Array.isArray(trend.source_signals));
      assert.deepEqual(Object.keys(trend.platforms).sort(), [
        'photosite_relevance',
        'proforum_relevance',
        'shortsite_relevance',
        'vidsite_relevance',
      ]);
      for (const value of Object.values(trend.platforms)) assert.ok(value >= 0 && value <= 1);
      assert.ok(trend.sources.length > 0);
      for (const source of trend.sources) {
        assert.deepEqual(Object.keys(source).sort(), ['domain', 'title', 'url']);
        assert.match(new URL(source.url).protocol, /^https?:$/);
        assert.match(source.domain, /^[a-z0-9.-]+\.[a-z]+$/);
      }
    }
    const scores = trends.map((t) => t.virality_score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'highest score first',
    );
    // The recall story, carried by many publishers, comes with them as its sources.
    const recall = trends.find((t) => /Solara/.test(t.topic));
    assert.ok(recall, 'the recall story is a trend');
    assert.ok(new Set(recall.sources.map((s) => s.domain)).size >= 3, JSON.stringify(recall.sources));

    const meta = response.body.meta;
    assert.equal(meta.credits_used, 10);
    assert.equal(meta.cached, false);
    assert.equal(meta.credits_remaining, before - 10);
    assert.equal(await balance(), before - 10);
    assert.equal(Date.parse(meta.next_refresh_at) - Date.parse(meta.fetched_at), 10 * 60_000);
    assert.ok(Math.abs(Date.parse(meta.fetched_at) - Date.now()) < 60_000);
    assert.equal(meta.warnings, undefined);
    assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), '10');
    assert.equal(response.headers.get('x-api-credits-tool'), 'trends_radar');
    assert.equal(response.headers.get('x-api-credits-tier'), 'fresh');
    assert.equal(response.headers.get('x-api-credits-engine'), 'signals');
    assert.equal(response.headers.get('x-request-id'), meta.request_id);
  });

  void test('a cached repeat answers the same trend set for 5 cents, without asking the sources again', async () => {
    const path = '/api/v1/trends/radar?min_virality=0&limit=100';
    const fetches = replay.requests.length;
    const before = await balance();
    const first = await service.call('GET', path);
    const second = await service.call('GET', path);
    assert.equal(replay.requests.length, fetches, 'no source was asked again');
    assert.deepEqual(trendsOf(second), trendsOf(first));
    for (const response of [first, second]) {
      assert.equal(response.body.meta.cached, true);
      assert.equal(response.body.meta.credits_used, 5);
      assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), '5');
      assert.equal(response.headers.get('x-api-credits-tier'), 'cached');
    }
    assert.equal(second.body.meta.fetched_at, first.body.meta.fetched_at);
    assert.equal(second.body.meta.next_refresh_at, first.body.meta.next_refresh_at);
    assert.equal(second.body.meta.credits_remaining, before - 10);
    assert.equal(await balance(), before - 10);
  });

  void test('min_virality, limit and window_hours filter the one cached set', async () => {
    const all = trendsOf(await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=100'));
    const strong = trendsOf(await service.call('GET', '/api/v1/trends/radar?min_virality=0.7&limit=100'));
    assert.ok(strong.length > 0 && strong.length < all.length);
    assert.deepEqual(ids(strong), ids(all.filter((t) => t.virality_score >= 0.7)));
    const byDefault = trendsOf(await service.call('GET', '/api/v1/trends/radar'));
    assert.deepEqual(ids(byDefault), ids(all.filter((t) => t.virality_score >= 0.5)));
    const top2 = trendsOf(await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=2'));
    assert.deepEqual(ids(top2), ids(all.slice(0, 2)));

    const fetches = replay.requests.length;
    const lastHour = await service.call(
      'GET',
      '/api/v1/trends/radar?min_virality=0&limit=100&window_hours=1',
    );
    const hour = trendsOf(lastHour);
    assert.equal(replay.requests.length, fetches, 'another window is built from the same snapshot');
    assert.equal(lastHour.body.meta.credits_used, 5);
    assert.ok(hour.length > 0 && hour.length < all.length);
    for (const trend of hour) assert.ok(trend.recency_hours <= 1, `${trend.topic}: ${trend.recency_hours} h`);
    const week = trendsOf(
      await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=100&window_hours=168'),
    );
    assert.ok(week.length > all.length, 'a week holds stories older than a day');
    assert.ok(week.some((t) => t.recency_hours > 24));
  });

  void test('every parameter error is a free 400 naming the field', async () => {
    const before = await balance();
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['min_virality=2', 'min_virality'],
      ['window_hours=169', 'window_hours'],
      ['window_hours=', 'window_hours'],
      ['geo=XX', 'geo'],
      ['geo=USA', 'geo'],
      ['category=weather', 'category'],
      ['sort=score', 'sort'],
      ['geo=US&geo=GB', 'geo'],
    ];
    for (const [query, field] of cases) {
      const response = await service.call('GET', `/api/v1/trends/radar?${query}`);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(response.body.success, false);
      assert.equal(response.body.error.code, 'INPUT_INVALID');
      assert.deepEqual(
        response.body.error.details.fields.map((f: { field: string }) => f.field),
        [field],
        query,
      );
      assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), null);
    }
    const category = await service.call('GET', '/api/v1/trends/radar?category=weather');
    assert.deepEqual(category.body.error.details.fields[0].valid_values, [
      'tech',
      'business',
      'entertainment',
      'sports',
      'health',
      'politics',
      'science',
    ]);
    const unauthenticated = await service.call('GET', '/api/v1/trends/radar', { key: null });
    assert.equal(unauthenticated.status, 401);
    assert.equal(await balance(), before);
  });

  void test('a category is its own cache entry', async () => {
    const all = trendsOf(await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=100'));
    const response = await service.call(
      'GET',
      '/api/v1/trends/radar?category=sports&min_virality=0&limit=100',
    );
    const sports = trendsOf(response);
    assert.equal(response.body.meta.cached, false);
    assert.equal(response.body.meta.credits_used, 10);
    assert.ok(sports.some((t) => /Marlow City/.test(t.topic)));
    assert.ok(sports.length < all.length);
    const again = await service.call('GET', '/api/v1/trends/radar?category=sports&min_virality=0&limit=100');
    assert.equal(again.body.meta.cached, true);
    assert.deepEqual(trendsOf(again), sports);
  });
});

void describe('sources failing', () => {
  void test('one source down: a warning names it and its contribution is missing', async () => {
    const path = '/api/v1/trends/radar?min_virality=0&limit=100';
    const healthy = trendsOf(await service.call('GET', path));
    assert.ok(healthy.some((t) => t.sources.some((s) => s.domain === 'news.ycombinator.com')));
    await expireCache();
    replay.set('hackernews', 'down');
    try {
      const response = await service.call('GET', path);
      const trends = trendsOf(response);
      assert.equal(response.body.meta.cached, false);
      assert.equal(response.body.meta.credits_used, 10);
      assert.ok(
        (response.body.meta.warnings as string[]).some((w) => /Hacker News/.test(w)),
        JSON.stringify(response.body.meta.warnings),
      );
      assert.ok(trends.length > 0);
      assert.ok(!trends.some((t) => t.sources.some((s) => s.domain === 'news.ycombinator.com')));
      assert.ok(!trends.some((t) => /Ask HN/.test(t.topic)));
      const sourcesOf = (list: Trend[]) => list.reduce((n, t) => n + t.sources.length, 0);
      assert.ok(sourcesOf(trends) < sourcesOf(healthy));
      // Answers from that snapshot keep saying what it lacks.
      const cached = await service.call('GET', path);
      assert.equal(cached.body.meta.cached, true);
      assert.deepEqual(cached.body.meta.warnings, response.body.meta.warnings);
    } finally {
      replay.reset();
    }
  });

  // A country no request has asked for yet: YouTube's own chart cache (quota-aware) holds nothing for it.
  void test('every source down: a free, retryable 503 SIGNALS_UNAVAILABLE; nothing is cached', async () => {
    replay.setAll('down');
    const before = await balance();
    try {
      const response = await service.call('GET', '/api/v1/trends/radar?geo=GB');
      assert.equal(response.status, 503, response.text);
      assert.equal(response.body.error.code, 'SIGNALS_UNAVAILABLE');
      assert.equal(response.body.error.retryable, true);
      assert.ok(response.headers.get('retry-after'));
      assert.deepEqual([...response.body.error.details.failed_sources].sort(), [
        'feed',
        'gdelt',
        'hackernews',
        'reddit',
        'wikipedia',
        'youtube',
      ]);
      const breaking = await service.call('GET', '/api/v1/trends/breaking?geo=GB');
      assert.equal(breaking.status, 503, breaking.text);
      assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), null);
      assert.equal(await balance(), before);
    } finally {
      replay.reset();
    }
    const recovered = await service.call('GET', '/api/v1/trends/radar?geo=GB');
    assert.equal(recovered.status, 200, recovered.text);
    assert.equal(recovered.body.meta.cached, false);
    assert.equal(await balance(), before - 10);
  });
});

void describe('cache housekeeping', () => {
  void test('snapshots nobody asked for in a day are dropped when another is stored', async () => {
    const pool = service.runtime.database.pool;
    assert.equal((await service.call('GET', '/api/v1/trends/radar?geo=FR')).status, 200);
    // FR and US were last fetched two days ago.
    await pool.query(
      `UPDATE trend_cache SET expires_at = now() - interval '2 days' WHERE geo IN ('FR', 'US') AND category = ''`,
    );
    const refreshed = await service.call('GET', '/api/v1/trends/radar?geo=US');
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(refreshed.body.meta.cached, false);
    const rows = await pool.query<{ geo: string; fresh: boolean }>(
      `SELECT geo, expires_at > now() AS fresh FROM trend_cache WHERE geo IN ('FR', 'US') AND category = ''`,
    );
    assert.deepEqual(rows.rows, [{ geo: 'US', fresh: true }]);
    const builds = await pool.query(`SELECT 1 FROM trend_cache_builds WHERE geo = 'FR'`);
    assert.equal(builds.rowCount, 0);
  });
});

void describe('GET /trends/breaking', () => {
  void test('breaking stories only, most recent first, 10 cents cached or not', async () => {
    const first = await service.call('GET', '/api/v1/trends/breaking?min_virality=0');
    const breaking = trendsOf(first);
    assert.ok(breaking.length >= 2, `only ${breaking.length} breaking`);
    for (const trend of breaking) {
      assert.equal(trend.urgency, 'breaking');
      assert.ok(trend.recency_hours <= 18);
    }
    const recency = breaking.map((t) => t.recency_hours);
    assert.deepEqual(
      recency,
      [...recency].sort((a, b) => a - b),
    );
    // The same stories the radar shows as breaking for the same 18-hour window.
    const radar = trendsOf(
      await service.call('GET', '/api/v1/trends/radar?min_virality=0&limit=100&window_hours=18'),
    );
    assert.deepEqual(new Set(ids(breaking)), new Set(ids(radar.filter((t) => t.urgency === 'breaking'))));
    const again = await service.call('GET', '/api/v1/trends/breaking?min_virality=0');
    assert.deepEqual(trendsOf(again), breaking);
    for (const response of [first, again]) {
      assert.equal(response.body.meta.credits_used, 10);
      assert.equal(response.headers.get('x-api-credits-tool'), 'trends_breaking');
    }
    assert.equal(again.body.meta.cached, true);
  });

  void test('windowHours narrows the window; window_hours wins when both are sent', async () => {
    const narrow = trendsOf(
      await service.call('GET', '/api/v1/trends/breaking?min_virality=0&windowHours=2'),
    );
    const wide = trendsOf(await service.call('GET', '/api/v1/trends/breaking?min_virality=0'));
    assert.ok(narrow.length < wide.length);
    for (const trend of narrow) assert.ok(trend.recency_hours <= 2);
    const both = await service.call(
      'GET',
      '/api/v1/trends/breaking?min_virality=0&windowHours=2&window_hours=18',
    );
    assert.deepEqual(ids(trendsOf(both)), ids(wide));
    assert.match(both.body.meta.warnings[0], /"window_hours" was used/);
    const invalid = await service.call('GET', '/api/v1/trends/breaking?windowHours=0');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.details.fields[0].field, 'windowHours');
  });
});

void describe('billing', () => {
  void test('a balance short of the price is a 402; one short of a fetch is refused before fetching', async () => {
    const poor = await service.newAccount(7);
    const cached = await service.call('GET', '/api/v1/trends/radar', { key: poor.live_key });
    assert.equal(cached.status, 200, cached.text);
    assert.equal(cached.body.meta.credits_remaining, 2);

    const fetches = replay.requests.length;
    const cold = await service.call('GET', '/api/v1/trends/radar?category=health', { key: poor.live_key });
    assert.equal(cold.status, 402, cold.text);
    assert.equal(cold.body.error.code, 'INSUFFICIENT_API_CREDITS');
    assert.deepEqual(cold.body.error.details, { required_usd_cents: 10, balance_usd_cents: 2 });
    assert.equal(replay.requests.length, fetches, 'no source was asked');
    const short = await service.call('GET', '/api/v1/trends/radar', { key: poor.live_key });
    assert.equal(short.status, 402);
    assert.deepEqual(short.body.error.details, { required_usd_cents: 5, balance_usd_cents: 2 });
    assert.equal(await balance(poor.live_key), 2);
  });

  void test('an Idempotency-Key replays the first answer, charged once', async () => {
    const before = await balance();
    const headers = { 'idempotency-key': `radar-${Date.now()}` };
    const first = await service.call('GET', '/api/v1/trends/radar?limit=3', { headers });
    const replayed = await service.call('GET', '/api/v1/trends/radar?limit=3', { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(replayed.headers.get('x-idempotent-replay'), 'true');
    assert.deepEqual(replayed.body.data, first.body.data);
    assert.equal(replayed.body.meta.original_request_id, first.body.meta.request_id);
    assert.equal(await balance(), before - first.body.meta.credits_used);
    const other = await service.call('GET', '/api/v1/trends/radar?limit=4', { headers });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'RESOURCE_ALREADY_EXISTS');
  });

  void test('a sandbox key reads the same trends for free', async () => {
    const before = await balance();
    const live = trendsOf(await service.call('GET', '/api/v1/trends/radar?min_virality=0'));
    const sandbox = await service.call('GET', '/api/v1/trends/radar?min_virality=0', {
      key: service.account.sandbox_key,
    });
    assert.deepEqual(trendsOf(sandbox), live);
    assert.equal(sandbox.body.meta.credits_used, 0);
    assert.equal(sandbox.body.meta.sandbox, true);
    assert.equal(sandbox.headers.get('x-api-credits-cost-usd-cents'), '0');
    assert.equal(await balance(), before - 5);
  });
});

void describe('catalogs', () => {
  void test('/tools and /usage list the paid reads with their prices from the price table', async () => {
    const tools = (await service.call('GET', '/api/v1/tools', { key: null })).body.data;
    const listed = (
      tools.reads as { name: string; method: string; path: string; price_usd_cents: number }[]
    ).map((r) => [r.name, r.method, r.path, r.price_usd_cents]);
    assert.deepEqual(listed, [
      ['trends_radar', 'GET', '/api/v1/trends/radar', 10],
      ['trends_radar_cached', 'GET', '/api/v1/trends/radar', 5],
      ['trends_breaking', 'GET', '/api/v1/trends/breaking', 10],
      ['news_broadcast_recommend', 'POST', '/api/v1/news-broadcast/recommend', 25],
      ['brand_recommendations', 'GET', '/api/v1/brand/{brand_id}/recommendations', 15],
      ['avatar_creation', 'POST', '/api/v1/avatars', 265],
      ['seo_article', 'POST', '/api/v1/articles', 10],
    ]);
    const displays = (tools.pricing.reads as { operation: string; display: string }[]).map((r) => r.display);
    assert.deepEqual(displays, ['$0.10', '$0.05', '$0.10', '$0.25', '$0.15', '$2.65', '$0.10']);
    const usage = (await service.call('GET', '/api/v1/usage')).body.data.pricing;
    assert.deepEqual(usage.reads, {
      trends_radar: 10,
      trends_radar_cached: 5,
      trends_breaking: 10,
      news_broadcast_recommend: 25,
      brand_recommendations: 15,
      avatar_creation: 265,
      seo_article: 10,
    });
  });
});

void describe('the cache across API processes', () => {
  let child: ChildService;
  before(async () => {
    child = await startChildService(service, { RUN_WORKER: '0' });
  });
  after(async () => {
    await child.stop();
  });

  void test('concurrent misses on two processes fetch once; both answer the same set', async () => {
    replay.set('hackernews', 'slow');
    const fetches = hackerNewsFetches();
    const path = '/api/v1/trends/radar?category=tech&min_virality=0';
    try {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0 ? service.call('GET', path) : call(child.url, service.account.live_key, 'GET', path),
        ),
      );
      assert.equal(hackerNewsFetches(), fetches + 1, 'the sources were asked once');
      const sets = responses.map((r) => trendsOf(r));
      for (const set of sets) assert.deepEqual(set, sets[0]);
      assert.ok(sets[0]!.length > 0);
      const prices = responses.map((r) => r.body.meta.credits_used as number).sort((a, b) => a - b);
      assert.deepEqual(prices, [5, 5, 5, 5, 5, 5, 5, 10], 'one request fetched; the others waited for it');
      assert.equal(new Set(responses.map((r) => r.body.meta.fetched_at)).size, 1);
    } finally {
      replay.reset();
    }
  });

  void test('a fetch whose process died holds its key only until its lease runs out', async () => {
    // What a process that took the lease for DE and then died leaves behind.
    await service.runtime.database.pool.query(
      `INSERT INTO trend_cache (geo, category, refresh_token, refresh_lease_until)
       VALUES ('DE', '', 'token-of-a-dead-process', now() + interval '1500 milliseconds')`,
    );
    const started = Date.now();
    const response = await child.call('GET', '/api/v1/trends/radar?geo=DE&min_virality=0');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.meta.cached, false);
    assert.ok(Date.now() - started >= 1000, 'it waited for the lease');
  });

  void test('a snapshot fetched by one process is the cached answer of the other', async () => {
    const path = '/api/v1/trends/radar?category=entertainment&min_virality=0';
    const fromChild = await child.call('GET', path);
    assert.equal(fromChild.body.meta.cached, false, fromChild.text);
    const fetches = replay.requests.length;
    const fromParent = await service.call('GET', path);
    assert.equal(fromParent.body.meta.cached, true);
    assert.equal(fromParent.body.meta.credits_used, 5);
    assert.deepEqual(trendsOf(fromParent), trendsOf(fromChild));
    assert.equal(replay.requests.length, fetches);
  });
});
