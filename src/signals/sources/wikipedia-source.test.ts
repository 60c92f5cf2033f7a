import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { SignalSourcesServer } from '../../../test/support/signal-sources-server.ts';
import { SourceError } from './source-error.ts';
import { WikipediaSource } from './wikipedia-source.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => NOW });
const guard = new UrlGuard({ allowLoopback: true });
const source = new WikipediaSource(guard, { baseUrl: server.baseUrls.wikimedia, clock: () => NOW });
const query = { geo: 'US', windowHours: 24 };

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => server.reset());

void describe("Wikimedia's most-viewed per country against its replay", () => {
  void test("yesterday's list: articles only, with views, rank and their page", async () => {
    const items = await source.fetch(query, new AbortController().signal);
    assert.deepEqual(
      server.requestsFor('wikipedia').map((r) => r.path),
      ['/wikimedia/api/rest_v1/metrics/pageviews/top-per-country/US/all-access/2026/03/09'],
    );
    assert.deepEqual(
      items.map((item) => [item.rank, item.title, item.url, item.traffic?.value]),
      [
        [3, 'Solara Motors', 'https://en.wikipedia.org/wiki/Solara_Motors', 310_000],
        [4, 'Harbor Lights Festival', 'https://en.wikipedia.org/wiki/Harbor_Lights_Festival', 142_000],
        [5, 'Dario Vento', 'https://en.wikipedia.org/wiki/Dario_Vento', 118_000],
        [
          6,
          'Star Wars: Episode IV – A New Hope',
          'https://en.wikipedia.org/wiki/Star_Wars:_Episode_IV_%E2%80%93_A_New_Hope',
          64_000,
        ],
        [9, 'Lumen Labs', 'https://en.wikipedia.org/wiki/Lumen_Labs', 39_000],
        [11, 'Cleopatra', 'https://es.wikipedia.org/wiki/Cleopatra', 21_000],
      ],
    );
    assert.deepEqual(items[0], {
      source: 'wikipedia',
      kind: 'encyclopedia',
      title: 'Solara Motors',
      url: 'https://en.wikipedia.org/wiki/Solara_Motors',
      domain: 'en.wikipedia.org',
      links: [],
      geo: 'US',
      rank: 3,
      traffic: { text: '310,000 views on 2026-03-09', value: 310_000 },
    });
  });

  void test('falls back to the day before when yesterday is not published yet', async () => {
    server.wikimediaLatestDay = new Date('2026-03-08T00:00:00Z');
    const items = await source.fetch(query, new AbortController().signal);
    assert.deepEqual(
      server.requestsFor('wikipedia').map((r) => r.path.slice(-10)),
      ['2026/03/09', '2026/03/08'],
    );
    assert.equal(items[0]?.traffic?.text, '310,000 views on 2026-03-08');
  });

  void test('nothing published for two days, or no list for the country: no_data', async () => {
    server.wikimediaLatestDay = new Date('2026-03-01T00:00:00Z');
    await assert.rejects(source.fetch(query, new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.reason, 'no_data');
      return true;
    });
    server.reset();
    await assert.rejects(
      source.fetch({ geo: 'FR', windowHours: 24 }, new AbortController().signal),
      /no most-viewed list for FR/,
    );
  });

  void test('no category to offer: covers only queries without one', () => {
    assert.equal(source.covers(query), true);
    assert.equal(source.covers({ ...query, category: 'tech' }), false);
  });

  void test('down is a SourceError naming Wikipedia', async () => {
    server.set('wikipedia', 'down');
    await assert.rejects(
      source.fetch(query, new AbortController().signal),
      /Wikipedia: 127\.0\.0\.1:\d+ answered HTTP 503/,
    );
  });
});
