import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as cheerio from 'cheerio';
import { DiscordServer } from './support/discord-server.ts';
import { SignalSourcesServer } from './support/signal-sources-server.ts';
import { startTestService, type TestResponse, type TestService } from './support/test-service.ts';
import { WordPressServer } from './support/wordpress-server.ts';

// POST /articles through the real service. One service writes with the local writer and reads trends from the
// replayed signal sources plus a newsroom served here (its feed and its article pages, reached through the URL
// guard on loopback). The other writes with an LLM (a chat-completions server here) and publishes to a
// WordPress site and a Discord webhook, both local servers speaking their real protocols.

const PATH = '/api/v1/articles';

interface Report {
  site: string;
  title: string;
  paragraphs: string[];
}

/** Three reports of one story, served at /articles/<key>.html. */
const REPORTS: Record<string, Report> = {
  gazette: {
    site: 'Harbour Gazette',
    title: 'Porthaven switches on floating solar farm in old dock basin',
    paragraphs: [
      'Porthaven switched on a floating solar farm in the old dock basin on Tuesday, the first of its kind on the north coast.',
      'The farm holds four thousand panels on plastic floats anchored to the basin floor, engineers from the harbour board said.',
      'Cool water under the panels lifts their output on hot days, because solar cells lose power as they warm up.',
      'The harbour board says the basin had stood empty since the last cargo ships left the port twenty years ago.',
      'Fishing crews who moor nearby were consulted during the design, and a channel was kept open for small boats.',
      'The board plans to publish the first month of output figures on its website in the autumn.',
    ],
  },
  ledger: {
    site: 'Lakeside Ledger',
    title: 'Floating solar farm opens in Porthaven dock basin',
    paragraphs: [
      "The floating solar farm in Porthaven's dock basin opened this week after eighteen months of building work.",
      'City officials expect it to power two thousand homes each year, and they say the power will feed the local grid directly.',
      'The project was paid for by the city and a community energy group, which sold shares to residents last spring.',
      'Residents who bought shares will receive a yearly payment linked to the power the farm sells.',
      'Wildlife groups asked for bird surveys around the basin, and the city agreed to run them for three years.',
      'The mayor called the farm a sign that the old docks can find new work.',
    ],
  },
  courier: {
    site: 'Coastal Courier',
    title: 'Porthaven floating solar farm goes live in dock basin',
    paragraphs: [
      'A floating solar farm went live in Porthaven on Tuesday, covering most of the old dock basin with panels.',
      'Engineers chose floats because the basin walls are listed buildings and could not carry heavy frames.',
      'The panels tilt gently toward the south, and walkways between the rows let crews clean them by hand.',
      'Storm tests last winter showed the anchors held in gusts strong enough to close the harbour.',
      'Other ports along the coast have asked the harbour board for its plans, according to the board.',
    ],
  },
};

/** The newsroom feed: [report key, publisher site, minutes ago]. */
const FEED_ITEMS: [string, string, number][] = [
  ['gazette', 'https://harbourgazette.example', 40],
  ['ledger', 'https://lakesideledger.example', 65],
  ['courier', 'https://coastalcourier.example', 90],
];

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(report: Report): string {
  return `<!doctype html><html lang="en"><head><title>${escapeXml(report.title)} | ${report.site}</title>
<meta property="og:site_name" content="${report.site}"></head><body><main><article>
<h1>${escapeXml(report.title)}</h1>
${report.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n')}
</article></main></body></html>`;
}

