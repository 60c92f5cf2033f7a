import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../platform/config.ts';
import { DEFAULT_FEEDS } from './default-feeds.ts';
import { feedsFor, parseFeedList } from './feed-list.ts';

const dir = mkdtempSync(join(tmpdir(), 'reelsmith-feeds-'));
after(() => rmSync(dir, { recursive: true, force: true }));

void describe('TRENDS_FEEDS', () => {
  void test('an inline JSON list: entries checked, geo upper-cased, unset tags left out', () => {
    const feeds = parseFeedList(
      '[{"url":"https://example.com/rss","category":"tech","geo":"us","name":"Example"},{"url":"file:///srv/feeds/local.xml"}]',
    );
    assert.deepEqual(feeds, [
      { url: 'https://example.com/rss', category: 'tech', geo: 'US', name: 'Example' },
      { url: 'file:///srv/feeds/local.xml' },
    ]);
  });

  void test('a path to a JSON file holding the list', () => {
    const path = join(dir, 'feeds.json');
    writeFileSync(
      path,
      JSON.stringify([{ url: 'https://example.com/sports.xml', category: 'sports', geo: 'GB' }]),
    );
    assert.deepEqual(parseFeedList(path), [
      { url: 'https://example.com/sports.xml', category: 'sports', geo: 'GB' },
    ]);
  });

  void test('problems are named with the entry', () => {
    assert.throws(
      () => parseFeedList('[{"url":"ftp://example.com/rss"}]'),
      /entry 0\.url: must be an absolute https:\/\/ or file:\/\/ URL/,
    );
    assert.throws(
      () => parseFeedList('[{"url":"https://a.example/rss","category":"gossip"}]'),
      /entry 0\.category/,
    );
    assert.throws(
      () => parseFeedList('[{"url":"https://a.example/rss","geo":"USA"}]'),
      /entry 0\.geo: must be an ISO 3166-1 alpha-2/,
    );
    assert.throws(() => parseFeedList('[{"url":"https://a.example/rss","lang":"en"}]'), /entry 0/);
    assert.throws(() => parseFeedList('[{"url":'), /TRENDS_FEEDS: not valid JSON/);
    assert.throws(() => parseFeedList(join(dir, 'missing.json')), /TRENDS_FEEDS: cannot read/);
  });

  void test('loadConfig reads it at start-up and refuses a bad one', () => {
    const config = loadConfig({ TRENDS_FEEDS: '[{"url":"https://example.com/rss","geo":"DE"}]' });
    assert.deepEqual(config.trends.feeds, [{ url: 'https://example.com/rss', geo: 'DE' }]);
    assert.equal(loadConfig({}).trends.feeds, undefined);
    assert.throws(
      () => loadConfig({ TRENDS_FEEDS: '[{"url":"nope"}]' }),
      /Invalid configuration: TRENDS_FEEDS: entry 0\.url/,
    );
  });

  void test('loadConfig: base URLs, Reddit only with both credentials, YouTube with its key', () => {
    const config = loadConfig({
      TRENDS_HN_BASE_URL: 'https://hn.mirror.example/v0',
      TRENDS_GDELT_BASE_URL: '',
      REDDIT_CLIENT_ID: 'id',
      REDDIT_CLIENT_SECRET: 'secret',
      YOUTUBE_API_KEY: 'key',
    });
    assert.deepEqual(config.trends.baseUrls, { hackerNews: 'https://hn.mirror.example/v0' });
    assert.deepEqual(config.trends.reddit, { clientId: 'id', clientSecret: 'secret' });
    assert.equal(config.trends.youtubeApiKey, 'key');
    assert.deepEqual(loadConfig({}).trends, {
      feeds: undefined,
      baseUrls: {},
      reddit: undefined,
      youtubeApiKey: undefined,
    });
    assert.throws(() => loadConfig({ REDDIT_CLIENT_ID: 'id' }), /must be set together/);
    assert.throws(() => loadConfig({ TRENDS_YOUTUBE_BASE_URL: 'not a url' }), /TRENDS_YOUTUBE_BASE_URL/);
  });
});

void describe('feed selection', () => {
  const feeds = [
    { url: 'https://a.example/us', geo: 'US' },
    { url: 'https://a.example/us-tech', geo: 'US', category: 'tech' as const },
    { url: 'https://a.example/gb', geo: 'GB' },
    { url: 'https://a.example/world' },
    { url: 'https://a.example/world-science', category: 'science' as const },
  ];

  void test("a query reads its country's feeds and the international ones, general or of its category", () => {
    const urls = (geo: string, category?: 'tech' | 'science' | 'sports') =>
      feedsFor(feeds, geo, category).map((feed) => feed.url.slice('https://a.example/'.length));
    assert.deepEqual(urls('US'), ['us', 'us-tech', 'world', 'world-science']);
    assert.deepEqual(urls('US', 'tech'), ['us', 'us-tech', 'world']);
    assert.deepEqual(urls('GB', 'science'), ['gb', 'world', 'world-science']);
    assert.deepEqual(urls('JP', 'sports'), ['world']);
  });

  void test('the default list is valid TRENDS_FEEDS, https only, with no duplicates', () => {
    assert.deepEqual(parseFeedList(JSON.stringify(DEFAULT_FEEDS)), DEFAULT_FEEDS);
    assert.ok(DEFAULT_FEEDS.every((feed) => feed.url.startsWith('https://')));
    assert.equal(new Set(DEFAULT_FEEDS.map((feed) => feed.url)).size, DEFAULT_FEEDS.length);
    assert.ok(DEFAULT_FEEDS.some((feed) => feed.url === 'https://trends.google.com/trending/rss?geo=US'));
    // Every country with a Google Trends feed also has news to cluster it with.
    for (const trends of DEFAULT_FEEDS.filter((feed) => feed.url.includes('trends.google.com'))) {
      const news = feedsFor(DEFAULT_FEEDS, trends.geo ?? '').filter(
        (feed) => !feed.url.includes('trends.google.com'),
      );
      assert.ok(news.length >= 3, `${trends.geo}: ${news.length} news feeds`);
    }
  });
});
