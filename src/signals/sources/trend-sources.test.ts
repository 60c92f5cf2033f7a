import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { SignalSourcesServer, type SourceMode } from '../../../test/support/signal-sources-server.ts';
import type { SourceName, TrendSource } from './source-item.ts';
import { createTrendSources, gatherItems } from './trend-sources.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => NOW, slowMs: 3_000 });
const guard = new UrlGuard({ allowLoopback: true });
const ALL: SourceName[] = ['feed', 'hackernews', 'gdelt', 'wikipedia', 'reddit', 'youtube'];
const US = { geo: 'US', windowHours: 24 };
const signal = () => new AbortController().signal;
/** Fresh sources (no Reddit token, no YouTube cache) pointed at the replay. */
const sources = () =>
  createTrendSources({ trends: server.trendSettings() }, guard, { clock: () => NOW, timeoutMs: 2_000 });

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => server.reset());

function bySource(items: { source: SourceName }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.source] = (counts[item.source] ?? 0) + 1;
  return counts;
}

void describe('createTrendSources', () => {
  void test('keyless sources always; Reddit with credentials; YouTube with a key; feeds unless the list is empty', () => {
    const settings = server.trendSettings();
    assert.deepEqual(
      sources().map((s) => s.name),
      ALL,
    );
    const keyless = createTrendSources(
      { trends: { ...settings, reddit: undefined, youtubeApiKey: undefined } },
      guard,
    );
    assert.deepEqual(
      keyless.map((s) => s.name),
      ['feed', 'hackernews', 'gdelt', 'wikipedia'],
    );
    const noFeeds = createTrendSources({ trends: { ...settings, feeds: [] } }, guard);
    assert.equal(
      noFeeds.some((s) => s.name === 'feed'),
      false,
    );
    // Unset TRENDS_FEEDS: the default list, which has US feeds for every category.
    const defaults = createTrendSources({ trends: { ...settings, feeds: undefined } }, guard);
    const feed = defaults.find((s) => s.name === 'feed');
    assert.ok(feed?.covers({ geo: 'US', category: 'health', windowHours: 24 }));
  });
});

void describe('gatherItems against every replayed source', () => {
  void test('all up: every source that covers the query answers', async () => {
    const result = await gatherItems(sources(), US, signal());
    assert.deepEqual(result.consulted, ALL);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(bySource(result.items), {
      feed: 21,
      hackernews: 4,
      gdelt: 11,
      wikipedia: 6,
      reddit: 4,
      youtube: 4,
    });
  });

  void test('a category query consults only the sources that speak for it', async () => {
    const result = await gatherItems(sources(), { ...US, category: 'sports' }, signal());
    assert.deepEqual(result.consulted, ['feed', 'gdelt', 'reddit', 'youtube']);
  });

  for (const down of ALL) {
    void test(`${down} down: only ${down} fails, named in a warning`, async () => {
      server.set(down, 'down');
      const result = await gatherItems(sources(), US, signal());
      assert.deepEqual(result.failed, [down]);
      assert.equal(
        result.warnings.length,
        down === 'feed' ? 1 + server.feeds().filter((f) => !f.geo || f.geo === 'US').length : 1,
      );
      assert.match(String(result.warnings.at(-1)), /HTTP 503|every feed failed/);
      const counts = bySource(result.items);
      assert.equal(counts[down], undefined);
      for (const other of ALL.filter((name) => name !== down))
        assert.ok(counts[other], `${other} still answered`);
    });
  }

  for (const mode of ['down', 'malformed', 'hostile', 'quota'] satisfies SourceMode[]) {
    void test(`every source ${mode}: every one failed, each named, nothing gathered`, async () => {
      server.setAll(mode);
      const result = await gatherItems(sources(), US, signal());
      assert.deepEqual(result.failed, ALL);
      assert.deepEqual(result.items, []);
      for (const label of ['Feeds', 'Hacker News', 'GDELT', 'Wikipedia', 'Reddit', 'YouTube'])
        assert.ok(
          result.warnings.some((w) => w.startsWith(`${label}: `)),
          `${label} in ${result.warnings.join(' | ')}`,
        );
    });
  }

  void test('a slow source counts as failed at the deadline; the others are kept', async () => {
    server.set('gdelt', 'slow');
    const result = await gatherItems(sources(), US, signal(), { timeoutMs: 1_000 });
    assert.deepEqual(result.failed, ['gdelt']);
    assert.deepEqual(result.warnings, ['GDELT: no answer within 1000 ms']);
    assert.equal(bySource(result.items).hackernews, 4);
  });

  void test('a source that ignores its abort signal still loses to the deadline', async () => {
    const stuck: TrendSource = { name: 'youtube', covers: () => true, fetch: () => new Promise(() => {}) };
    const quick: TrendSource = {
      name: 'hackernews',
      covers: () => true,
      fetch: async () => [{ source: 'hackernews', kind: 'social', title: 'ok', links: [] }],
    };
    const started = Date.now();
    const result = await gatherItems([stuck, quick], US, signal(), { timeoutMs: 200 });
    assert.ok(Date.now() - started < 2_000);
    assert.deepEqual(result.failed, ['youtube']);
    assert.deepEqual(result.warnings, ['YouTube: no answer within 200 ms']);
    assert.deepEqual(
      result.items.map((item) => item.title),
      ['ok'],
    );
  });

  void test("the caller's abort cancels every source", async () => {
    server.setAll('slow');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await gatherItems(sources(), US, controller.signal, { timeoutMs: 5_000 });
    assert.deepEqual(result.failed, ALL);
    assert.ok(
      result.warnings.every((w) => w.endsWith(': cancelled')),
      result.warnings.join(' | '),
    );
  });

  void test('one hostile feed among good ones: a warning, and the source still answers', async () => {
    const settings = server.trendSettings();
    const feeds = [
      ...(settings.feeds ?? []),
      { url: server.hostileFeedUrl('billion-laughs'), name: 'laughs' },
    ];
    const result = await gatherItems(
      createTrendSources({ trends: { ...settings, feeds } }, guard, { clock: () => NOW }),
      US,
      signal(),
    );
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.warnings, [
      'feed "laughs" skipped: the document declares a DOCTYPE (entity declarations are not read)',
    ]);
    assert.equal(bySource(result.items).feed, 21);
  });
});
