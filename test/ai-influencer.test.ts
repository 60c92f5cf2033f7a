import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { measureLoudness } from '../src/media/ffmpeg/measure.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { detectFaces } from '../src/media/vision/index.ts';
import { productModes } from '../src/modes/index.ts';
import { startHeyGenServer, type HeyGenServer } from './support/heygen-server.ts';
import {
  PALETTE,
  startImageModelServer,
  type ImageModelServer,
  type Rgb,
} from './support/image-model-server.ts';
import { downloadTo, frameRgb } from './support/media-files.ts';
import { cutRaw, MAN_AT_TABLE, SAMPLES } from './support/sample-photos.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /videos/ai-influencer (spec 1 §4.5) through the whole API: a persona made from a real photo, rendered by
// the local talking-head engine as a talking head and in the presenter layouts, a photo on the hosted avatar_iv
// engine (a local server speaking HeyGen's v3 protocol), and the free refusals, checked on the finished files.

let service: TestService;
let heygen: HeyGenServer;
let files: http.Server;
let fileBase: string;
let dir: string;
let avatarId: string;

const SHORT_SCRIPT =
  'Here is one thing most people get wrong about sleep. Your body loves a fixed wake up time. Try it for one week.';

before(async () => {
  heygen = await startHeyGenServer();
  service = await startTestService({
    modes: productModes,
    env: {
      RENDER_PRESET: 'ultrafast',
      HEYGEN_API_KEY: heygen.apiKey,
      HEYGEN_BASE_URL: heygen.baseUrl,
      AVATAR_POLL_SECONDS: '0.1',
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'ai-influencer-'));
  const man = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 844 });
  const photo = await sharp(man.data, { raw: { width: man.width, height: man.height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  const logo = await sharp({
    create: { width: 400, height: 400, channels: 4, background: { r: 230, g: 40, b: 90, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const served: Record<string, { type: string; body: Buffer }> = {
    '/man.jpg': { type: 'image/jpeg', body: photo },
    '/logo.png': { type: 'image/png', body: logo },
  };
  files = http.createServer((req, res) => {
    const file = served[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  fileBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const created = await service.call('POST', '/api/v1/avatars', {
    body: { image_url: `${fileBase}/man.jpg`, name: 'Sam' },
    headers: { 'idempotency-key': 'persona-sam-1' },
  });
  assert.equal(created.status, 201, created.text);
  avatarId = created.body.data.avatar_id;
});

after(async () => {
  await service.stop();
  await heygen.close();
  await new Promise((resolve) => files.close(resolve));
});

const post = (body: Record<string, unknown>, key = `influencer-${Math.random()}`) =>
  service.call('POST', '/api/v1/videos/ai-influencer', { body, headers: { 'idempotency-key': key } });

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

async function finishedVideo(jobId: string, name: string): Promise<{ path: string; job: any }> {
  const job = await waitForJob(service, jobId, { timeoutMs: 300_000 });
  assert.equal(job.status, 'completed', JSON.stringify(job.error ?? job));
  const path = await downloadTo(job.artifacts.videoUrl, join(dir, `${name}.mp4`));
  return { path, job };
}

/** Share of a region's pixels in the logo's red (230, 40, 90), give or take shading. */
/**
 * Share of a region's pixels within a few levels of the logo's flat colour as decoded: its (230, 40, 90)
 * reads back as about (245, 60, 89) after the video's YUV round trip.
 */
function flatLogoShare(
  frame: Buffer,
  width: number,
  box: { x: number; y: number; w: number; h: number },
): number {
  let flat = 0;
  let count = 0;
  for (let y = box.y; y < box.y + box.h; y += 2)
    for (let x = box.x; x < box.x + box.w; x += 2) {
      const i = (y * width + x) * 3;
      if (
        Math.abs(frame[i]! - 245) < 20 &&
        Math.abs(frame[i + 1]! - 60) < 20 &&
        Math.abs(frame[i + 2]! - 89) < 20
      )
        flat++;
      count++;
    }
  return flat / count;
}

function redShare(frame: Buffer, width: number, box: { x: number; y: number; w: number; h: number }): number {
  let red = 0;
  let count = 0;
  for (let y = box.y; y < box.y + box.h; y += 2)
    for (let x = box.x; x < box.x + box.w; x += 2) {
      const i = (y * width + x) * 3;
      if (frame[i]! > 150 && frame[i + 1]! < 110 && frame[i + 2]! < 150) red++;
      count++;
    }
  return red / count;
}

void describe('AI influencer on the local talking-head engine', () => {
  void test('a talking head: 1080×1920, the persona face in frame, narration at -14 LUFS, priced by words', async () => {
    const start = await balance();
    const receipt = await post({ avatar_id: avatarId, script: SHORT_SCRIPT });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-engine'), 'avatar_iii');
    const price = Number(receipt.headers.get('x-api-credits-cost-usd-cents'));
    // 23 words at ~2.5 words/s is 9.2 s of speech, priced as 10 s: 10 × 100/30 cents, rounded up to 35.
    assert.equal(price, 35);
    assert.equal(receipt.body.data.price_usd_cents, price);
    assert.equal(start - (await balance()), price);

    const { path, job } = await finishedVideo(receipt.body.data.job_id, 'talking-head');
    const probed = await probeMedia(path);
    assert.equal(probed.video?.width, 1080);
    assert.equal(probed.video?.height, 1920);
    assert.ok(probed.durationSec > 5 && probed.durationSec < 15, `duration ${probed.durationSec}`);
    assert.equal(job.artifacts.layout, 'talking_head');
    assert.equal(job.artifacts.presenter.avatar_id, avatarId);
    const loudness = await measureLoudness(path);
    assert.ok(Math.abs(loudness.integratedLufs + 14) < 1.5, `loudness ${loudness.integratedLufs}`);

    for (const at of [1, probed.durationSec / 2, probed.durationSec - 1.5]) {
      const rgb = await frameRgb(path, at);
      const faces = await detectFaces({ data: new Uint8Array(rgb), width: 1080, height: 1920 });
      assert.equal(faces.length, 1, `one face at ${at.toFixed(1)} s`);
      const box = faces[0]!.box;
      assert.ok(box.x > 0 && box.y > 0 && box.x + box.width < 1080 && box.y + box.height < 1920);
      assert.ok(box.height > 1920 * 0.15, `face height ${box.height}`);
    }
  });

  void test('presenter_broll with a topic: a written hook-first script, creator layout with B-roll above the cut-out', async () => {
    const receipt = await post({
      avatar_id: avatarId,
      format: 'presenter_broll',
      topic: 'why a fixed wake-up time improves sleep',
      duration_sec: 15,
      brand: { name: 'Restful', logo_url: `${fileBase}/logo.png`, accent_color: '#E6285A' },
      outro_cta: 'Follow for more',
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(Number(receipt.headers.get('x-api-credits-cost-usd-cents')), 50);
    const { path, job } = await finishedVideo(receipt.body.data.job_id, 'creator');
    assert.equal(job.artifacts.layout, 'creator');
    assert.ok(job.artifacts.script.split(/\s+/).length >= 15, job.artifacts.script);
    assert.ok(job.artifacts.broll.shots.length >= 1);
    const probed = await probeMedia(path);
    assert.equal(probed.video?.height, 1920);
    // The outro card closes the video: its last second shows no face, the middle shows the presenter's.
    const middle = await frameRgb(path, 4);
    const faces = await detectFaces({ data: new Uint8Array(middle), width: 1080, height: 1920 });
    assert.equal(faces.length, 1);
    assert.ok(
      faces[0]!.box.y > 1920 * 0.45,
      `the presenter stands in the lower half (face at ${faces[0]!.box.y})`,
    );
    const corner = flatLogoShare(middle, 1080, { x: 780, y: 0, w: 300, h: 500 });
    assert.ok(corner > 0.1, `the brand logo stands in the top-right corner: ${corner}`);
    const last = await frameRgb(path, probed.durationSec - 0.5);
    const lastFaces = await detectFaces({ data: new Uint8Array(last), width: 1080, height: 1920 });
    assert.equal(lastFaces.length, 0, 'the outro card shows no face');
  });

  void test('cutaway at 16:9: the presenter full frame, B-roll cut in on sentence boundaries', async () => {
    const receipt = await post({
      avatar_id: avatarId,
      format: 'presenter_broll',
      script: SHORT_SCRIPT,
      aspect_ratio: '16:9',
      broll: { coverage: 0.4 },
    });
    assert.equal(receipt.status, 200, receipt.text);
    const { path, job } = await finishedVideo(receipt.body.data.job_id, 'cutaway');
    assert.equal(job.artifacts.layout, 'cutaway');
    const probed = await probeMedia(path);
    assert.equal(probed.video?.width, 1920);
    assert.equal(probed.video?.height, 1080);
    const rgb = await frameRgb(path, 0.8);
    const faces = await detectFaces({ data: new Uint8Array(rgb), width: 1920, height: 1080 });
    assert.equal(faces.length, 1, 'the hook sentence is on the presenter');
  });

  void test('a logo host in the creator layout: the logo colour where the presenter would stand', async () => {
    const receipt = await post({
      format: 'presenter_broll',
      script: SHORT_SCRIPT,
      host: { type: 'logo', logo_url: `${fileBase}/logo.png`, url_text: 'restful.example' },
      outro: false,
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-engine'), 'logo_host');
    const { path } = await finishedVideo(receipt.body.data.job_id, 'logo-host');
    const rgb = await frameRgb(path, 2);
    const faces = await detectFaces({ data: new Uint8Array(rgb), width: 1080, height: 1920 });
    assert.equal(faces.length, 0);
    // The host stands at the bottom left, where the presenter would; no corner logo (the host is the logo).
    const host = redShare(rgb, 1080, { x: 0, y: 900, w: 600, h: 700 });
    assert.ok(host > 0.1, `the logo's red fills the host region: ${host}`);
    // A corner logo is drawn flat, so it shows as the logo's exact colour top-right; the B-roll there is drawn
    // from the footage library, which may hold reddish clips, hence the tight tolerance.
    const corner = flatLogoShare(rgb, 1080, { x: 780, y: 0, w: 300, h: 500 });
    assert.ok(corner < 0.05, `no corner logo: ${corner} of the top-right corner is the logo's flat colour`);
  });
});

void describe('AI influencer on a hosted engine', () => {
  void test('a photo renders on avatar_iv through HeyGen v3 and is priced from the table', async () => {
    const receipt = await post({ image_url: `${fileBase}/man.jpg`, script: SHORT_SCRIPT, captions: false });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-engine'), 'avatar_iv');
    assert.equal(Number(receipt.headers.get('x-api-credits-cost-usd-cents')), 85);
    const { path, job } = await finishedVideo(receipt.body.data.job_id, 'hosted');
    assert.ok(job.artifacts.presenter.provider_job_id);
    assert.ok(heygen.requests.some((r) => r.method === 'POST' && r.path === '/v3/videos'));
    const probed = await probeMedia(path);
    assert.equal(probed.video?.height, 1920);
  });
});

void describe('AI influencer variations', () => {
  void test('count jobs at count times the price, one receipt; a resend reads the distinctness verdict for free', async () => {
    const body = {
      avatar_id: avatarId,
      format: 'presenter_broll',
      layout: 'split',
      topic: 'how a short walk after lunch helps focus',
      duration_sec: 15,
      music: false,
      variations: { count: 2 },
    };
    const start = await balance();
    const receipt = await post(body, 'variations-walk-1');
    assert.equal(receipt.status, 200, receipt.text);
    const data = receipt.body.data;
    assert.equal(data.job_ids.length, 2);
    assert.equal(data.job_id, data.job_ids[0]);
    assert.equal(data.price_usd_cents, 100);
    assert.deepEqual(data.distinctness, { status: 'pending' });
    assert.equal(start - (await balance()), 100);

    const jobs = await Promise.all(
      data.job_ids.map((id: string) => waitForJob(service, id, { timeoutMs: 300_000 })),
    );
    for (const job of jobs) assert.equal(job.status, 'completed', JSON.stringify(job.error ?? job));
    assert.notEqual(jobs[0].artifacts.script, jobs[1].artifacts.script);

    const again = await post(body, 'variations-walk-1');
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.deepEqual(again.body.data.job_ids, data.job_ids);
    assert.ok(['distinct', 'similar'].includes(again.body.data.distinctness.status), again.text);
    assert.equal(again.body.data.distinctness.pairs.length, 1);
    // Each variant's own receipt is kept under <key>:v<index>.
    const item = await post(body, 'variations-walk-1:v1');
    assert.equal(item.status, 200, item.text);
    assert.equal(item.headers.get('x-idempotent-replay'), 'true');
    assert.equal(item.body.data.job_id, data.job_ids[1]);
    assert.deepEqual(item.body.data.variant, { index: 1, count: 2 });
    assert.equal(item.body.data.price_usd_cents, 50);
    assert.equal(start - (await balance()), 100);
  });
});

void describe('AI influencer series', () => {
  void test('the first video fixes presenter, voice and engine; a repeated topic or another engine is a free 409', async () => {
    const kit = await service.call('POST', '/api/v1/b2b/brands', {
      body: { name: 'Series Co', brand_id: 'series-co' },
    });
    assert.equal(kit.status, 201, kit.text);
    const series = { avatar_id: avatarId, brand_id: 'series-co', series_id: 'sleep-tips' };
    const first = await post({ ...series, script: 'Sleep better tonight.', voice_id: 'espeak:en-us:male-1' });
    assert.equal(first.status, 200, first.text);

    const start = await balance();
    const repeated = await post({ ...series, script: 'Sleep  better tonight!', captions: false });
    assert.equal(repeated.status, 409, repeated.text);
    assert.equal(repeated.body.error.code, 'SERIES_TOPIC_REPEATED');
    const otherEngine = await post({ ...series, script: 'Wake up at seven.', engine: 'avatar_iv' });
    assert.equal(otherEngine.status, 409, otherEngine.text);
    assert.equal(otherEngine.body.error.code, 'SERIES_CONFLICT');
    const otherVoice = await post({
      ...series,
      script: 'Wake up at seven.',
      voice_id: 'espeak:en-gb:male-1',
    });
    assert.equal(otherVoice.status, 409, otherVoice.text);
    assert.equal(otherVoice.body.error.code, 'SERIES_CONFLICT');
    assert.equal(await balance(), start);

    // A later video that sends no voice takes the series' voice.
    const inherits = await post({ ...series, script: 'Wake up at seven.', dry_run: true });
    assert.equal(inherits.status, 200, inherits.text);
    assert.equal(inherits.body.data.normalized_request.voice_id, 'espeak:en-us:male-1');
    const job = await waitForJob(service, first.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error ?? job));
  });
});

void describe('AI influencer refusals are free', () => {
  const refusals: [string, Record<string, unknown>, number, string][] = [
    [
      'both presenters',
      { avatar_id: 'avatar_x', image_url: 'https://example.com/p.jpg', script: 'Hi.' },
      400,
      'INPUT_INVALID',
    ],
    [
      'progress bar on a talking head',
      { avatar_id: 'avatar_x', script: 'Hi.', progress_bar: true },
      400,
      'INPUT_INVALID',
    ],
    [
      'presenter_video_url',
      { avatar_id: 'avatar_x', script: 'Hi.', presenter_video_url: 'https://example.com/v.mp4' },
      400,
      'INPUT_INVALID',
    ],
    [
      'split at 16:9',
      { avatar_id: 'avatar_x', format: 'presenter_broll', topic: 'x', layout: 'split', aspect_ratio: '16:9' },
      400,
      'INPUT_INVALID',
    ],
    [
      'generated B-roll',
      { avatar_id: 'avatar_x', format: 'presenter_broll', topic: 'x', broll: { visuals: 'generated' } },
      400,
      'INPUT_INVALID',
    ],
  ];
  for (const [name, body, status, code] of refusals)
    void test(`${name} → ${status} ${code}`, async () => {
      const start = await balance();
      const response = await post(body);
      assert.equal(response.status, status, response.text);
      assert.equal(response.body.error.code, code);
      assert.equal(await balance(), start);
    });

  void test('an unknown or foreign persona → 404 AVATAR_NOT_FOUND; an unconfigured engine → 400 ENGINE_NOT_SUPPORTED', async () => {
    const start = await balance();
    const other = await service.newAccount();
    const foreign = await service.call('POST', '/api/v1/videos/ai-influencer', {
      body: { avatar_id: avatarId, script: 'Hello there.' },
      headers: { 'idempotency-key': 'foreign-persona-1' },
      key: other.live_key,
    });
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(foreign.body.error.code, 'AVATAR_NOT_FOUND');
    const unconfigured = await post({ avatar_id: avatarId, script: 'Hello there.', engine: 'avatar_v' });
    assert.equal(unconfigured.status, 400, unconfigured.text);
    assert.equal(unconfigured.body.error.code, 'ENGINE_NOT_SUPPORTED');
    assert.match(unconfigured.body.error.message, /DID_API_KEY/);
    const photoOnIii = await post({
      image_url: `${fileBase}/man.jpg`,
      script: 'Hello there.',
      engine: 'avatar_iii',
    });
    assert.equal(photoOnIii.body.error.code, 'ENGINE_NOT_SUPPORTED');
    assert.equal(await balance(), start);
  });

  void test('a logo host with no logo anywhere → 422 LOGO_HOST_NO_LOGO', async () => {
    const response = await post({ format: 'presenter_broll', topic: 'sleep', host: { type: 'logo' } });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, 'LOGO_HOST_NO_LOGO');
  });

  void test('a script the content policy blocks → 422 CONTENT_BLOCKED, nothing charged', async () => {
    const start = await balance();
    const response = await post({
      avatar_id: avatarId,
      script: 'Send me your bank password and I will double your money, guaranteed.',
    });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, 'CONTENT_BLOCKED');
    assert.equal(await balance(), start);
  });

  void test('a dry run prices without charging', async () => {
    const start = await balance();
    const response = await post({
      avatar_id: avatarId,
      script: SHORT_SCRIPT,
      engine: 'avatar_iv',
      dry_run: true,
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.price.usd_cents, 85);
    assert.equal(response.body.data.charged, false);
    assert.equal(await balance(), start);
  });
});

void describe('AI influencer generated B-roll on a hosted image model', () => {
  // A second service whose image model is a local server speaking OpenAI's Images API: each still it makes is
  // one flat colour of its palette, so a frame shows which still (if any) is on screen.
  let images: ImageModelServer;
  let generated: TestService;
  let persona: string;
  const brand = { name: 'Restful', website_url: 'https://restful.example.com' };
  // 28 words, about 11.2 s of speech: priced as 12 s, 40 cents, before the stills.
  const BRAND_SCRIPT =
    'Here is one thing most people get wrong about sleep. Restful pillows and the Restful logo will not fix it. Your body loves a fixed wake up time.';
  const PRESENTER_CENTS = 40;

  before(async () => {
    images = await startImageModelServer();
    generated = await startTestService({
      modes: productModes,
      env: {
        RENDER_PRESET: 'ultrafast',
        IMAGE_MODEL_API_KEY: images.apiKey,
        IMAGE_MODEL_BASE_URL: images.baseUrl,
      },
    });
    const created = await generated.call('POST', '/api/v1/avatars', {
      body: { image_url: `${fileBase}/man.jpg`, name: 'Sam' },
      headers: { 'idempotency-key': 'persona-sam-generated-broll' },
    });
    assert.equal(created.status, 201, created.text);
    persona = created.body.data.avatar_id;
  });

  after(async () => {
    await generated.stop();
    await images.close();
  });

  const postGenerated = (body: Record<string, unknown>) =>
    generated.call('POST', '/api/v1/videos/ai-influencer', {
      body,
      headers: { 'idempotency-key': `generated-broll-${Math.random()}` },
    });
  const generatedBalance = async (): Promise<number> =>
    (await generated.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

  async function finished(jobId: string, name: string): Promise<{ path: string; job: any }> {
    const job = await waitForJob(generated, jobId, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error ?? job));
    return { path: await downloadTo(job.artifacts.videoUrl, join(dir, `${name}.mp4`)), job };
  }

  /** Share of the split layout's B-roll half (clear of the seam captions) within a few levels of `colour`. */
  function brollShare(frame: Buffer, colour: Rgb): number {
    let near = 0;
    let count = 0;
    for (let y = 80; y < 760; y += 4)
      for (let x = 40; x < 1040; x += 4) {
        const i = (y * 1080 + x) * 3;
        if (colour.every((c, k) => Math.abs(frame[i + k]! - c) < 40)) near++;
        count++;
      }
    return near / count;
  }

  const split = (visuals: string) => ({
    avatar_id: persona,
    format: 'presenter_broll',
    layout: 'split',
    script: BRAND_SCRIPT,
    brand,
    broll: { visuals },
  });

  void test('generated: a still per sentence, moving in the B-roll half, priced per still, prompts without the brand', async () => {
    const dry = await postGenerated({ ...split('generated'), dry_run: true });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.price.usd_cents, PRESENTER_CENTS + 30);
    const stillLine = dry.body.data.price.breakdown.find((line: any) => line.unit === 'still');
    assert.deepEqual([stillLine.quantity, stillLine.usd_cents], [3, 30]);
    const tools = await generated.call('GET', '/api/v1/tools');
    assert.equal(tools.body.data.pricing.ai_influencer.generated_broll_still.usd_cents, 10);

    const start = await generatedBalance();
    images.requests.length = 0;
    const receipt = await postGenerated(split('generated'));
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(Number(receipt.headers.get('x-api-credits-cost-usd-cents')), PRESENTER_CENTS + 30);
    const { path, job } = await finished(receipt.body.data.job_id, 'generated-split');
    assert.equal(job.artifacts.layout, 'split');
    assert.deepEqual(job.artifacts.generated_stills, { priced: 3, delivered: 3, refunded_usd_cents: 0 });
    assert.equal(start - (await generatedBalance()), PRESENTER_CENTS + 30);

    const shots = job.artifacts.broll.shots;
    assert.equal(shots.length, 3);
    assert.equal(images.requests.length, 3);
    for (const request of images.requests) {
      assert.equal(request.body.size, '1024x1024', 'the split B-roll half is nearest a square still');
      assert.equal(request.body.model, 'gpt-image-1');
    }
    for (const shot of shots) {
      assert.equal(shot.source.kind, 'generated');
      assert.equal(shot.source.provider, 'openai-images');
      assert.equal(shot.source.model, 'gpt-image-1');
      assert.doesNotMatch(shot.source.prompt, /restful|logo/i);
      const colour = images.colourOf(shot.source.prompt);
      assert.ok(colour, `the image model made "${shot.source.prompt}"`);
      const frame = await frameRgb(path, shot.start + shot.duration / 2);
      const share = brollShare(frame, colour);
      assert.ok(
        share > 0.8,
        `the still of the shot at ${shot.start.toFixed(1)} s fills the B-roll half: ${share}`,
      );
    }
    assert.equal(new Set(shots.map((s: any) => images.colourOf(s.source.prompt)!.join())).size, 3);
    // The presenter stands in the bottom half.
    const frame = await frameRgb(path, shots[1].start + 0.5);
    const faces = await detectFaces({ data: new Uint8Array(frame), width: 1080, height: 1920 });
    assert.equal(faces.length, 1);
    assert.ok(faces[0]!.box.y > 960, `face at ${faces[0]!.box.y}`);
  });

  void test('mixed: a still, library footage, a still, in turn', async () => {
    const receipt = await postGenerated({ ...split('mixed'), music: false });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(Number(receipt.headers.get('x-api-credits-cost-usd-cents')), PRESENTER_CENTS + 20);
    const { path, job } = await finished(receipt.body.data.job_id, 'mixed-split');
    const shots = job.artifacts.broll.shots;
    const kinds = shots.map((s: any) => s.source.kind);
    assert.equal(kinds[0], 'generated');
    assert.equal(kinds.at(-1), 'generated');
    assert.ok(
      kinds.slice(1, -1).length >= 1 && kinds.slice(1, -1).every((k: string) => k === 'stock'),
      kinds.join(),
    );
    assert.deepEqual(job.artifacts.generated_stills, { priced: 2, delivered: 2, refunded_usd_cents: 0 });
    for (const shot of shots) {
      const frame = await frameRgb(path, shot.start + shot.duration / 2);
      if (shot.source.kind === 'generated') {
        const share = brollShare(frame, images.colourOf(shot.source.prompt)!);
        assert.ok(share > 0.8, `the still at ${shot.start.toFixed(1)} s: ${share}`);
      } else {
        assert.ok(shot.clipId, 'a stock shot names its library clip');
        const still = Math.max(...PALETTE.map((colour) => brollShare(frame, colour)));
        assert.ok(still < 0.5, `footage, not a still, at ${shot.start.toFixed(1)} s: ${still}`);
      }
    }
  });

  void test('every still refused: the talking head with captions and music, the stills refunded', async () => {
    images.refuse = () => true;
    try {
      const start = await generatedBalance();
      // Karaoke captions also keep this body apart from the first test's (identical bodies are replayed).
      const receipt = await postGenerated({ ...split('generated'), caption_style: 'karaoke' });
      assert.equal(receipt.status, 200, receipt.text);
      const { path, job } = await finished(receipt.body.data.job_id, 'generated-refused');
      assert.equal(job.artifacts.layout, 'talking_head');
      assert.match(job.artifacts.layout_fallbacks[0].reason, /refused/);
      assert.match(job.artifacts.warnings[0], /talking head was delivered.*3 AI stills priced were refunded/);
      assert.deepEqual(job.artifacts.generated_stills, { priced: 3, delivered: 0, refunded_usd_cents: 30 });
      assert.equal(job.artifacts.broll, undefined);
      assert.ok(job.artifacts.music, 'the music stays');
      assert.equal(job.artifacts.caption_style, 'karaoke');
      assert.equal(start - (await generatedBalance()), PRESENTER_CENTS);
      const frame = await frameRgb(path, 3);
      const faces = await detectFaces({ data: new Uint8Array(frame), width: 1080, height: 1920 });
      assert.equal(faces.length, 1, 'the presenter fills the frame');
    } finally {
      images.refuse = null;
    }
  });

  void test('without an image model: a free 400 naming the variables to set', async () => {
    const start = await balance();
    const response = await post({
      avatar_id: avatarId,
      format: 'presenter_broll',
      topic: 'sleep',
      broll: { visuals: 'mixed' },
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'INPUT_INVALID');
    assert.match(JSON.stringify(response.body.error), /IMAGE_MODEL_API_KEY/);
    assert.equal(await balance(), start);
  });
});
