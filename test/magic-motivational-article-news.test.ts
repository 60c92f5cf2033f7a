import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { listVoices } from '../src/media/voice/voice-catalogue.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo } from './support/media-files.ts';
import { startTestService, waitForJob, type TestResponse, type TestService } from './support/test-service.ts';

// The other stock-engine modes end to end: one real 15 s render each (Magic, motivational, article-to-video,
// news), submitted together so they render side by side, plus cheap validation and dry-run checks.

const NEWS_PAGE = `<!doctype html>
<html lang="en"><head>
<title>Harbour city opens floating solar farm | Coastal Courier</title>
<meta property="og:site_name" content="Coastal Courier">
<script>var tracking = "Subscribe now to read every article without limits";</script>
<style>.x { color: red }</style>
</head><body>
<nav><a href="/">Home</a> <a href="/news">Latest headlines from the harbour and beyond today</a></nav>
<div class="cookie-consent"><p>We use cookies on this site to improve your reading experience.</p></div>
<main><article>
<h1>Harbour city opens floating solar farm</h1>
<p>Porthaven switched on a floating solar farm in the old dock basin on Tuesday.</p>
<p>The cool water lifts the panels' output on hot days, engineers say.</p>
</article></main>
<aside><p>Most read: ten things to do in Porthaven this weekend with the whole family.</p></aside>
<footer><p>All rights reserved by the Coastal Courier publishing group and partners.</p></footer>
</body></html>`;

const ARTICLE_MARKDOWN = [
  '# Why Bread Rises',
  '',
  '**Yeast** eats the sugar in [flour](https://example.com/flour) and breathes out gas.',
  '',
  '![a loaf](https://example.com/loaf.jpg)',
  '',
  '```',
  'oven.preheat(220)',
  '```',
  '',
  '- The gas gets trapped by *gluten*, a stretchy web of proteins.',
  '- Warmth speeds it all up, so dough rises faster in a warm kitchen than in a cold one.',
  '',
  'Salt slows the yeast down, which is why bakers weigh it carefully before mixing any dough at all.',
].join('\n');
const CTA = 'Bake a loaf this weekend.';
const ACCENT = '#22C55E';

let service: TestService;
let server: http.Server;
let base: string;
let dir: string;
const receipts: Record<string, TestResponse> = {};
const jobs: Record<string, Promise<any>> = {};
/** Jobs of a second account that fail before rendering (submitted first, so they do not wait behind renders). */
const failing: Record<string, Promise<any>> = {};
let otherKey: string;

async function post(
  path: string,
  body: Record<string, unknown>,
  key: string | undefined = `k-${Math.random()}`,
  apiKey?: string,
): Promise<TestResponse> {
  return service.call('POST', path, {
    body,
    headers: key ? { 'idempotency-key': key } : {},
    ...(apiKey ? { key: apiKey } : {}),
  });
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.text();
}

async function downloadVideo(url: string, name: string) {
  return probeMedia(await downloadTo(url, join(dir, name)));
}

const fileLink = (job: any, name: string): string =>
  job.artifacts.output_files.find((f: { name: string }) => f.name === name).url;
