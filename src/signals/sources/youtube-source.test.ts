import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { REPLAY_YOUTUBE_KEY, SignalSourcesServer } from '../../../test/support/signal-sources-server.ts';
import { SourceError } from './source-error.ts';
import { nextPacificMidnight, YOUTUBE_CACHE_MS, YouTubeSource } from './youtube-source.ts';

let now = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => now });
const guard = new UrlGuard({ allowLoopback: true });
const newSource = (key = REPLAY_YOUTUBE_KEY) =>
  new YouTubeSource(guard, key, { baseUrl: server.baseUrls.youtube, clock: () => now });
const signal = () => new AbortController().signal;
const query = { geo: 'US', windowHours: 24 };

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => {
  server.reset();
  now = new Date('2026-03-10T12:00:00Z');
});

void describe('YouTube most-popular chart against its replayed Data API', () => {
  void test('asks for the region chart with snippet and statistics, and maps views, likes, comments', async () => {
    const items = await newSource().fetch(query, signal());
    const [request] = server.requestsFor('youtube');
    const url = new URL(String(request?.path), server.origin);
    assert.equal(url.pathname, '/youtube/v3/videos');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      part: 'snippet,statistics',
      chart: 'mostPopular',
      regionCode: 'US',
      maxResults: '50',
      key: REPLAY_YOUTUBE_KEY,
    });
    assert.deepEqual(items[0], {
      source: 'youtube',
      kind: 'video',
      title: 'Solara Vela Recall Explained: Is Your SUV Affected?',
      url: 'https://www.youtube.com/watch?v=vSolaraRc01',
      domain: 'youtube.com',
      links: [],
      geo: 'US',
      rank: 1,
      traffic: { text: '1,204,331 views', value: 1_204_331 },
      engagement: { points: 48_210, comments: 6_120 },
      publishedAt: '2026-03-10T08:00:00.000Z',
      summary: 'Video by Volt Garage',
    });
    assert.deepEqual(
      items.map((item) => [item.rank, item.category, item.engagement?.comments]),
      [
        [1, undefined, 6120],
        [2, 'entertainment', 3900],
        [3, 'sports', 2750],
        [4, 'tech', 0],
      ],
    );
  });

  void test('a category asks for its YouTube category; categories YouTube has none for are not covered', async () => {
    const source = newSource();
    const items = await source.fetch({ ...query, category: 'science' }, signal());
    assert.equal(
      new URL(String(server.requestsFor('youtube')[0]?.path), server.origin).searchParams.get(
        'videoCategoryId',
      ),
      '28',
    );
    assert.ok(items.every((item) => item.category === 'science'));
    assert.equal(source.covers({ ...query, category: 'health' }), false);
    assert.equal(source.covers({ ...query, category: 'sports' }), true);
  });

  void test('each (country, category) answer is reused for 30 minutes', async () => {
    const source = newSource();
    await source.fetch(query, signal());
    await source.fetch(query, signal());
    await source.fetch({ ...query, geo: 'GB' }, signal());
    assert.equal(server.requestsFor('youtube').length, 2);
    now = new Date(now.getTime() + YOUTUBE_CACHE_MS + 1);
    await source.fetch(query, signal());
    assert.equal(server.requestsFor('youtube').length, 3);
  });

  void test('quotaExceeded stops every call until midnight Pacific time', async () => {
    const source = newSource();
    server.set('youtube', 'quota');
    const quotaError = (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.reason, 'quota_exceeded');
      assert.match(err.message, /until it resets at 2026-03-11T07:00:00\.000Z/);
      return true;
    };
    await assert.rejects(source.fetch(query, signal()), quotaError);
    server.set('youtube', 'ok');
    await assert.rejects(source.fetch({ ...query, geo: 'GB' }, signal()), quotaError);
    now = new Date('2026-03-11T06:59:00Z');
    await assert.rejects(source.fetch(query, signal()), quotaError);
    assert.equal(server.requestsFor('youtube').length, 1, 'no call while the quota is spent');
    now = new Date('2026-03-11T07:00:00Z');
    assert.equal((await source.fetch(query, signal())).length, 4);
    assert.equal(server.requestsFor('youtube').length, 2);
  });

  void test('a refused key is unauthorized and names the setting, without echoing the key', async () => {
    await assert.rejects(newSource('not-the-key').fetch(query, signal()), (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.reason, 'unauthorized');
      assert.match(err.message, /check YOUTUBE_API_KEY/);
      assert.doesNotMatch(err.message, /not-the-key/);
      return true;
    });
  });

  void test('Pacific midnight across daylight saving changes', () => {
    assert.equal(
      nextPacificMidnight(new Date('2026-03-10T12:00:00Z')).toISOString(),
      '2026-03-11T07:00:00.000Z',
    );
    assert.equal(
      nextPacificMidnight(new Date('2026-01-15T07:59:00Z')).toISOString(),
      '2026-01-15T08:00:00.000Z',
    );
    assert.equal(
      nextPacificMidnight(new Date('2026-01-15T08:00:00Z')).toISOString(),
      '2026-01-16T08:00:00.000Z',
    );
    assert.equal(
      nextPacificMidnight(new Date('2026-03-08T09:00:00Z')).toISOString(),
      '2026-03-09T07:00:00.000Z',
    );
  });
});
