import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  REPLAY_REDDIT_CREDENTIALS,
  SignalSourcesServer,
} from '../../../test/support/signal-sources-server.ts';
import { RedditSource } from './reddit-source.ts';
import { SourceError } from './source-error.ts';

let now = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => now, redditTokenSeconds: 3600 });
const guard = new UrlGuard({ allowLoopback: true });
const newSource = (credentials = REPLAY_REDDIT_CREDENTIALS) =>
  new RedditSource(guard, credentials, { baseUrl: server.baseUrls.reddit, clock: () => now });
const signal = () => new AbortController().signal;

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => {
  server.reset();
  now = new Date('2026-03-10T12:00:00Z');
});

void describe('Reddit against its replayed OAuth API', () => {
  void test('asks for an app token with Basic auth and client_credentials, then reads with the bearer token', async () => {
    await newSource().fetch({ geo: 'US', windowHours: 24 }, signal());
    const [token, listing] = server.requestsFor('reddit');
    assert.equal(token?.method, 'POST');
    assert.equal(token?.path, '/reddit/api/v1/access_token');
    const basic = Buffer.from(
      String(token?.headers.authorization).replace(/^Basic /, ''),
      'base64',
    ).toString();
    assert.equal(basic, 'replay-client-id:replay-client-secret');
    assert.equal(token?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(token?.body)), {
      grant_type: 'client_credentials',
    });
    assert.match(String(token?.headers['user-agent']), /^server:reelsmith-trend-radar:\d/);

    assert.equal(listing?.method, 'GET');
    assert.equal(listing?.path, '/reddit/r/popular/hot?limit=50&raw_json=1&g=US');
    assert.equal(listing?.headers.authorization, 'bearer replay-token-1');
    assert.match(String(listing?.headers['user-agent']), /reelsmith-trend-radar/);
  });

  void test('maps posts: score, comments, permalink, linked article; skips pinned and adult posts', async () => {
    const items = await newSource().fetch({ geo: 'US', windowHours: 24 }, signal());
    assert.deepEqual(
      items.map((item) => [item.rank, item.title, item.engagement, item.links.map((l) => l.domain)]),
      [
        [
          1,
          'Solara Motors recalls 410,000 Vela SUVs over battery fire risk',
          { points: 25400, comments: 3100 },
          ['apnews.com'],
        ],
        [
          2,
          "Harbor Lights just announced the 2026 lineup & it's stacked",
          { points: 8900, comments: 1200 },
          ['variety.com'],
        ],
        [
          3,
          "What's a skill you learned in your 30s that changed your life?",
          { points: 15200, comments: 9800 },
          [],
        ],
        [4, "My grandmother's 100th birthday cake", { points: 11000, comments: 400 }, []],
      ],
    );
    assert.deepEqual(items[0], {
      source: 'reddit',
      kind: 'social',
      title: 'Solara Motors recalls 410,000 Vela SUVs over battery fire risk',
      url: 'https://www.reddit.com/r/news/comments/1j8abc1/solara_motors_recalls_410000_vela_suvs_over/',
      domain: 'reddit.com',
      links: [
        {
          title: 'Solara Motors recalls 410,000 Vela SUVs over battery fire risk',
          url: 'https://apnews.com/article/solara-vela-recall-battery-fires-3f2a9c81d0',
          domain: 'apnews.com',
        },
      ],
      rank: 1,
      engagement: { points: 25400, comments: 3100 },
      publishedAt: '2026-03-10T09:00:00.000Z',
      geo: 'US',
    });
  });

  void test('a category reads its subreddit; a country Reddit cannot filter reads the global list', async () => {
    const source = newSource();
    const tech = await source.fetch({ geo: 'US', category: 'tech', windowHours: 24 }, signal());
    assert.deepEqual(
      tech.map((item) => [item.title, item.category, item.geo]),
      [
        ['Lumen Labs open-sources Atlas 2, its largest language model yet', 'tech', undefined],
        ['Solara recall: what Vela owners need to know', 'tech', undefined],
      ],
    );
    const kenya = await source.fetch({ geo: 'KE', windowHours: 24 }, signal());
    assert.ok(kenya.every((item) => item.geo === undefined));
    assert.deepEqual(
      server.requestsFor('reddit').map((r) => r.path),
      [
        '/reddit/api/v1/access_token',
        '/reddit/r/technology/hot?limit=50&raw_json=1',
        '/reddit/r/popular/hot?limit=50&raw_json=1',
      ],
    );
  });

  void test('the token is kept until a minute before it expires, then renewed', async () => {
    const source = newSource();
    await source.fetch({ geo: 'US', windowHours: 24 }, signal());
    now = new Date(now.getTime() + 58 * 60_000);
    await source.fetch({ geo: 'US', windowHours: 24 }, signal());
    now = new Date(now.getTime() + 90_000);
    await source.fetch({ geo: 'US', windowHours: 24 }, signal());
    const tokenRequests = server
      .requestsFor('reddit')
      .filter((r) => r.path === '/reddit/api/v1/access_token');
    assert.equal(tokenRequests.length, 2);
    assert.equal(server.requestsFor('reddit').at(-1)?.headers.authorization, 'bearer replay-token-2');
  });

  void test('concurrent reads share one token request', async () => {
    const source = newSource();
    await Promise.all([
      source.fetch({ geo: 'US', windowHours: 24 }, signal()),
      source.fetch({ geo: 'GB', windowHours: 24 }, signal()),
      source.fetch({ geo: 'US', category: 'tech', windowHours: 24 }, signal()),
    ]);
    assert.equal(server.requestsFor('reddit').filter((r) => r.path.endsWith('/access_token')).length, 1);
  });

  void test('a token revoked early is renewed once', async () => {
    const source = newSource();
    await source.fetch({ geo: 'US', windowHours: 24 }, signal());
    server.revokeRedditTokens();
    const items = await source.fetch({ geo: 'US', windowHours: 24 }, signal());
    assert.equal(items.length, 4);
    assert.deepEqual(
      server.requestsFor('reddit').map((r) => [r.path.split('?')[0], r.headers.authorization?.slice(0, 6)]),
      [
        ['/reddit/api/v1/access_token', 'Basic '],
        ['/reddit/r/popular/hot', 'bearer'],
        ['/reddit/r/popular/hot', 'bearer'],
        ['/reddit/api/v1/access_token', 'Basic '],
        ['/reddit/r/popular/hot', 'bearer'],
      ],
    );
  });

  void test('wrong credentials: unauthorized, naming the settings; down: a SourceError', async () => {
    const wrong = newSource({ clientId: 'replay-client-id', clientSecret: 'wrong' });
    await assert.rejects(wrong.fetch({ geo: 'US', windowHours: 24 }, signal()), (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.reason, 'unauthorized');
      assert.match(err.message, /REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET/);
      assert.doesNotMatch(err.message, /wrong/);
      return true;
    });
    server.set('reddit', 'down');
    await assert.rejects(newSource().fetch({ geo: 'US', windowHours: 24 }, signal()), /Reddit: .*HTTP 503/);
  });
});