function feed(origin: string): string {
  const items = FEED_ITEMS.map(([key, site, minutes]) => {
    const report = REPORTS[key]!;
    return `<item><title>${escapeXml(`${report.title} - ${report.site}`)}</title>
<link>${origin}/articles/${key}.html</link><guid>${origin}/articles/${key}.html</guid>
<pubDate>${new Date(Date.now() - minutes * 60_000).toUTCString()}</pubDate>
<source url="${site}">${report.site}</source></item>`;
  }).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Newsroom energy</title>
<link>${origin}/</link><description>Energy stories</description>${items}</channel></rss>`;
}

/** An article the LLM answers with: about 480 words, plain sentences, the keyword where the gates look. */
const GOOD_ARTICLE = {
  title: 'Remote Work Productivity: Habits That Hold Up',
  meta_description:
    'Remote work productivity depends on routines you can keep. Learn how to plan the day, protect focus time and close the laptop on time.',
  keywords: ['working from home', 'focus time', 'home office'],
  intro: [
    'Remote work productivity is less about willpower and more about the routines around your work. This guide covers how to plan your day, protect time for deep work, and end the day cleanly.',
  ],
  sections: [
    {
      heading: 'Why remote work productivity needs a plan',
      paragraphs: [
        'At home, nobody sets the pace for you. Meetings, messages and chores all compete for the same hours. Without a plan, the loudest task wins, and the important work slides to the evening.',
        'A short plan at the start of the day fixes this. Pick the one task that matters most, and decide when you will do it. Everything else fits around that block.',
      ],
      subsections: [
        {
          heading: 'Write the plan down',
          paragraphs: [
            'A plan in your head changes every hour. A plan on paper or in a note stays put, and it shows you at the end of the day what you actually finished.',
          ],
        },
      ],
    },
    {
      heading: 'Protect time for focused work',
      paragraphs: [
        'Focused work needs long stretches without interruptions. Turn off chat alerts for an hour or two, and tell your team when you will be back. Most messages can wait that long.',
        'Choose the same time each day if you can. Your team learns the pattern, and you stop negotiating with yourself about when to start.',
      ],
    },
    {
      heading: 'Set up a place that means work',
      paragraphs: [
        'A desk you only use for work helps your mind switch into work mode. It does not need to be a separate room. A corner with a good chair and steady light is enough.',
        'Keep the things you need within reach, and keep the things that distract you out of sight. Small changes like these remove dozens of tiny decisions every day.',
      ],
    },
    {
      heading: 'End the day on purpose',
      paragraphs: [
        'When work and home share a room, the day can run on for hours. Pick a finishing time and a short closing routine. Review your list, note the first task for tomorrow, and close the laptop.',
        'Stopping on time is part of staying productive. Rested people make fewer mistakes and need less time to get going the next morning.',
      ],
    },
  ],
  faq: [
    {
      question: 'How can I measure remote work productivity?',
      answer:
        'Look at finished work, not hours online. Count the important tasks you completed each week and compare the weeks over time.',
    },
    {
      question: 'How long should a focus block last?',
      answer:
        'Start with sixty to ninety minutes. Shorter blocks suit busy days, and longer ones suit deep tasks once the habit is set.',
    },
    {
      question: 'What if my team expects instant replies?',
      answer:
        'Agree on response times with your team. Most teams accept a reply within an hour or two when they know when you are focusing.',
    },
  ],
};

/** A reply that is valid JSON of the right shape but far too short to publish. */
const SHORT_ARTICLE = {
  title: 'Remote Work Productivity',
  meta_description: 'Remote work productivity in brief.',
  keywords: [],
  intro: ['Remote work productivity matters.'],
  sections: [{ heading: 'Remote work productivity tips', paragraphs: ['Plan your day and take breaks.'] }],
  faq: [],
};

interface FakeLlm {
  server: http.Server;
  url: string;
  reply: unknown;
  /** Answer 500 instead, as an overloaded provider does. */
  down: boolean;
  bodies: any[];
  close(): Promise<void>;
}

/** An OpenAI-compatible chat-completions server answering `reply` as the assistant's JSON content. */
async function startFakeLlm(): Promise<FakeLlm> {
  const llm: FakeLlm = {
    server: http.createServer(),
    url: '',
    reply: GOOD_ARTICLE,
    down: false,
    bodies: [],
    close: () => new Promise((resolve) => llm.server.close(() => resolve())),
  };
  llm.server.on('request', (req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.headers.authorization !== 'Bearer sk-articles') {
        res.writeHead(401, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
      }
      llm.bodies.push(JSON.parse(raw));
      if (llm.down) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-article',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'article-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: JSON.stringify(llm.reply), refusal: null },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 900, completion_tokens: 700, total_tokens: 1600 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => llm.server.listen(0, '127.0.0.1', resolve));
  llm.url = `http://127.0.0.1:${(llm.server.address() as AddressInfo).port}/v1`;
  return llm;
}

