import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { splitSentences } from '../src/media/script/sentences.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo } from './support/media-files.ts';
import { SignalSourcesServer } from './support/signal-sources-server.ts';
import { startTestService, waitForJob, type TestResponse, type TestService } from './support/test-service.ts';

// POST /videos/news without sourceUrl, end to end: the trend sources are the replay server's recorded payloads
// plus one science feed served here, whose stories link to articles served here on loopback (the URL guard
// reaches them with REELSMITH_ALLOW_LOOPBACK_URLS=1). The narration must be the articles' own sentences and
// name their publishers; a request no story fits is refused free of charge.

interface Article {
  site: string;
  title: string;
  paragraphs: string[];
}

/** Served at /articles/<key>.html; a key missing here answers 404. */
const ARTICLES: Record<string, Article> = {
  'solar-gazette': {
    site: 'Harbour Gazette',
    title: 'Porthaven switches on floating solar farm in old dock basin',
    paragraphs: [
      'Porthaven switched on a floating solar farm in the old dock basin on Tuesday.',
      "The cool water lifts the panels' output on hot days, engineers say.",
    ],
  },
  'solar-ledger': {
    site: 'Lakeside Ledger',
    title: 'Floating solar farm opens in Porthaven dock basin',
    paragraphs: [
      "The floating solar farm in Porthaven's dock basin holds four thousand panels.",
      'City officials expect it to power two thousand homes each year.',
    ],
  },
  'bees-valley': {
    site: 'Valley Times',
    title: 'Millbrook beekeepers count record honey harvest',
    paragraphs: [
      'Beekeepers in Millbrook collected a record honey harvest this summer.',
      "A wet spring filled the meadows with clover, the beekeepers' association says.",
    ],
  },
  'bees-ridge': {
    site: 'Ridge Reporter',
    title: 'Record honey harvest for Millbrook beekeepers',
    paragraphs: [
      'The Millbrook beekeepers weighed twelve tonnes of honey this year, a record for the valley.',
    ],
  },
};

/** The science feed: [title, article key, publisher, publisher site, minutes ago]. */
const FEED_ITEMS: [string, string, string, string, number][] = [
  [ARTICLES['solar-gazette']!.title, 'solar-gazette', 'Harbour Gazette', 'https://harbourgazette.example', 50],
  [ARTICLES['solar-ledger']!.title, 'solar-ledger', 'Lakeside Ledger', 'https://lakesideledger.example', 70],
  // Listed by the feed, gone from the site: skipped when the story is read.
  ['Porthaven floating solar farm goes live in dock basin', 'solar-courier', 'Coastal Courier', 'https://coastalcourier.example', 90],
  [ARTICLES['bees-valley']!.title, 'bees-valley', 'Valley Times', 'https://valleytimes.example', 100],
  [ARTICLES['bees-ridge']!.title, 'bees-ridge', 'Ridge Reporter', 'https://ridgereporter.example', 120],
  // A story none of whose articles can be read.
  ['Gull Point lighthouse to reopen as a maritime museum', 'lighthouse-gone', 'Bay Herald', 'https://bayherald.example', 80],
]; // prettier-ignore

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(article: Article): string {
  return `<!doctype html><html lang="en"><head><title>${escapeXml(article.title)} | ${article.site}</title>
<meta property="og:site_name" content="${article.site}"></head><body><main><article>
<h1>${escapeXml(article.title)}</h1>
${article.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n')}
</article></main></body></html>`;
}

