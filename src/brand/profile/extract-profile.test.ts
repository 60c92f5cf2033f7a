import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import type { BrandTextInput, BrandTextRefinement, BrandTextRefiner } from './brand-text-refiner.ts';
import { crawlOfPages } from './crawl-of-pages.ts';
import { analyzeProfile, extractProfile } from './extract-profile.ts';
import { isIndustryId } from './industries.ts';
import { isTone } from './tones.ts';

const HOME = `<!doctype html><html lang="en"><head>
  <title>Lotus Studio | Yoga and pilates in Brooklyn</title>
  <meta name="description" content="Vinyasa, reformer pilates and breathwork classes for every body.">
  <meta name="theme-color" content="#7c3aed">
  <link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Nunito:wght@400;700&display=swap">
  <style>:root{--brand:#7c3aed;--accent:#f59e0b}body{font-family:Nunito,sans-serif;background:#fffdf7}
    .btn{background:var(--brand);color:#fff}.badge{background:var(--accent)}</style>
</head><body>
  <header><a href="/"><img src="/logo.svg" alt="Lotus Studio logo"></a><nav><a href="/classes">Classes</a></nav></header>
  <main><h1>Breathe, move, rest</h1>
    <p>Gentle vinyasa flow and reformer pilates classes in the heart of Brooklyn. Calm, mindful movement for beginners.</p>
    <a class="btn" href="/book">Book your first class</a><span class="badge">New</span>
    <h2>Reformer pilates for core strength</h2><p>Small classes on the reformer build strength and balance.</p>
    <h2>Breathwork workshops</h2><p>Learn breathing techniques that calm a busy mind.</p>
  </main></body></html>`;

const crawl = crawlOfPages([{ url: 'https://lotus.test/', html: HOME }]);

class StubRefiner implements BrandTextRefiner {
  inputs: BrandTextInput[] = [];
  constructor(private readonly answer: BrandTextRefinement) {}
  async refine(input: BrandTextInput): Promise<BrandTextRefinement> {
    this.inputs.push(input);
    return this.answer;
  }
}

describe('extractProfile', () => {
  test('a small site: every field present, extracted from the page, within its range', async () => {
    const profile = await extractProfile(crawl, { logoColors: [], logoUrl: 'https://cdn.test/logo.png' });
    assert.equal(profile.name, 'Lotus Studio');
    assert.equal(profile.url, 'https://lotus.test/');
    assert.equal(profile.tagline, 'Breathe, move, rest');
    assert.equal(profile.industry, 'yoga_pilates');
    assert.equal(profile.colors.primary, '#7C3AED');
    assert.equal(profile.colors.accent, '#F59E0B');
    assert.equal(profile.colors.background, '#FFFDF7');
    assert.deepEqual(profile.fonts, { headline: 'Nunito', body: 'Nunito' });
    assert.ok(profile.audience.length >= 2 && profile.audience.length <= 5);
    assert.ok(profile.tone.length >= 2 && profile.tone.length <= 4);
    assert.ok(profile.tone.includes('calm'), profile.tone.join());
    assert.ok(profile.topic_pool.length >= 20 && profile.topic_pool.length <= 40);
    assert.ok(profile.topic_pool.includes('Reformer pilates for core strength'));
    assert.match(profile.voice.recommendation, /^(flite|festival):/);
    assert.ok(profile.video_styles.includes('calm'));
    assert.ok(!profile.video_styles.some((s) => profile.anti_styles.includes(s)));
    assert.equal(profile.logo_url, 'https://cdn.test/logo.png');
  });

  test('deterministic without a refiner; the report says how much of the pool came from the site', async () => {
    const a = await analyzeProfile(crawl, { logoColors: ['#7C3AED'], logoUrl: null });
    const b = await analyzeProfile(crawl, { logoColors: ['#7C3AED'], logoUrl: null });
    assert.deepEqual(a, b);
    assert.equal(a.report.refined, false);
    assert.ok(a.report.topicsFromSite >= 3 && a.report.topicsFromSite < a.profile.topic_pool.length);
    assert.equal(a.report.industryScores[0]?.id, 'yoga_pilates');
  });

  test("a refiner's answer is used within the rules; a wrong industry or tone never gets through", async () => {
    const refiner = new StubRefiner({
      industry: 'wellness_spa',
      audience: ['new yogis', 'busy parents in Brooklyn'],
      tone: ['calm', 'serene-ish', 'warm'],
      topic_pool: ['Breathing for sleep', 'Your first reformer class'],
    });
    const profile = await extractProfile(crawl, { logoColors: [], logoUrl: null, refiner });
    assert.equal(profile.industry, 'wellness_spa');
    assert.deepEqual(profile.audience, ['new yogis', 'busy parents in Brooklyn']);
    assert.deepEqual(profile.tone, ['calm', 'warm']);
    assert.deepEqual(profile.topic_pool.slice(0, 2), ['Breathing for sleep', 'Your first reformer class']);
    assert.ok(profile.topic_pool.length >= 20);

    const input = refiner.inputs[0]!;
    assert.equal(input.name, 'Lotus Studio');
    assert.equal(input.language, 'en');
    assert.match(input.excerpt, /Reformer pilates for core strength/);
    assert.equal(input.draft.industry, 'yoga_pilates');
    assert.ok(input.industries.length >= 80);

    const wrong = await extractProfile(crawl, {
      logoColors: [],
      logoUrl: null,
      refiner: new StubRefiner({ industry: 'yoga', audience: [], tone: ['zen'], topic_pool: [] }),
    });
    assert.equal(wrong.industry, 'yoga_pilates');
    assert.ok(isIndustryId(wrong.industry));
    assert.ok(wrong.tone.length >= 2 && wrong.tone.every(isTone));
    assert.ok(wrong.audience.length >= 2);
  });

  test('a refiner failure reaches the caller; an aborted signal stops the work', async () => {
    const failing: BrandTextRefiner = {
      refine: async () => {
        throw new Error('provider down');
      },
    };
    await assert.rejects(
      extractProfile(crawl, { logoColors: [], logoUrl: null, refiner: failing }),
      /provider down/,
    );
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      extractProfile(crawl, { logoColors: [], logoUrl: null, signal: controller.signal }),
      (err: Error) => err.name === 'AbortError',
    );
  });

  test('a Japanese page (the fixture stored in Shift_JIS): name, tagline and headings read, a Japanese voice', async () => {
    const bytes = readFileSync(
      new URL('../../../test/fixtures/brand-site/encodings/shift-jis-header.html', import.meta.url),
    );
    const html = new TextDecoder('shift_jis').decode(bytes);
    const profile = await extractProfile(crawlOfPages([{ url: 'https://kitakaze.test/', html }]), {
      logoColors: [],
      logoUrl: null,
    });
    assert.equal(profile.name, '北風会計');
    assert.equal(profile.tagline, '中小企業のための会計ソフト');
    assert.equal(profile.topic_pool[0], '中小企業のための会計ソフト');
    assert.ok(profile.topic_pool.length >= 20 && profile.topic_pool.length <= 40);
    assert.match(profile.voice.recommendation, /^espeak:ja:/);
  });
});