let local: TestService;
let publishing: TestService;
let replay: SignalSourcesServer;
let newsroom: http.Server;
const newsroomHits: string[] = [];
let llm: FakeLlm;
let wordpress: WordPressServer;
let discord: DiscordServer;

function post(service: TestService, body: unknown, options: { key?: string | null; apiKey?: string } = {}) {
  const key = options.key === undefined ? `article-${randomUUID()}` : options.key;
  return service.call('POST', PATH, {
    body,
    ...(key === null ? {} : { headers: { 'idempotency-key': key } }),
    ...(options.apiKey ? { key: options.apiKey } : {}),
  });
}

const balance = async (service: TestService): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

function assertError(response: TestResponse, status: number, code: string): any {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.success, false);
  assert.equal(response.body.error.code, code);
  return response.body.error;
}

before(async () => {
  replay = await SignalSourcesServer.start();
  newsroom = http.createServer((req, res) => {
    newsroomHits.push(req.url ?? '');
    const origin = `http://127.0.0.1:${(newsroom.address() as AddressInfo).port}`;
    if (req.url === '/feeds/energy.xml')
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feed(origin));
    const key = /^\/articles\/([a-z]+)\.html$/.exec(req.url ?? '')?.[1];
    const report = key ? REPORTS[key] : undefined;
    if (!report) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(report));
  });
  await new Promise<void>((resolve) => newsroom.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(newsroom.address() as AddressInfo).port}`;
  llm = await startFakeLlm();
  wordpress = await WordPressServer.start({
    username: 'editor',
    appPassword: 'abcd EFGH 1234 ijkl MNOP 5678',
  });
  discord = await DiscordServer.start();
  const trends = {
    TRENDS_FEEDS: JSON.stringify([
      { url: `${origin}/feeds/energy.xml`, geo: 'US', category: 'science', name: 'Newsroom energy' },
      ...replay.feeds(),
    ]),
    TRENDS_HN_BASE_URL: replay.baseUrls.hackerNews,
    TRENDS_GDELT_BASE_URL: replay.baseUrls.gdelt,
    TRENDS_WIKIMEDIA_BASE_URL: replay.baseUrls.wikimedia,
  };
  [local, publishing] = await Promise.all([
    startTestService({ worker: false, env: trends }),
    startTestService({
      worker: false,
      env: {
        ...trends,
        LLM_BASE_URL: llm.url,
        LLM_API_KEY: 'sk-articles',
        LLM_MODEL: 'article-model',
        WORDPRESS_BASE_URL: wordpress.origin,
        WORDPRESS_USERNAME: 'editor',
        WORDPRESS_APP_PASSWORD: 'abcd EFGH 1234 ijkl MNOP 5678',
        DISCORD_WEBHOOK_URL: discord.webhookUrl,
      },
    }),
  ]);
});

after(async () => {
  await Promise.all([local?.stop(), publishing?.stop()]);
  await Promise.all([replay?.close(), llm?.close(), wordpress?.close(), discord?.close()]);
  newsroom?.closeAllConnections();
  await new Promise((resolve) => newsroom?.close(resolve));
});

void describe('POST /articles with the local writer', () => {
  void test('an evergreen article passes every gate and has every part, for 10 cents', async () => {
    const before = await balance(local);
    const res = await post(local, {
      topic: 'how compound interest grows savings',
      pillar: 'personal finance',
      contentType: 'evergreen',
      agent_run_id: 'run-42',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-api-credits-cost-usd-cents'), '10');
    assert.equal(res.headers.get('x-api-credits-tool'), 'seo_article');
    assert.equal(res.headers.get('x-api-credits-engine'), 'articles');
    assert.equal(res.headers.get('x-api-credits-model'), 'local');
    assert.equal(res.headers.get('x-api-credits-tier'), 'evergreen');
    assert.ok(Number(res.headers.get('x-api-credits-estimated-seconds')) >= 1);
    assert.equal(await balance(local), before - 10);
    const { data, meta } = res.body;
    assert.equal(meta.credits_used, 10);
    assert.equal(meta.credits_remaining, before - 10);
    assert.ok(meta.warnings.some((w: string) => /local writer from your brief alone/.test(w)));
    assert.match(data.article_id, /^art_/);
    assert.equal(data.writer, 'local');
    assert.equal(data.agent_run_id, 'run-42');
    assert.equal(data.primary_keyword, 'compound interest');
    assert.equal(data.slug, 'compound-interest');
    assert.ok(data.keywords.includes('personal finance'));
    assert.equal(data.trend, null);
    assert.equal(data.quality.passed, true);
    assert.deepEqual(
      data.quality.gates.map((g: any) => [g.gate, g.passed]),
      ['length', 'heading_structure', 'keyword_placement', 'readability', 'unique_paragraphs'].map((g) => [
        g,
        true,
      ]),
    );
    assert.ok(data.word_count >= 300);
    assert.ok(data.meta_description.length <= 160 && /compound interest/i.test(data.meta_description));
    assert.deepEqual(data.destinations, {
      wordpress: { requested: false, status: 'not_requested' },
      discord: { requested: false, status: 'not_requested' },
    });

    const $ = cheerio.load(data.html);
    assert.equal($('h1').length, 1);
    assert.equal($('h1').text(), data.title);
    assert.equal($('title').text(), data.title);
    assert.equal($('meta[name="description"]').attr('content'), data.meta_description);
    assert.match($('meta[name="keywords"]').attr('content') ?? '', /^compound interest, personal finance/);
    assert.ok($('h2').length >= 3);
    assert.ok($('h3').length >= 3);
    assert.ok(
      $('h2')
        .toArray()
        .some((h) => /compound interest/i.test($(h).text())),
    );
    assert.ok(
      $('h2')
        .toArray()
        .some((h) => /frequently asked questions/i.test($(h).text())),
    );
    const scripts = $('script[type="application/ld+json"]');
    assert.equal(scripts.length, 1);
    const jsonLd = JSON.parse(scripts.text());
    assert.deepEqual(jsonLd, data.json_ld);
    assert.equal(jsonLd['@context'], 'https://schema.org');
    const article = jsonLd['@graph'].find((n: any) => n['@type'] === 'Article');
    const faqPage = jsonLd['@graph'].find((n: any) => n['@type'] === 'FAQPage');
    assert.equal(article.headline, data.title);
    assert.equal(article.description, data.meta_description);
    assert.equal(article.wordCount, data.word_count);
    assert.equal(article.articleSection, 'personal finance');
    assert.ok(data.faq.length >= 3);
    assert.equal(faqPage.mainEntity.length, data.faq.length);
    for (const [i, q] of faqPage.mainEntity.entries()) {
      assert.equal(q['@type'], 'Question');
      assert.equal(q.name, data.faq[i].question);
      assert.equal(q.acceptedAnswer['@type'], 'Answer');
      assert.ok(q.acceptedAnswer.text.length > 20);
    }
    assert.match(data.markdown, /^# /);
    assert.doesNotMatch(data.content_html, /<h1/);
    assert.match(data.content_html, /<h2>/);
  });

  void test('a trend article is written from the live trend’s reports, quoted and linked', async () => {
    newsroomHits.length = 0;
    const res = await post(local, { topic: 'floating solar farm', contentType: 'trend' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-api-credits-tier'), 'trend');
    const { data, meta } = res.body;
    assert.equal(data.quality.passed, true, JSON.stringify(data.quality));
    assert.ok(data.trend, 'a trend was matched');
    assert.match(data.trend.topic, /floating solar farm/i);
    assert.ok(meta.warnings.some((w: string) => /quotes the trend's reports/.test(w)));
    // Every report was fetched through the URL guard, and each is quoted in its own words and linked.
    for (const key of Object.keys(REPORTS)) assert.ok(newsroomHits.includes(`/articles/${key}.html`), key);
    const quotedSentences = Object.values(REPORTS).flatMap((r) =>
      r.paragraphs.filter((p) => data.markdown.includes(p)),
    );
    assert.ok(quotedSentences.length >= 6, `quotes: ${quotedSentences.length}`);
    for (const report of Object.values(REPORTS)) {
      assert.ok(
        data.sources.some((s: any) => s.publisher === report.site && s.title === report.title),
        report.site,
      );
      assert.ok(data.markdown.includes(report.site));
    }
    const $ = cheerio.load(data.html);
    const links = $('a')
      .toArray()
      .map((a) => $(a).attr('href') ?? '');
    for (const key of Object.keys(REPORTS))
      assert.ok(
        links.some((l) => l.endsWith(`/articles/${key}.html`)),
        key,
      );
    const jsonLd = JSON.parse($('script[type="application/ld+json"]').text());
    const article = jsonLd['@graph'].find((n: any) => n['@type'] === 'Article');
    assert.equal(article.citation.length, 3);
    assert.ok(jsonLd['@graph'].some((n: any) => n['@type'] === 'FAQPage'));
    assert.ok(data.trend.sources.every((s: any) => s.read === true));
  });

  void test('a trend article with no matching trend falls back to the brief and says so', async () => {
    const res = await post(local, { topic: 'medieval tapestry restoration', contentType: 'trend' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.trend, null);
    assert.equal(res.body.data.sources.length, 0);
    assert.ok(
      res.body.meta.warnings.some((w: string) =>
        /No live trend .* mentions "medieval tapestry restoration"/.test(w),
      ),
      JSON.stringify(res.body.meta.warnings),
    );
  });

  void test('without topic and pillar the request is refused, free', async () => {
    const before = await balance(local);
    const res = await post(local, { contentType: 'evergreen' });
    const error = assertError(res, 400, 'INPUT_INVALID');
    assert.equal(error.details.fields[0].field, 'topic');
    assert.match(error.details.fields[0].message, /pillar/);
    const typed = await post(local, { topic: 'x y', contentType: 'news', autoPublish: 'yes' });
    const fields = assertError(typed, 400, 'INPUT_INVALID').details.fields.map((f: any) => f.field);
    assert.deepEqual(fields.sort(), ['autoPublish', 'contentType']);
    assert.equal(await balance(local), before);
  });

  void test('autoPublish or notifyDiscord without the destination configured is a free 400 naming the settings', async () => {
    const before = await balance(local);
    const wp = assertError(
      await post(local, { topic: 'sourdough starters', autoPublish: true }),
      400,
      'INPUT_INVALID',
    );
    assert.equal(wp.details.fields[0].field, 'autoPublish');
    assert.match(wp.message, /WORDPRESS_BASE_URL, WORDPRESS_USERNAME and WORDPRESS_APP_PASSWORD/);
    const dc = assertError(
      await post(local, { topic: 'sourdough starters', notifyDiscord: true }),
      400,
      'INPUT_INVALID',
    );
    assert.equal(dc.details.fields[0].field, 'notifyDiscord');
    assert.match(dc.message, /DISCORD_WEBHOOK_URL/);
    assert.equal(await balance(local), before);
  });

  void test('dry_run is refused and a live call needs an Idempotency-Key', async () => {
    assertError(
      await post(local, { topic: 'sourdough starters', dry_run: true }),
      400,
      'DRY_RUN_NOT_SUPPORTED',
    );
    assertError(
      await post(local, { topic: 'sourdough starters' }, { key: null }),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });

  void test('a sandbox key gets the article free, without a key', async () => {
    const before = await balance(local);
    const res = await post(
      local,
      { pillar: 'home gardening' },
      { key: null, apiKey: local.account.sandbox_key },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-api-credits-cost-usd-cents'), '0');
    assert.equal(res.body.meta.sandbox, true);
    assert.match(res.body.data.article_id, /^sandbox_art_/);
    assert.equal(res.body.data.primary_keyword, 'home gardening');
    assert.equal(await balance(local), before);
  });
});

void describe('POST /articles with an LLM, WordPress and Discord', () => {
  const body = {
    topic: 'remote work productivity',
    pillar: 'future of work',
    contentType: 'evergreen',
    autoPublish: true,
    notifyDiscord: true,
  };
  const key = `article-publish-${randomUUID()}`;
  let first: TestResponse;

  void test('the article is written by the LLM, published to WordPress and announced on Discord after a 429', async () => {
    llm.reply = GOOD_ARTICLE;
    discord.rateLimitNext = 1;
    const before = await balance(publishing);
    first = await post(publishing, body, { key });
    assert.equal(first.status, 200, first.text);
    const { data } = first.body;
    assert.equal(data.writer, 'llm');
    assert.equal(data.model, 'article-model');
    assert.equal(first.headers.get('x-api-credits-model'), 'llm:article-model');
    assert.equal(data.title, GOOD_ARTICLE.title);
    assert.equal(data.quality.passed, true, JSON.stringify(data.quality));
    assert.equal(await balance(publishing), before - 10);
    // The model was told the keyword and the rules the gates check.
    const prompt = JSON.stringify(llm.bodies.at(-1).messages);
    assert.match(prompt, /Primary keyword: \\"remote work productivity\\"/);
    assert.equal(llm.bodies.at(-1).model, 'article-model');

    assert.equal(wordpress.posts.length, 1);
    const [request] = wordpress.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/wp-json/wp/v2/posts');
    assert.equal(
      request!.authorization,
      `Basic ${Buffer.from('editor:abcd EFGH 1234 ijkl MNOP 5678').toString('base64')}`,
    );
    assert.match(request!.contentType ?? '', /^application\/json/);
    assert.deepEqual(Object.keys(request!.body).sort(), ['content', 'excerpt', 'slug', 'status', 'title']);
    assert.equal(request!.body.status, 'publish');
    assert.equal(request!.body.title, data.title);
    assert.equal(request!.body.excerpt, data.meta_description);
    assert.equal(request!.body.slug, 'remote-work-productivity');
    assert.equal(request!.body.content, data.content_html);
    assert.doesNotMatch(request!.body.content, /<h1|ld\+json/);
    const published = wordpress.posts[0]!;
    assert.deepEqual(data.destinations.wordpress, {
      requested: true,
      status: 'published',
      post_id: published.id,
      link: published.link,
      slug: published.slug,
    });

    assert.equal(discord.requests.length, 2, 'one 429, then the message');
    const [limited, sent] = discord.requests;
    assert.ok(sent!.at - limited!.at >= discord.retryAfterSeconds * 1000 - 20, 'waited retry_after');
    assert.equal(sent!.query.get('wait'), 'true');
    assert.deepEqual(sent!.body.allowed_mentions, { parse: [] });
    assert.match(sent!.body.content, /Remote Work Productivity/);
    assert.equal(sent!.body.embeds[0].url, published.link);
    assert.equal(sent!.body.embeds[0].description, data.meta_description);
    assert.equal(discord.messages.length, 1);
    assert.deepEqual(data.destinations.discord, {
      requested: true,
      status: 'sent',
      message_id: discord.messages[0]!.id,
    });
  });

  void test('the same Idempotency-Key replays the answer: charged, published and announced once', async () => {
    const before = await balance(publishing);
    const calls = llm.bodies.length;
    const again = await post(publishing, body, { key });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.equal(again.body.meta.replayed, true);
    assert.equal(again.body.data.article_id, first.body.data.article_id);
    assert.deepEqual(again.body.data.destinations, first.body.data.destinations);
    assert.equal(await balance(publishing), before);
    assert.equal(llm.bodies.length, calls);
    assert.equal(wordpress.posts.length, 1);
    assert.equal(discord.messages.length, 1);
  });

  void test('an article that fails its quality gates is a 422 naming each gate, and costs nothing', async () => {
    llm.reply = SHORT_ARTICLE;
    const before = await balance(publishing);
    const calls = llm.bodies.length;
    const failKey = `article-short-${randomUUID()}`;
    const res = await post(publishing, { ...body, topic: 'remote work productivity tips' }, { key: failKey });
    const error = assertError(res, 422, 'ARTICLE_QUALITY_FAILED');
    assert.equal(error.retryable, true);
    assert.equal(error.details.charged_usd_cents, 0);
    assert.ok(error.details.failed_gates.includes('length'));
    assert.ok(error.details.failed_gates.includes('heading_structure'));
    const length = error.details.gates.find((g: any) => g.gate === 'length');
    assert.deepEqual(length.threshold, { min_words: 300 });
    assert.ok(length.value.words < 300);
    assert.match(error.message, /length/);
    // One draft and one revision, then the refusal; nothing charged, published or announced.
    assert.equal(llm.bodies.length, calls + 2);
    assert.match(JSON.stringify(llm.bodies.at(-1).messages), /failed these quality checks/);
    assert.equal(await balance(publishing), before);
    assert.equal(wordpress.posts.length, 1);
    assert.equal(discord.messages.length, 1);
    const replayed = await post(
      publishing,
      { ...body, topic: 'remote work productivity tips' },
      { key: failKey },
    );
    assertError(replayed, 422, 'ARTICLE_QUALITY_FAILED');
    assert.equal(replayed.headers.get('x-idempotent-replay'), 'true');
    assert.equal(llm.bodies.length, calls + 2);
  });

  void test('a WordPress failure after writing is reported under its destination; the article stays charged', async () => {
    llm.reply = GOOD_ARTICLE;
    wordpress.mode = 'down';
    try {
      const before = await balance(publishing);
      const res = await post(publishing, body);
      assert.equal(res.status, 200, res.text);
      const { wordpress: wp, discord: dc } = res.body.data.destinations;
      assert.equal(wp.status, 'failed');
      assert.equal(wp.error.code, 'unavailable');
      assert.equal(wp.error.retryable, true);
      assert.match(wp.error.message, /HTTP 503/);
      assert.equal(dc.status, 'sent');
      assert.equal(discord.requests.at(-1)!.body.embeds[0].url, undefined);
      assert.equal(await balance(publishing), before - 10);
    } finally {
      wordpress.mode = 'ok';
    }
  });

  void test('an LLM that fails is a free 503; the same key may be sent again', async () => {
    const before = await balance(publishing);
    const retryKey = `article-down-${randomUUID()}`;
    llm.down = true;
    try {
      const error = assertError(
        await post(publishing, body, { key: retryKey }),
        503,
        'ARTICLE_WRITER_UNAVAILABLE',
      );
      assert.equal(error.retryable, true);
      assert.match(error.message, /HTTP 500|answered 500/);
    } finally {
      llm.down = false;
    }
    assert.equal(await balance(publishing), before);
    const posts = wordpress.posts.length;
    const retried = await post(publishing, body, { key: retryKey });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.headers.get('x-idempotent-replay'), null);
    assert.equal(wordpress.posts.length, posts + 1);
    assert.equal(await balance(publishing), before - 10);
  });
});