function feed(origin: string): string {
  const items = FEED_ITEMS.map(
    ([title, key, publisher, site, minutes]) => `<item><title>${escapeXml(`${title} - ${publisher}`)}</title>
<link>${origin}/articles/${key}.html</link><guid>${origin}/articles/${key}.html</guid>
<pubDate>${new Date(Date.now() - minutes * 60_000).toUTCString()}</pubDate>
<source url="${site}">${publisher}</source></item>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Newsroom science</title>
<link>${origin}/</link><description>Science stories</description>${items}</channel></rss>`;
}

let service: TestService;
let replay: SignalSourcesServer;
let newsroom: http.Server;
let dir: string;
let rendered: Promise<any>;
let renderReceipt: TestResponse;
/** The story the keyword Porthaven picks, from a dry run. */
let solarTrendId: string;

async function post(body: Record<string, unknown>, apiKey?: string): Promise<TestResponse> {
  return service.call('POST', '/api/v1/videos/news', {
    body,
    headers: { 'idempotency-key': `news-trends-${Math.random()}` },
    ...(apiKey ? { key: apiKey } : {}),
  });
}

async function dryRun(body: Record<string, unknown>) {
  const response = await post({ ...body, dry_run: true });
  assert.equal(response.status, 200, response.text);
  return response.body.data as {
    normalized_request: Record<string, any>;
    warnings: string[];
    charged: boolean;
  };
}

const balance = async (apiKey?: string): Promise<number> =>
  (await service.call('GET', '/api/v1/usage', apiKey ? { key: apiKey } : {})).body.data.balance_usd_cents;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-news-trends-'));
  replay = await SignalSourcesServer.start();
  newsroom = http.createServer((req, res) => {
    const origin = `http://127.0.0.1:${(newsroom.address() as AddressInfo).port}`;
    if (req.url === '/feeds/science.xml')
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feed(origin));
    const key = /^\/articles\/([a-z-]+)\.html$/.exec(req.url ?? '')?.[1];
    const article = key ? ARTICLES[key] : undefined;
    if (!article) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(article));
  });
  await new Promise<void>((resolve) => newsroom.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(newsroom.address() as AddressInfo).port}`;
  const feeds = [
    { url: `${origin}/feeds/science.xml`, geo: 'US', category: 'science', name: 'Newsroom science' },
    ...replay.feeds(),
  ];
  service = await startTestService({
    modes: productModes,
    env: {
      RENDER_PRESET: 'ultrafast',
      TRENDS_FEEDS: JSON.stringify(feeds),
      TRENDS_HN_BASE_URL: replay.baseUrls.hackerNews,
      TRENDS_GDELT_BASE_URL: replay.baseUrls.gdelt,
      TRENDS_WIKIMEDIA_BASE_URL: replay.baseUrls.wikimedia,
    },
  });
  // The one real render starts now and runs while the cheap tests go on.
  renderReceipt = await post({ keywords: ['Porthaven'], format: 'single', duration: '30s' });
  assert.equal(renderReceipt.status, 202, renderReceipt.text);
  rendered = waitForJob(service, renderReceipt.body.data.job_id, { timeoutMs: 480_000 });
  rendered.catch(() => undefined);
});

after(async () => {
  await rendered?.catch(() => undefined);
  await service?.stop();
  await replay?.close();
  await new Promise((resolve) => newsroom?.close(resolve));
});

void describe('POST /videos/news from trending stories', () => {
  void test('a dry run shows the story a keyword picks, its topic and its articles, uncharged', async () => {
    const data = await dryRun({ keywords: ['Porthaven'], format: 'single', duration: '30s' });
    assert.equal(data.charged, false);
    const [story, ...others] = data.normalized_request.stories as any[];
    assert.equal(others.length, 0);
    assert.match(story.topic, /solar farm/i);
    assert.deepEqual(story.matchedKeywords, ['Porthaven']);
    const urls = (story.sources as { url: string }[]).map((s) => new URL(s.url).pathname).sort();
    assert.deepEqual(urls, [
      '/articles/solar-courier.html',
      '/articles/solar-gazette.html',
      '/articles/solar-ledger.html',
    ]);
    assert.ok(data.warnings.some((w) => w.includes(story.topic) && w.includes(story.trendId)));
    solarTrendId = story.trendId;

    const bees = await dryRun({ keywords: ['beekeepers'], format: 'single', duration: '30s' });
    const [beeStory] = bees.normalized_request.stories as any[];
    assert.match(beeStory.topic, /beekeepers|honey/i);
    assert.ok(beeStory.sources.every((s: { url: string }) => s.url.includes('/articles/bees-')));
  });

  void test('a niche picks the category’s most viral stories, as the radar ranks them', async () => {
    const radar = await service.call('GET', '/api/v1/trends/radar?category=science&min_virality=0&limit=100');
    assert.equal(radar.status, 200, radar.text);
    const ranked = radar.body.data.trends as { id: string; virality_score: number }[];
    const single = await dryRun({ niches: ['science'], format: 'single', duration: '30s' });
    assert.equal(single.normalized_request.stories[0].trendId, ranked[0]!.id);
    // Without sourceUrl or trend_id the format is a digest unless another is asked for.
    const digest = await dryRun({ niches: ['science'] });
    assert.equal(digest.normalized_request.format, 'digest');
    const stories = digest.normalized_request.stories as { trendId: string; viralityScore: number }[];
    assert.equal(stories.length, 3);
    for (const [i, story] of stories.entries()) {
      assert.ok(ranked.some((t) => t.id === story.trendId));
      if (i > 0) assert.ok(story.viralityScore <= stories[i - 1]!.viralityScore, JSON.stringify(stories));
    }
  });

  void test('no story for the keywords: a free 422 that says which and points to sourceUrl', async () => {
    const { live_key: key } = await service.newAccount();
    const response = await post(
      { keywords: ['zeppelin regatta'], niches: ['science'], duration: '30s' },
      key,
    );
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, 'NO_STORY_AVAILABLE');
    assert.match(response.body.error.message, /"zeppelin regatta"/);
    assert.match(response.body.error.message, /"science"/);
    assert.match(response.body.error.message, /sourceUrl/);
    assert.equal(response.headers.get('x-job-id'), null);
    assert.equal(await balance(key), 100_000);
  });

  void test('trend_id resolves a cached trend; an unknown one is a free 404', async () => {
    const data = await dryRun({ trend_id: solarTrendId, duration: '30s' });
    assert.equal(data.normalized_request.trendId, solarTrendId);
    assert.equal(data.normalized_request.format, 'single');
    assert.equal(data.normalized_request.stories[0].trendId, solarTrendId);
    const { live_key: key } = await service.newAccount();
    const unknown = await post({ trend_id: 'trd_not_a_trend' }, key);
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'TREND_NOT_FOUND');
    const both = await post({ trend_id: solarTrendId, sourceUrl: 'https://example.com/story' }, key);
    assert.equal(both.status, 400, both.text);
    assert.ok(both.body.error.details.fields.some((f: { field: string }) => f.field === 'trendId'));
    assert.equal(await balance(key), 100_000);
  });

  void test('every trend source down: a free 503 SIGNALS_UNAVAILABLE', async () => {
    const { live_key: key } = await service.newAccount();
    replay.setAll('down');
    try {
      // Sports is not cached yet, so its sources are asked now; the science feed does not cover it.
      const response = await post({ niches: ['sports'], duration: '30s' }, key);
      assert.equal(response.status, 503, response.text);
      assert.equal(response.body.error.code, 'SIGNALS_UNAVAILABLE');
    } finally {
      replay.reset();
    }
    assert.equal(await balance(key), 100_000);
  });

  void test('a story none of whose articles can be read fails the job, refunded', async () => {
    const { live_key: key } = await service.newAccount();
    const found = await post({ keywords: ['lighthouse'], format: 'single', dry_run: true }, key);
    assert.equal(found.status, 200, found.text);
    const trendId = found.body.data.normalized_request.stories[0].trendId as string;
    const receipt = await post({ trend_id: trendId, duration: '30s' }, key);
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(await balance(key), 100_000 - 60);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000, key });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'STORY_SOURCES_UNREADABLE');
    assert.match(job.error.message, /Gull Point lighthouse/);
    assert.match(job.error.message, /HTTP 404/);
    assert.equal(await balance(key), 100_000);
  });

  void test('the video narrates the articles’ own sentences and names their publishers', async () => {
    assert.equal(renderReceipt.headers.get('x-api-credits-cost-usd-cents'), '60');
    const job = await rendered;
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const [story, ...others] = job.artifacts.news.stories;
    assert.equal(others.length, 0);
    assert.equal(story.trendId, solarTrendId);
    assert.match(story.topic, /solar farm/i);
    // The courier's page is gone: skipped, and never named.
    assert.deepEqual(
      story.sourcesSkipped.map((s: { url: string }) => new URL(s.url).pathname),
      ['/articles/solar-courier.html'],
    );
    assert.match(story.sourcesSkipped[0].reason, /HTTP 404/);
    assert.deepEqual(story.sources.map((s: { publisher: string }) => s.publisher).sort(), [
      'Harbour Gazette',
      'Lakeside Ledger',
    ]);

    const [headline, attribution, ...said] = (job.artifacts.script as string).split('\n');
    const solar = [ARTICLES['solar-gazette']!, ARTICLES['solar-ledger']!];
    assert.ok(
      solar.some((a) => headline === `${a.title}.`),
      `headline "${headline}" is an article's own title`,
    );
    assert.equal(attribution, `Reported by ${story.publishers.join(' and ')}.`);
    assert.ok(story.publishers.length >= 1);
    assert.ok(!job.artifacts.script.includes('Coastal Courier'));
    const sentences = said.flatMap((line) => splitSentences(line, 'en'));
    assert.ok(sentences.length >= 2, job.artifacts.script);
    for (const sentence of sentences) {
      const from = solar.find((a) => a.paragraphs.some((p) => p.includes(sentence)));
      assert.ok(from, `"${sentence}" is not in any served article`);
      assert.ok(story.publishers.includes(from.site), `${from.site} said "${sentence}" but is not named`);
    }
    assert.equal(story.sentencesUsed, sentences.length);

    const info = await probeMedia(await downloadTo(job.artifacts.videoUrl, join(dir, 'news.mp4')));
    assert.equal(info.audio?.codec, 'aac');
    assert.ok(info.durationSec >= 14.9 && info.durationSec <= 30, `duration ${info.durationSec}`);
  });
});
