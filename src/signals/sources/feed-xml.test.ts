import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { renderFixture, SIGNAL_FIXTURES_DIR } from '../../../test/support/signal-sources-server.ts';
import { feedItems, parseTraffic } from './feed-items.ts';
import { decodeXmlEscapes, feedText } from './feed-text.ts';
import { declaresDoctype, FeedParseError, parseFeed, type ParsedFeed } from './feed-xml.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

/** A recorded feed as served: its time tokens filled for NOW, its bytes otherwise as stored. */
function fixture(name: string): Buffer {
  return Buffer.from(renderFixture(readFileSync(join(SIGNAL_FIXTURES_DIR, name), 'latin1'), NOW), 'latin1');
}

function refusal(run: () => unknown): FeedParseError {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof FeedParseError, `expected FeedParseError, got ${String(err)}`);
    return err;
  }
  assert.fail('the feed was accepted');
}

void describe('Google Trends trending-searches RSS', () => {
  const feed: ParsedFeed = parseFeed(
    fixture('feeds/google-trends-us.xml'),
    'application/rss+xml; charset=UTF-8',
  );
  const items = feedItems(feed, { url: 'https://trends.google.com/trending/rss?geo=US', geo: 'US' });

  void test('every trend is a ranked search item with its traffic and publication time', () => {
    assert.deepEqual(
      items.map((item) => [item.kind, item.rank, item.title, item.traffic, item.publishedAt]),
      [
        ['search', 1, 'solara recall', { text: '1M+', value: 1_000_000 }, '2026-03-10T10:00:00.000Z'],
        ['search', 2, 'atlas 2', { text: '200,000+', value: 200_000 }, '2026-03-10T09:00:00.000Z'],
        [
          'search',
          3,
          'harbor lights festival',
          { text: '100,000+', value: 100_000 },
          '2026-03-10T11:00:00.000Z',
        ],
        ['search', 4, 'dario vento', { text: '100,000+', value: 100_000 }, '2026-03-10T04:00:00.000Z'],
        ['search', 5, 'eastbrook weather', { text: '2,000+', value: 2_000 }, '2026-03-10T07:00:00.000Z'],
      ],
    );
    for (const item of items) {
      assert.equal(item.geo, 'US');
      assert.equal(item.domain, 'trends.google.com');
      assert.equal(item.category, undefined);
      // The item link only repeats the feed's address, so no item URL is claimed.
      assert.equal(item.url, undefined);
    }
  });

  void test('ht:news_item articles become links with their domains, XML escapes decoded', () => {
    assert.deepEqual(items[0]?.links, [
      {
        title: 'Solara Motors recalls 410,000 Vela SUVs over battery fire risk',
        url: 'https://www.reuters.com/business/autos-transportation/solara-motors-recalls-410000-vela-suvs-battery-fire-risk-2026-03-10/',
        domain: 'reuters.com',
      },
      {
        title: 'Solara recalls more than 400,000 electric SUVs after battery fires',
        url: 'https://apnews.com/article/solara-vela-recall-battery-fires-3f2a9c81d0',
        domain: 'apnews.com',
      },
      {
        title: 'Solara Vela recall: a Q&A for owners',
        url: 'https://www.theverge.com/2026/3/10/solara-vela-recall-owners-faq?utm_source=trends&utm_medium=rss',
        domain: 'theverge.com',
      },
    ]);
    assert.deepEqual(items[4]?.links, []);
  });

  void test('the namespace is found by its URI, whatever prefix binds it', () => {
    const renamed = fixture('feeds/google-trends-us.xml')
      .toString('utf8')
      .replaceAll('ht:', 'gt:')
      .replace('xmlns:ht=', 'xmlns:gt=');
    const [first] = parseFeed(Buffer.from(renamed)).entries;
    assert.equal(first?.approxTraffic, '1M+');
    assert.equal(first?.newsItems.length, 3);
  });
});

