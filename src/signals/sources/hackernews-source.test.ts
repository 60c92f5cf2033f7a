import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { SignalSourcesServer } from '../../../test/support/signal-sources-server.ts';
import { HackerNewsSource } from './hackernews-source.ts';
import { SourceError } from './source-error.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => NOW });
const guard = new UrlGuard({ allowLoopback: true });
const source = new HackerNewsSource(guard, { baseUrl: server.baseUrls.hackerNews });
const query = { geo: 'US', windowHours: 24 };

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => server.reset());

void describe('Hacker News against its replayed Firebase API', () => {
  void test('top stories in rank order, with points, comments, the discussion and the linked article', async () => {
    const items = await source.fetch(query, new AbortController().signal);
    assert.deepEqual(
      items.map((item) => [item.rank, item.title, item.engagement, item.publishedAt]),
      [
        [1, 'Lumen Labs open-sources Atlas 2', { points: 980, comments: 412 }, '2026-03-10T09:00:00.000Z'],
        [
          2,
          'Solara recalls 410k EVs after battery pack fires',
          { points: 612, comments: 340 },
          '2026-03-10T10:00:00.000Z',
        ],
        [
          3,
          'Show HN: A terminal that renders Markdown tables',
          { points: 150, comments: 45 },
          '2026-03-10T07:00:00.000Z',
        ],
        [
          4,
          'Ask HN: How do you keep on-call sane?',
          { points: 210, comments: 180 },
          '2026-03-10T05:00:00.000Z',
        ],
      ],
    );
    assert.deepEqual(items[1], {
      source: 'hackernews',
      kind: 'social',
      title: 'Solara recalls 410k EVs after battery pack fires',
      url: 'https://news.ycombinator.com/item?id=47100002',
      domain: 'news.ycombinator.com',
      links: [
        {
          title: 'Solara recalls 410k EVs after battery pack fires',
          url: 'https://www.reuters.com/business/autos-transportation/solara-motors-recalls-410000-vela-suvs-battery-fire-risk-2026-03-10/',
          domain: 'reuters.com',
        },
      ],
      category: 'tech',
      rank: 2,
      engagement: { points: 612, comments: 340 },
      publishedAt: '2026-03-10T10:00:00.000Z',
    });
    // An Ask HN has no article to link.
    assert.deepEqual(items[3]?.links, []);
    // The job, the deleted, the dead and the vanished (null) ids were read and left out.
    const paths = server.requestsFor('hackernews').map((r) => r.path);
    assert.equal(paths[0], '/hn/v0/topstories.json');
    assert.equal(paths.filter((p) => p.startsWith('/hn/v0/item/')).length, 8);
  });

  void test('speaks for every country, for tech or no category only', () => {
    assert.equal(source.covers({ geo: 'JP', windowHours: 24 }), true);
    assert.equal(source.covers({ geo: 'US', category: 'tech', windowHours: 24 }), true);
    assert.equal(source.covers({ geo: 'US', category: 'sports', windowHours: 24 }), false);
  });

  void test('down, broken or oversized: a SourceError naming Hacker News', async () => {
    const cases: [Parameters<typeof server.set>[1], SourceError['reason'], RegExp][] = [
      ['down', 'http_status', /^Hacker News: 127\.0\.0\.1:\d+ answered HTTP 503$/],
      ['quota', 'rate_limited', /answered HTTP 429/],
      ['malformed', 'bad_response', /answered something other than JSON/],
      ['hostile', 'too_large', /larger than \d+ bytes/],
    ];
    for (const [mode, reason, message] of cases) {
      server.set('hackernews', mode);
      await assert.rejects(source.fetch(query, new AbortController().signal), (err: unknown) => {
        assert.ok(err instanceof SourceError, String(err));
        assert.equal(err.source, 'hackernews');
        assert.equal(err.reason, reason, mode);
        assert.match(err.message, message);
        return true;
      });
    }
  });
});
