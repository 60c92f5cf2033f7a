import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { SignalSourcesServer } from '../../../test/support/signal-sources-server.ts';
import { gdeltDate, GdeltSource } from './gdelt-source.ts';
import { SourceError } from './source-error.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const server = await SignalSourcesServer.start({ now: () => NOW });
const guard = new UrlGuard({ allowLoopback: true });
const source = new GdeltSource(guard, { baseUrl: server.baseUrls.gdelt });

after(async () => {
  await guard.close();
  await server.close();
});
beforeEach(() => server.reset());

void describe('GDELT DOC API against its replay', () => {
  void test('asks for the country by FIPS code, the window in hours, an article list in JSON', async () => {
    await source.fetch({ geo: 'GB', windowHours: 24 }, new AbortController().signal);
    await source.fetch({ geo: 'DE', category: 'tech', windowHours: 168 }, new AbortController().signal);
    const [uk, de] = server.requestsFor('gdelt').map((r) => new URL(r.path, server.origin));
    assert.equal(uk?.pathname, '/gdelt/api/v2/doc/doc');
    assert.deepEqual(Object.fromEntries(uk?.searchParams ?? []), {
      query: 'sourcecountry:UK',
      mode: 'ArtList',
      format: 'json',
      timespan: '24h',
      maxrecords: '75',
      sort: 'HybridRel',
    });
    assert.equal(
      de?.searchParams.get('query'),
      '(technology OR software OR smartphone OR cybersecurity OR "artificial intelligence") sourcecountry:GM',
    );
    assert.equal(de?.searchParams.get('timespan'), '168h');
  });

  void test('maps each article: title, link, publisher domain, seen time, rank; duplicates once', async () => {
    const items = await source.fetch({ geo: 'US', windowHours: 24 }, new AbortController().signal);
    assert.equal(items.length, 11, 'the repeated CBS article counts once');
    assert.deepEqual(items[0], {
      source: 'gdelt',
      kind: 'news',
      title: 'Solara Motors recalls 410 , 000 Vela SUVs over battery fire risk',
      url: 'https://www.reuters.com/business/autos-transportation/solara-motors-recalls-410000-vela-suvs-battery-fire-risk-2026-03-10/',
      links: [],
      geo: 'US',
      rank: 1,
      domain: 'reuters.com',
      publishedAt: '2026-03-10T10:00:00.000Z',
    });
    const solara = items.filter((item) => item.title.includes('Solara'));
    assert.deepEqual(
      solara.map((item) => item.domain),
      ['reuters.com', 'apnews.com', 'cnbc.com', 'nytimes.com', 'usatoday.com', 'cbsnews.com'],
    );
    assert.deepEqual(
      items.map((item) => item.rank),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
  });

  void test('a country GDELT holds nothing for answers {}; an unknown country is not covered', async () => {
    assert.deepEqual(await source.fetch({ geo: 'FR', windowHours: 24 }, new AbortController().signal), []);
    assert.equal(source.covers({ geo: 'US', windowHours: 24 }), true);
    assert.equal(source.covers({ geo: 'ZZ', windowHours: 24 }), false);
  });

  void test("GDELT's plain-text complaints and failures become SourceErrors", async () => {
    server.set('gdelt', 'down');
    await assert.rejects(
      source.fetch({ geo: 'US', windowHours: 24 }, new AbortController().signal),
      /GDELT: .* answered HTTP 503/,
    );
    server.set('gdelt', 'quota');
    await assert.rejects(
      source.fetch({ geo: 'US', windowHours: 24 }, new AbortController().signal),
      (err: unknown) => {
        assert.ok(err instanceof SourceError);
        assert.equal(err.reason, 'rate_limited');
        assert.equal(
          err.message,
          'GDELT: answered text instead of JSON: "Please limit requests to one every 5 seconds."',
        );
        return true;
      },
    );
    server.set('gdelt', 'malformed');
    await assert.rejects(
      source.fetch({ geo: 'US', windowHours: 24 }, new AbortController().signal),
      (err: unknown) => err instanceof SourceError && err.reason === 'bad_response',
    );
  });

  void test('seen dates', () => {
    assert.equal(gdeltDate('20260310T101500Z'), '2026-03-10T10:15:00.000Z');
    assert.equal(gdeltDate('2026-03-10'), undefined);
  });
});