void describe('news feeds', () => {
  void test('Google News: the publisher comes from <source url>, its name is cut from the title', () => {
    const feed = parseFeed(fixture('feeds/google-news-technology-us.xml'));
    const items = feedItems(feed, {
      url: 'https://news.google.com/rss/headlines/section/topic/TECHNOLOGY',
      geo: 'US',
      category: 'tech',
    });
    assert.deepEqual(
      items.map((item) => [item.kind, item.title, item.domain, item.publishedAt]),
      [
        [
          'news',
          'Solara Motors recalls 410,000 Vela SUVs over battery fire risk',
          'reuters.com',
          '2026-03-10T10:00:00.000Z',
        ],
        [
          'news',
          'Solara’s Vela recall: what owners need to know',
          'theverge.com',
          '2026-03-10T10:30:00.000Z',
        ],
        [
          'news',
          'Lumen Labs releases Atlas 2 weights under an open licence',
          'techcrunch.com',
          '2026-03-10T09:00:00.000Z',
        ],
        [
          'news',
          "Atlas 2 hands-on: Lumen Labs' open model is fast and frugal",
          'wired.com',
          '2026-03-10T09:30:00.000Z',
        ],
        [
          'news',
          'Quantix raises $200 million to build quantum-safe chips',
          'bloomberg.com',
          '2026-03-10T06:00:00.000Z',
        ],
      ],
    );
    assert.equal(items[0]?.url, 'https://news.google.com/rss/articles/CBMiReplaySolaraReuters01?oc=5');
    // The description only repeats title and publisher, so it is not kept as a summary.
    assert.equal(items[0]?.summary, undefined);
    assert.ok(
      items.every((item) => item.category === 'tech' && item.geo === 'US' && item.rank === undefined),
    );
  });

  void test('publisher RSS: CDATA, HTML in descriptions, numeric and HTML entities, guid permalinks', () => {
    const items = feedItems(parseFeed(fixture('feeds/bbc-world.xml')), {
      url: 'https://feeds.bbci.co.uk/news/world/rss.xml',
    });
    assert.deepEqual(
      items.map((item) => [item.title, item.url, item.domain, item.summary]),
      [
        [
          'Solara recalls 410,000 electric cars over battery fire risk',
          'https://www.bbc.co.uk/news/articles/c0replaysolara1o',
          'bbc.co.uk',
          'The carmaker says owners of the Vela SUV should park outdoors until a software fix arrives.',
        ],
        [
          'Eastbrook council approves new bike lanes despite shopkeepers’ objections',
          'https://www.bbc.co.uk/news/articles/c0replayeastbrook2o',
          'bbc.co.uk',
          'Councillors voted 7–4 for the scheme after a three-hour debate.',
        ],
        [
          'Ports reopen after week-long strike & talks resume',
          'https://www.bbc.co.uk/news/articles/c0replayports3o',
          'bbc.co.uk',
          'Dock workers return as negotiators meet again on Tuesday.',
        ],
      ],
    );
    assert.ok(items.every((item) => item.geo === undefined && item.category === undefined));
  });

  void test('Atom: the alternate link, published time, HTML content as text without scripts', () => {
    const feed = parseFeed(fixture('feeds/verge-atom.xml'), 'application/atom+xml');
    assert.equal(feed.format, 'atom');
    assert.equal(feed.link, 'https://www.theverge.com/');
    const items = feedItems(feed, {
      url: 'https://www.theverge.com/rss/index.xml',
      geo: 'US',
      category: 'tech',
    });
    assert.deepEqual(
      items.map((item) => [item.title, item.url, item.publishedAt, item.summary]),
      [
        [
          'Solara’s Vela recall: what owners need to know',
          'https://www.theverge.com/2026/3/10/solara-vela-recall-owners-faq',
          '2026-03-10T11:00:00.000Z',
          'Solara is recalling 410,000 Vela SUVs after battery fires in three states.',
        ],
        [
          'Lumen Labs open-sources Atlas 2, its largest language model yet',
          'https://www.theverge.com/2026/3/10/lumen-labs-atlas-2-open-source-model',
          '2026-03-10T10:00:00.000Z',
          'The 120-billion-parameter model ships with weights & training code.',
        ],
      ],
    );
  });

  void test('a feed stored in ISO-8859-1 is decoded by its XML declaration', () => {
    const bytes = fixture('feeds/espn-sports.xml');
    assert.equal(bytes.includes(Buffer.from('£', 'utf8')), false, 'the fixture holds latin-1 bytes');
    const [first] = parseFeed(bytes).entries;
    assert.equal(
      first?.summary,
      'Marlow City have signed Dario Vento from Porto Azul on a five-year deal worth a reported £48 million.',
    );
    assert.equal(first?.publishedAt, '2026-03-10T04:00:00.000Z');
  });

  void test('the Content-Type charset wins over the XML declaration', () => {
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>x</title><item><title>Café – crème</title></item></channel></rss>';
    const [first] = parseFeed(Buffer.from(xml, 'utf8'), 'text/xml; charset="utf-8"').entries;
    assert.equal(first?.title, 'Café – crème');
  });

  void test('RSS 1.0 (RDF) items are read too', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://news.example/"><title>Example</title><link>https://news.example/</link></channel>
  <item rdf:about="https://news.example/a"><title>RDF story</title><link>https://news.example/a</link><dc:date>2026-03-10T08:30:00Z</dc:date></item>
</rdf:RDF>`;
    const feed = parseFeed(Buffer.from(xml));
    assert.equal(feed.format, 'rdf');
    assert.deepEqual(feed.entries, [
      {
        title: 'RDF story',
        link: 'https://news.example/a',
        publishedAt: '2026-03-10T08:30:00.000Z',
        newsItems: [],
      },
    ]);
  });
});

void describe('hostile and broken documents are refused before anything is expanded', () => {
  void test('billion laughs: refused for its DOCTYPE, in bounded time and memory', () => {
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const err = refusal(() => parseFeed(fixture('hostile/billion-laughs.xml')));
    assert.equal(err.reason, 'doctype');
    // A single expansion of &lol9; is a billion "lol"s: 3 GB. Nothing close is ever built.
    assert.ok(process.memoryUsage().heapUsed - before < 50 * 1024 * 1024);
    assert.ok(performance.now() - started < 2_000);
  });

  void test('external entities: refused for the DOCTYPE, no file or address read', () => {
    const err = refusal(() => parseFeed(fixture('hostile/external-entity.xml')));
    assert.equal(err.reason, 'doctype');
  });

  void test('a DOCTYPE after comments and processing instructions is still found', () => {
    assert.equal(declaresDoctype('\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<?pi x?>\n<!doctype rss>'), true);
    assert.equal(declaresDoctype('<?xml version="1.0"?><rss><![CDATA[<!DOCTYPE html>]]></rss>'), false);
  });

  void test('even without a DOCTYPE, undeclared entity references stay text and are never resolved', () => {
    const xml =
      '<rss version="2.0"><channel><title>x</title><item><title>&lol9; &amp; &#x41;</title></item></channel></rss>';
    assert.equal(parseFeed(Buffer.from(xml)).entries[0]?.title, '&lol9; & A');
  });

  void test('malformed XML is refused with the line', () => {
    const err = refusal(() => parseFeed(fixture('hostile/malformed.xml')));
    assert.equal(err.reason, 'malformed');
    assert.match(err.message, /line \d+/);
  });

  void test('a web page is not a feed', () => {
    const err = refusal(() =>
      parseFeed(Buffer.from('<html><head><title>Hi</title></head><body><p>x</p></body></html>')),
    );
    assert.equal(err.reason, 'not_a_feed');
  });
});

void describe('text helpers', () => {
  void test('traffic as Google writes it', () => {
    const cases: [string, number | undefined][] = [
      ['200,000+', 200_000],
      ['2M+', 2_000_000],
      ['1.5K+', 1_500],
      ['20 000+', 20_000],
      ['500k+', 500_000],
      ['2000+', 2_000],
      ['lots', undefined],
      ['0+', undefined],
    ];
    for (const [text, value] of cases) assert.equal(parseTraffic(text)?.value, value, text);
    assert.deepEqual(parseTraffic(' 200,000+ '), { text: '200,000+', value: 200_000 });
  });

  void test('only predefined entities and numeric references are decoded; invalid code points are replaced', () => {
    assert.equal(
      decodeXmlEscapes('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#8217; &#x1F600; &custom;'),
      'a & b <c> "d" \'e\' ’ 😀 &custom;',
    );
    assert.equal(decodeXmlEscapes('&#0; &#xD800; &#x110000;'), '\uFFFD \uFFFD \uFFFD');
    assert.equal(
      feedText('&lt;p&gt;One&lt;/p&gt;&lt;style&gt;p{}&lt;/style&gt;&lt;p&gt;Two&amp;nbsp;three&lt;/p&gt;'),
      'One Two three',
    );
  });
});