/** Awaited later by a test; marked handled now so a failure before then is not an unhandled rejection. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-modes-'));
  await writeFile(join(dir, 'harbour.html'), NEWS_PAGE);
  await writeFile(join(dir, 'not-audio.mp3'), 'this is text, not audio');
  const bed = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=4',
    '-c:a',
    'aac',
    join(dir, 'bed.m4a'),
  ]);
  assert.equal(bed.status, 0, bed.stderr.toString());
  const logo = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=green:s=160x60',
    '-frames:v',
    '1',
    join(dir, 'logo.png'),
  ]);
  assert.equal(logo.status, 0, logo.stderr.toString());
  server = http.createServer((req, res) => {
    const file = join(dir, (req.url ?? '/').slice(1));
    if (!existsSync(file)) return void res.writeHead(404).end('not here');
    res.writeHead(200, {
      'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const brand = { name: 'Acme Bakery', accent_color: ACCENT, logo_url: `${base}/logo.png` };
  await service.runtime.database.db
    .updateTable('accounts')
    .set({ brand: JSON.stringify(brand) })
    .where('id', '=', service.account.account_id)
    .execute();

  otherKey = (await service.newAccount()).live_key;
  const missing = await post(
    '/api/v1/videos/news',
    { sourceUrl: `${base}/gone.html`, duration: '30s' },
    'news-missing-page',
    otherKey,
  );
  const notAudio = await post(
    '/api/v1/videos/news',
    { sourceUrl: `${base}/harbour.html`, backgroundMusicUrl: `${base}/not-audio.mp3` },
    'news-not-audio',
    otherKey,
  );
  failing.missing = later(
    waitForJob(service, missing.body.data.job_id, { timeoutMs: 120_000, key: otherKey }),
  );
  failing.notAudio = later(
    waitForJob(service, notAudio.body.data.job_id, { timeoutMs: 120_000, key: otherKey }),
  );

  // The four real renders start now and run two at a time while the cheap tests below go on.
  receipts.magic = await post('/api/v1/videos/magic', {
    topic: 'three habits of focused people',
    duration_target_sec: 15,
    aspect_ratio: '1:1',
    include_hook: false,
  });
  receipts.motivational = await post('/api/v1/videos/motivational', {
    quote: 'Fear is a liar. Be brave and take the leap today.',
  });
  receipts.article = await post('/api/v1/blog-to-video', {
    headline: 'Why Bread Rises',
    article_markdown: ARTICLE_MARKDOWN,
    cta: CTA,
    duration_target_sec: 15,
    brand: { accent_color: '#FF0000' },
  });
  receipts.news = await post('/api/v1/videos/news', {
    sourceUrl: `${base}/harbour.html`,
    format: 'single',
    duration: '30s',
    backgroundMusicUrl: `${base}/bed.m4a`,
  });
  for (const [mode, receipt] of Object.entries(receipts)) {
    if (receipt.body?.data?.job_id)
      jobs[mode] = later(waitForJob(service, receipt.body.data.job_id, { timeoutMs: 480_000 }));
  }
});

after(async () => {
  await Promise.allSettled([...Object.values(jobs), ...Object.values(failing)]);
  await service.stop();
  await new Promise((resolve) => server.close(resolve));
});

void describe('receipts, prices and real renders', () => {
  void test('Magic: 200 receipt with top-level jobId/videoId, $0.60, account brand accent colour, always 9:16', async () => {
    const receipt = receipts.magic!;
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.body.jobId, receipt.body.data.job_id);
    assert.equal(receipt.body.videoId, receipt.body.data.video_id);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '60');
    assert.equal(receipt.headers.get('x-api-credits-tool'), 'videos/magic');
    const job = await jobs.magic!;
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.operation, 'magic');
    assert.equal(job.artifacts.aspectRatio, '9:16');
    assert.deepEqual(job.artifacts.brand, { source: 'account' });
    const info = await downloadVideo(job.artifacts.videoUrl, 'magic.mp4');
    assert.deepEqual([info.video?.width, info.video?.height], [1080, 1920]);
    assert.ok(Math.abs(info.durationSec - 15) <= 1.5, `duration ${info.durationSec}`);
    // #22C55E as an ASS override colour (blue, green, red): the spoken word is drawn in the brand accent.
    const ass = await fetchText(fileLink(job, 'captions.ass'));
    assert.ok(ass.includes('&H5EC522&'), 'captions use the account brand accent colour');
  });

  void test('motivational: 200 receipt with top-level jobId, $0.60, the quote said after a hook', async () => {
    const receipt = receipts.motivational!;
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.body.jobId, receipt.body.data.job_id);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '60');
    const job = await jobs.motivational!;
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const lines = job.artifacts.script.split('\n');
    assert.equal(lines.length, 2);
    assert.equal(lines[0], job.artifacts.hook);
    assert.equal(lines[1], 'Fear is a liar. Be brave and take the leap today.');
    assert.equal(job.artifacts.quoteSource, 'sent');
    assert.equal(job.artifacts.theme, 'courage');
    assert.equal(job.artifacts.clipType, 'motivational');
    const info = await downloadVideo(job.artifacts.videoUrl, 'motivational.mp4');
    assert.deepEqual([info.video?.width, info.video?.height], [1080, 1920]);
    assert.ok(info.durationSec >= 14.9 && info.durationSec <= 20, `duration ${info.durationSec}`);
  });

  void test('article: 202 receipt, $0.50, markdown stripped, title first and cta last', async () => {
    const receipt = receipts.article!;
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '50');
    assert.equal(receipt.body.data.price_usd_cents, 50);
    const job = await jobs.article!;
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const script: string = job.artifacts.script;
    const lines = script.split('\n');
    assert.equal(lines[0], 'Why Bread Rises.');
    assert.equal(lines.at(-1), CTA);
    assert.equal(lines[1], 'Yeast eats the sugar in flour and breathes out gas.');
    for (const markup of ['**', '](', '![', '```', 'http', 'oven.preheat', '#', '*'])
      assert.ok(!script.includes(markup), `"${markup}" in ${script}`);
    assert.deepEqual(job.artifacts.article.narration.source, 'article_text');
    // The account brand is used; the brand sent with the request (red) is not.
    const ass = await fetchText(fileLink(job, 'captions.ass'));
    assert.ok(ass.includes('&H5EC522&') && !ass.includes('&H0000FF&'));
    const info = await downloadVideo(job.artifacts.videoUrl, 'article.mp4');
    assert.ok(info.durationSec >= 14.9 && info.durationSec <= 20, `duration ${info.durationSec}`);
  });

  void test('news: 202 receipt, $0.60, the page fetched and its own sentences narrated over the caller’s music', async () => {
    const receipt = receipts.news!;
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '60');
    const job = await jobs.news!;
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(
      job.artifacts.script,
      [
        'Harbour city opens floating solar farm.',
        'Porthaven switched on a floating solar farm in the old dock basin on Tuesday.',
        "The cool water lifts the panels' output on hot days, engineers say.",
        'Source: Coastal Courier.',
      ].join('\n'),
    );
    assert.equal(job.artifacts.music.id, 'backgroundMusicUrl');
    assert.equal(job.artifacts.news.siteName, 'Coastal Courier');
    const info = await downloadVideo(job.artifacts.videoUrl, 'news.mp4');
    assert.equal(info.audio?.codec, 'aac');
    assert.ok(info.durationSec >= 14.9 && info.durationSec <= 20, `duration ${info.durationSec}`);
  });
});

void describe('refusals before charging', () => {
  void test('private delivery is 422 on Magic, motivational and article-to-video; webhook_url is 400', async () => {
    const before = await balance();
    const routes: [string, Record<string, unknown>][] = [
      ['/api/v1/videos/magic', { topic: 'focus' }],
      ['/api/v1/videos/motivational', { quote: 'Keep going.' }],
      ['/api/v1/blog-to-video', { article_text: 'A short article.' }],
    ];
    for (const [path, body] of routes) {
      const privateDelivery = await post(path, { ...body, delivery: { visibility: 'private' } });
      assert.equal(privateDelivery.status, 422, `${path}: ${privateDelivery.text}`);
      assert.equal(privateDelivery.body.error.code, 'PRIVATE_DELIVERY_UNAVAILABLE');
      const aliasPrivate = await post(path, { ...body, private_cdn: true });
      assert.equal(aliasPrivate.status, 422, `${path}: ${aliasPrivate.text}`);
      for (const field of ['webhook_url', 'webhookUrl']) {
        const hook = await post(path, { ...body, [field]: 'https://hooks.example.com/done' });
        assert.equal(hook.status, 400, `${path}: ${hook.text}`);
        assert.ok(
          hook.body.error.details.fields.some((f: { field: string }) => f.field === 'webhook_url'),
          hook.text,
        );
      }
    }
    assert.equal(await balance(), before);
  });

  void test('invalid bodies name their fields', async () => {
    const french = listVoices().find((v) => v.language === 'fr')!.id;
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/v1/videos/magic', { script: 'Only a script.' }, 'topic'],
      ['/api/v1/videos/magic', { topic: 'x', aspect_ratio: '4:5' }, 'aspect_ratio'],
      ['/api/v1/videos/magic', { topic: 'x', duration_target_sec: 200 }, 'duration_sec'],
      ['/api/v1/videos/motivational', { clipType: 'moon' }, 'clipType'],
      ['/api/v1/videos/motivational', { voice_id: french }, 'voice_id'],
      ['/api/v1/videos/motivational', { voice_id: 'nobody' }, 'voice_id'],
      ['/api/v1/blog-to-video', { duration_target_sec: 30 }, 'article_text'],
      ['/api/v1/blog-to-video', { article_text: '![only](a.png)\n\n```\ncode\n```' }, 'article_text'],
      ['/api/v1/blog-to-video', { article_url: 'ftp://example.com/post' }, 'article_url'],
      ['/api/v1/blog-to-video', { article_text: 'Text.', aspect_ratio: '16:9' }, 'aspect_ratio'],
      ['/api/v1/videos/news', { format: 'single' }, 'sourceUrl'],
      ['/api/v1/videos/news', { keywords: ['ai'], duration: '45s' }, 'duration'],
      ['/api/v1/videos/news', { keywords: ['ai'], format: 'daily' }, 'format'],
      ['/api/v1/videos/news', { sourceUrl: 'https://10.0.0.1/story' }, 'sourceUrl'],
      ['/api/v1/videos/news', { keywords: ['ai'], voiceId: 'nobody' }, 'voiceId'],
    ];
    const before = await balance();
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      assert.equal(response.status, 400, `${path} ${JSON.stringify(body)} → ${response.text.slice(0, 300)}`);
      assert.ok(
        response.body.error.details.fields.some((f: { field: string }) => f.field === field),
        `${field}: ${response.text}`,
      );
    }
    assert.equal(await balance(), before);
  });

  void test('news jobs whose source or music cannot be used fail with a clear error and are refunded', async () => {
    const [a, b] = await Promise.all([failing.missing!, failing.notAudio!]);
    assert.equal(a.status, 'failed');
    assert.equal(a.error.code, 'INPUT_FETCH_FAILED');
    assert.match(a.error.message, /sourceUrl: the page answered HTTP 404/);
    assert.equal(b.status, 'failed');
    assert.equal(b.error.code, 'INPUT_INVALID_MEDIA');
    assert.match(b.error.message, /backgroundMusicUrl/);
    const usage = await service.call('GET', '/api/v1/usage', { key: otherKey });
    assert.equal(usage.body.data.balance_usd_cents, 100_000);
  });
});

void describe('dry runs: aliases folded with a warning each, prices from the one table', () => {
  const dryRun = async (path: string, body: Record<string, unknown>) => {
    const response = await post(path, { ...body, dry_run: true }, undefined);
    assert.equal(response.status, 200, response.text);
    return response.body.data as {
      normalized_request: Record<string, any>;
      warnings: string[];
      price: { usd_cents: number };
    };
  };
  const warned = (warnings: string[], text: string) =>
    assert.ok(
      warnings.some((w) => w.includes(text)),
      `no warning with ${text}: ${JSON.stringify(warnings)}`,
    );

  void test('Magic', async () => {
    const data = await dryRun('/api/v1/videos/magic', {
      prompt: 'morning routines',
      duration_target_sec: 20,
      aspectRatio: '16:9',
      clipType: 'tech/ai',
      brand: { accent_color: '#FF0000' },
    });
    assert.equal(data.price.usd_cents, 60);
    assert.equal(data.normalized_request.duration_sec, 20);
    assert.equal(data.normalized_request.aspect_ratio, '16:9');
    assert.equal(data.normalized_request.clip_type, 'tech/ai');
    assert.equal(data.normalized_request.brand, undefined);
    for (const alias of [
      '"duration_target_sec"',
      '"aspectRatio"',
      '"clipType"',
      '"brand" is ignored',
      'always rendered 9:16',
    ])
      warned(data.warnings, alias);
  });

  void test('motivational', async () => {
    const voice = listVoices().find((v) => v.language === 'en')!.id;
    const data = await dryRun('/api/v1/videos/motivational', {
      topic: 'Discipline is remembering what you want.',
      include_music: false,
      include_hook: false,
      clip_type: 'mindset/stoic',
      voice,
      include_captions: false,
      caption_style: 'classic',
    });
    assert.equal(data.price.usd_cents, 60);
    assert.deepEqual(
      { ...data.normalized_request, caption_style: data.normalized_request.caption_style.preset },
      {
        quote: 'Discipline is remembering what you want.',
        includeMusic: false,
        includeHook: false,
        clipType: 'mindset/stoic',
        voice_id: voice,
        captions: false,
        caption_style: 'none',
        includeSvcBranding: true,
        listing: 'private',
      },
    );
    for (const alias of [
      '"topic"',
      '"include_music"',
      '"include_hook"',
      '"clip_type"',
      '"voice"',
      '"include_captions"',
    ])
      warned(data.warnings, alias);
    const written = await dryRun('/api/v1/videos/motivational', {});
    assert.equal(written.normalized_request.clipType, 'motivational');
    warned(written.warnings, 'writes an original one');
  });

  void test('article-to-video', async () => {
    const data = await dryRun('/api/v1/blog-to-video', {
      url: 'https://blog.example.com/2024/05/why-bread-rises.html',
      headline: 'Why Bread Rises',
      markdown: ARTICLE_MARKDOWN,
      excerpt: 'Yeast makes gas.',
      cta: { text: CTA },
      include_captions: true,
      caption_position: 'middle',
      music_volume: 0.2,
      progress_bar_enabled: true,
      duration_target_sec: 45,
      brand: { name: 'Other' },
    });
    const n = data.normalized_request;
    assert.equal(data.price.usd_cents, 50);
    assert.equal(n.article_url, 'https://blog.example.com/2024/05/why-bread-rises.html');
    assert.equal(n.article_title, 'Why Bread Rises');
    assert.equal(n.article_text, ARTICLE_MARKDOWN);
    assert.equal(n.article_summary, 'Yeast makes gas.');
    assert.equal(n.cta_text, CTA);
    assert.equal(n.caption_style.position, 'center');
    assert.deepEqual(n.music, { enabled: true, volume: 0.2 });
    assert.equal(n.progress_bar.enabled, true);
    assert.equal(n.duration_sec, 45);
    for (const alias of [
      '"url"',
      '"headline"',
      '"markdown"',
      '"excerpt"',
      '"cta"',
      '"include_captions"',
      '"caption_position"',
      '"music_volume"',
      '"progress_bar_enabled"',
      '"duration_target_sec"',
      '"brand" is ignored',
      'recorded with the video, not fetched',
    ]) {
      warned(data.warnings, alias);
    }
    const long = await dryRun('/api/v1/blog-to-video', {
      article_text: 'This sentence has exactly seven words here. '.repeat(40),
      duration_target_sec: 15,
    });
    warned(long.warnings, 'The narration reads the first 3 of 40 sentences');
    const urlOnly = await dryRun('/api/v1/blog-to-video', {
      article_url: 'https://blog.example.com/2024/05/how-to-brew-coffee.html',
    });
    warned(urlOnly.warnings, 'the script is written about "how to brew coffee"');
  });

  void test('news: camelCase fields are kept, snake_case spellings fold into them', async () => {
    const voice = listVoices().find((v) => v.language === 'en')!.id;
    const data = await dryRun('/api/v1/videos/news', {
      source_url: `${base}/harbour.html`,
      aspectRatio: '1:1',
      duration: '90s',
      voice,
      niches: ['tech/ai', 'robots'],
      keywords: ['chips'],
      captions: false,
      delivery: { visibility: 'private' },
    });
    const n = data.normalized_request;
    assert.equal(data.price.usd_cents, 60);
    assert.deepEqual(
      {
        sourceUrl: n.sourceUrl,
        aspectRatio: n.aspectRatio,
        duration: n.duration,
        voiceId: n.voiceId,
        format: n.format,
        delivery: n.delivery,
      },
      {
        sourceUrl: `${base}/harbour.html`,
        aspectRatio: '1:1',
        duration: '90s',
        voiceId: voice,
        format: 'single',
        delivery: { visibility: 'private' },
      },
    );
    for (const absent of ['aspect_ratio', 'duration_sec', 'voice_id', 'captions'])
      assert.equal(n[absent], undefined, absent);
    for (const text of ['"source_url"', '"voice"', '"captions" is ignored']) warned(data.warnings, text);
    assert.ok(
      !data.warnings.some(
        (w) => w.includes('"aspectRatio"') || w.includes('"duration"') || w.includes('9:16'),
      ),
      JSON.stringify(data.warnings),
    );
  });

  void test('/tools lists the four modes with their prices', async () => {
    const tools = (await service.call('GET', '/api/v1/tools', { key: null })).body.data.tools as {
      name: string;
      path: string;
      price_usd_cents: number;
    }[];
    const byName = Object.fromEntries(tools.map((t) => [t.name, [t.path, t.price_usd_cents]]));
    assert.deepEqual(
      { magic: byName.magic, motivational: byName.motivational, article: byName.article, news: byName.news },
      {
        magic: ['/api/v1/videos/magic', 60],
        motivational: ['/api/v1/videos/motivational', 60],
        article: ['/api/v1/blog-to-video', 50],
        news: ['/api/v1/videos/news', 60],
      },
    );
  });
});
