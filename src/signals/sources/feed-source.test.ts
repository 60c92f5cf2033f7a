import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { SignalSourcesServer, SIGNAL_FIXTURES_DIR } from '../../../test/support/signal-sources-server.ts';
import type { FeedSpec } from './feed-list.ts';
import { FEED_MAX_BYTES, FeedSource } from './feed-source.ts';
import { SourceError } from './source-error.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => NOW, slowMs: 3_000 });
const guard = new UrlGuard({ allowLoopback: true });
const dir = mkdtempSync(join(tmpdir(), 'reelsmith-feed-files-'));
const signal = () => new AbortController().signal;

after(async () => {
  await guard.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

async function read(feeds: FeedSpec[], geo = 'US', category?: 'tech' | 'sports', timeoutMs?: number) {
  const warnings: string[] = [];
  const items = await new FeedSource(feeds, guard, { timeoutMs }).fetch(
    { geo, windowHours: 24, ...(category ? { category } : {}) },
    signal(),
    (warning) => warnings.push(warning),
  );
  return { items, warnings };
}

void describe('feeds over HTTP', () => {
  void test("reads the query's feeds and tags their items", async () => {
    const { items, warnings } = await read(server.feeds(), 'US', 'tech');
    assert.deepEqual(warnings, []);
    // US general and tech feeds plus the international one; not sports, entertainment.
    assert.deepEqual(
      server
        .requestsFor('feed')
        .map((r) => r.path)
        .sort(),
      [
        '/feeds/aggregator-digest.xml',
        '/feeds/bbc-world.xml',
        '/feeds/google-news-technology-us.xml',
        '/feeds/google-trends-us.xml',
        '/feeds/verge-atom.xml',
      ],
    );
    assert.equal(items.filter((item) => item.kind === 'search').length, 5);
    assert.ok(items.some((item) => item.domain === 'reuters.com' && item.category === 'tech'));
    const request = server.requestsFor('feed')[0];
    assert.match(String(request?.headers['user-agent']), /reelsmith-trend-radar/);
  });

  void test('a country with no feed of its own reads only the international ones', async () => {
    await read(server.feeds(), 'JP');
    assert.deepEqual(
      server.requestsFor('feed').map((r) => r.path),
      ['/feeds/bbc-world.xml'],
    );
    assert.equal(
      new FeedSource([{ url: server.feedUrl('espn-sports.xml'), geo: 'US' }], guard).covers({
        geo: 'JP',
        windowHours: 24,
      }),
      false,
    );
  });

  void test('hostile feeds are skipped, each with a warning, and the good ones still answer', async () => {
    const hostile: FeedSpec[] = [
      { url: server.hostileFeedUrl('billion-laughs'), name: 'laughs' },
      { url: server.hostileFeedUrl('external-entity'), name: 'entity' },
      { url: server.hostileFeedUrl('huge'), name: 'huge' },
      { url: server.hostileFeedUrl('malformed'), name: 'broken' },
    ];
    const heapBefore = process.memoryUsage().heapUsed;
    const { items, warnings } = await read([...hostile, { url: server.feedUrl('bbc-world.xml') }]);
    const [broken, ...others] = warnings.sort();
    assert.match(String(broken), /^feed "broken" skipped: malformed XML at line \d+: /);
    assert.deepEqual(others, [
      'feed "entity" skipped: the document declares a DOCTYPE (entity declarations are not read)',
      `feed "huge" skipped: response is larger than ${FEED_MAX_BYTES} bytes`,
      'feed "laughs" skipped: the document declares a DOCTYPE (entity declarations are not read)',
    ]);
    assert.deepEqual(
      items.map((item) => item.title),
      [
        'Solara recalls 410,000 electric cars over battery fire risk',
        'Eastbrook council approves new bike lanes despite shopkeepers’ objections',
        'Ports reopen after week-long strike & talks resume',
      ],
    );
    // The 20 MB feed was cut at the cap, not buffered whole.
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 15 * 1024 * 1024);
  });

  void test('dead, slow and broken feeds each fail alone', async () => {
    server.set('feed', 'down');
    const down = await read(
      [
        { url: server.feedUrl('bbc-world.xml'), name: 'BBC' },
        { url: `file://${join(SIGNAL_FIXTURES_DIR, 'feeds', 'espn-sports.xml')}` },
      ],
      'US',
      undefined,
      1_000,
    );
    assert.deepEqual(down.warnings, ['feed "BBC" skipped: answered HTTP 503']);
    assert.equal(down.items.length, 2);

    server.set('feed', 'slow');
    const slow = await read(
      [
        { url: server.feedUrl('bbc-world.xml'), name: 'BBC' },
        { url: `file://${join(SIGNAL_FIXTURES_DIR, 'feeds', 'espn-sports.xml')}` },
      ],
      'US',
      undefined,
      300,
    );
    assert.deepEqual(slow.warnings, ['feed "BBC" skipped: request timed out after 300 ms']);
    assert.equal(slow.items.length, 2);
  });

  void test('when every feed fails the source fails, naming the first reason', async () => {
    server.set('feed', 'down');
    await assert.rejects(read([{ url: server.feedUrl('bbc-world.xml'), name: 'BBC' }]), (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.source, 'feed');
      assert.equal(err.message, 'Feeds: every feed failed (1); first: feed "BBC" skipped: answered HTTP 503');
      return true;
    });
  });
});

void describe('file:// feeds (air-gapped installs)', () => {
  void test('read from disk under the byte cap; missing, oversized and non-files are skipped', async () => {
    const local = join(dir, 'verge.xml');
    copyFileSync(join(SIGNAL_FIXTURES_DIR, 'feeds', 'verge-atom.xml'), local);
    const big = join(dir, 'big.xml');
    writeFileSync(big, Buffer.alloc(FEED_MAX_BYTES + 10, 0x20));
    const folder = join(dir, 'folder.xml');
    mkdirSync(folder);
    const { items, warnings } = await read([
      { url: pathToFileURL(local).href, geo: 'US', category: 'tech' },
      { url: pathToFileURL(big).href, name: 'big' },
      { url: pathToFileURL(folder).href, name: 'folder' },
      { url: pathToFileURL(join(dir, 'absent.xml')).href, name: 'absent' },
    ]);
    assert.deepEqual(warnings, [
      `feed "big" skipped: the file is larger than ${FEED_MAX_BYTES} bytes`,
      'feed "folder" skipped: not a regular file',
      'feed "absent" skipped: cannot read the file (ENOENT)',
    ]);
    assert.deepEqual(
      items.map((item) => [item.title, item.domain, item.category]),
      [
        ['Solara’s Vela recall: what owners need to know', 'theverge.com', 'tech'],
        ['Lumen Labs open-sources Atlas 2, its largest language model yet', 'theverge.com', 'tech'],
      ],
    );
    assert.equal(server.requests.length, 0, 'nothing went over the network');
  });
});
