import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { deltaE2000 } from '../src/brand/colors/contrast.ts';
import { resolveComposeSpec } from '../src/media/compose/compose-spec.ts';
import { logoBottomOffset } from '../src/media/compose/video-graph.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo, frameRgb } from './support/media-files.ts';
import { BrandSiteServer } from './support/brand-site-server.ts';
import {
  call,
  startTestService,
  waitForJob,
  type TestResponse,
  type TestService,
} from './support/test-service.ts';

// Saved brand kits in generation calls (spec 1 §4.2/§4.4, spec 2 §2.4): kits selected by brand_id or built
// from website_url before anything is charged, the kit headers, free refusals, and one real render that must
// show the kit's logo, accent colour and script rules.

const GENERATE = '/api/v1/generate-and-post';
const W = 1080;
const H = 1920;
/** The background of the rendered video: a flat grey clip, so the kit's colours stand out in its pixels. */
const GREY = '#5A5A5A';
const CTA = 'Start your free trial at northwind.example.';
const PROOF = 'Customers cut their month-end close time by 40%';

let service: TestService;
let site: BrandSiteServer;
let assets: http.Server;
let assetBase: string;
let dir: string;
/** The kit built from the fixture site by the first generation call. */
let kitId: string;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  site = await BrandSiteServer.start();
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-brand-gen-'));
  const made = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=0x${GREY.slice(1)}:s=540x960:r=30:d=4`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'grey.mp4'),
  ]);
  assert.equal(made.status, 0, made.stderr.toString());
  assets = http.createServer((req, res) => {
    const file = join(dir, (req.url ?? '/').slice(1));
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => assets.listen(0, '127.0.0.1', resolve));
  assetBase = `http://127.0.0.1:${(assets.address() as AddressInfo).port}`;
});

after(async () => {
  await site?.close();
  await new Promise((resolve) => assets?.close(resolve));
  await service?.stop();
});

const generate = (body: Record<string, unknown>, key = `brand-gen-${Math.random()}`, path = GENERATE) =>
  service.call('POST', path, { body, headers: { 'idempotency-key': key } });

const balance = async (key?: string): Promise<number> =>
  (await (key ? call(service.url, key, 'GET', '/api/v1/usage') : service.call('GET', '/api/v1/usage'))).body
    .data.balance_usd_cents;

function kitHeaders(response: TestResponse) {
  return {
    id: response.headers.get('x-brand-kit-id'),
    source: response.headers.get('x-brand-kit-source'),
    stale: response.headers.get('x-brand-kit-stale'),
  };
}

async function cancel(jobId: string): Promise<void> {
  const response = await service.call('POST', `/api/v1/jobs/${jobId}/cancel`);
  assert.ok([200, 409].includes(response.status), response.text);
}

async function listKits(): Promise<{ brand_id: string }[]> {
  const response = await service.call('GET', '/api/v1/b2b/brands');
  assert.equal(response.status, 200, response.text);
  return response.body.data.items;
}

function hex(frame: Buffer, x: number, y: number): string {
  const i = (y * W + x) * 3;
  return `#${[frame[i]!, frame[i + 1]!, frame[i + 2]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

void describe('kits selected by generation calls', () => {
  void test('website_url: a dry run builds nothing, the first call builds the kit, the next reuses it', async () => {
    const dry = await service.call('POST', GENERATE, {
      body: { topic: 'closing the books', website_url: site.origin, dry_run: true },
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.normalized_request.brand_kit.source, 'would_build');
    assert.ok(dry.body.data.warnings.some((w: string) => w.includes('builds one')));
    assert.equal(dry.headers.get('x-brand-kit-id'), null);
    assert.deepEqual(await listKits(), []);
    assert.equal(site.paths().length, 0, 'a dry run fetches nothing from the site');

    const before = await balance();
    const key = `brand-gen-build-${Math.random()}`;
    const built = await generate({ topic: 'closing the books', website_url: site.origin }, key);
    assert.equal(built.status, 202, built.text);
    assert.equal(await balance(), before - 60);
    // Only the kit matters here: the render is called off (and refunded) to leave the cores to the next test.
    await cancel(built.body.data.job_id);
    const headers = kitHeaders(built);
    assert.equal(headers.source, 'built');
    assert.equal(headers.stale, 'false');
    assert.ok(headers.id);
    kitId = headers.id;
    assert.deepEqual(
      (await listKits()).map((k) => k.brand_id),
      [kitId],
    );
    assert.ok(site.paths().includes('/'), 'the site was crawled');

    const replay = await generate({ topic: 'closing the books', website_url: site.origin }, key);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    assert.deepEqual(kitHeaders(replay), headers);
    assert.equal(replay.body.data.job_id, built.body.data.job_id);

    site.reset();
    const again = await generate({ topic: 'bank feeds', website_url: `${site.origin}/pricing` });
    assert.equal(again.status, 202, again.text);
    await cancel(again.body.data.job_id);
    assert.deepEqual(kitHeaders(again), { id: kitId, source: 'reused', stale: 'false' });
    assert.deepEqual(site.paths(), [], 'a reused kit is not crawled again');
    assert.equal((await listKits()).length, 1);

    const dryAgain = await service.call('POST', GENERATE, {
      body: { topic: 'bank feeds', website_url: site.origin, dry_run: true },
    });
    assert.equal(dryAgain.body.data.normalized_request.brand_kit.brand_id, kitId);
    assert.deepEqual(kitHeaders(dryAgain), { id: kitId, source: 'reused', stale: 'false' });
  });

  void test('refusals are free: unknown, foreign and other-customer brand_id, a site that fails, a well-known domain', async () => {
    const other = await service.newAccount();
    const otherKit = await call(service.url, other.live_key, 'POST', '/api/v1/b2b/brands', {
      body: { name: 'Other Co', brand_id: 'other-co' },
    });
    assert.equal(otherKit.status, 201, otherKit.text);
    const scoped = await service.call('POST', '/api/v1/b2b/brands', {
      body: { name: 'Scoped Co', brand_id: 'scoped-co', customer_id: 'cust-a' },
    });
    assert.equal(scoped.status, 201, scoped.text);

    const before = await balance();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ topic: 'x', brand_id: 'no-such-kit' }, 404, 'BRAND_NOT_FOUND'],
      [{ topic: 'x', brand_id: 'other-co' }, 404, 'BRAND_NOT_FOUND'],
      [{ topic: 'x', brand_id: 'scoped-co', customer_id: 'cust-b' }, 404, 'BRAND_NOT_FOUND'],
      [{ topic: 'x', brand_id: 'bad id' }, 400, 'INPUT_INVALID'],
      [{ topic: 'x', website_url: 'https://spotify.com' }, 422, 'BRAND_CONFIRMATION_REQUIRED'],
      [{ topic: 'x', website_url: 'ftp://acme.com' }, 400, 'INPUT_INVALID'],
    ];
    for (const [body, status, code] of cases) {
      for (const dryRun of [false, true]) {
        const response = dryRun
          ? await service.call('POST', GENERATE, { body: { ...body, dry_run: true } })
          : await generate(body);
        assert.equal(response.status, status, `${JSON.stringify(body)} → ${response.text}`);
        assert.equal(response.body.error.code, code);
      }
    }
    assert.equal(await balance(), before);

    // A site that cannot be crawled (its home page is a PDF): nothing built, nothing charged.
    site.route('/', 'not_html');
    try {
      const failed = await generate({ topic: 'x', website_url: site.localhostOrigin });
      assert.equal(failed.status, 422, failed.text);
      assert.equal(failed.body.error.code, 'BRAND_AUTOGEN_FAILED');
      assert.equal(failed.body.error.details.reason, 'not_html');
    } finally {
      site.reset();
    }
    assert.equal(await balance(), before);
    assert.ok(!(await listKits()).some((k) => k.brand_id.startsWith('localhost')));

    // A sandbox key sees no saved kits: its dry runs cannot select one.
    const sandboxDry = await call(service.url, service.account.sandbox_key, 'POST', GENERATE, {
      body: { topic: 'x', brand_id: kitId, dry_run: true },
    });
    assert.equal(sandboxDry.status, 404, sandboxDry.text);
    // Its generation calls are unvalidated placeholder jobs (spec 1 §5.3): no kit is resolved or built.
    const sandboxLive = await call(service.url, service.account.sandbox_key, 'POST', GENERATE, {
      body: { topic: 'x', website_url: site.localhostOrigin },
      headers: { 'idempotency-key': `sandbox-${Math.random()}` },
    });
    assert.equal(sandboxLive.status, 202, sandboxLive.text);
    assert.equal(sandboxLive.headers.get('x-brand-kit-id'), null);
    assert.deepEqual(site.paths('localhost'), []);
  });

  void test('a brief naming a banned topic of the kit is refused before charging', async () => {
    const patched = await service.call('PATCH', `/api/v1/b2b/brands/${kitId}`, {
      body: { profile: { banned_topics: ['spreadsheets'] } },
    });
    assert.equal(patched.status, 200, patched.text);
    const before = await balance();
    for (const body of [
      { topic: 'Why spreadsheets fail small businesses', brand_id: kitId },
      { prompt: 'bookkeeping', script: 'Our Spreadsheet templates are free.', brand_id: kitId },
      { topic: 'month-end close', cta: 'Download our spreadsheet', website_url: site.origin },
    ]) {
      const response = await generate(body);
      assert.equal(response.status, 422, response.text);
      assert.equal(response.body.error.code, 'BRAND_TOPIC_BANNED');
      assert.equal(response.body.error.details.banned_topic, 'spreadsheets');
    }
    const magic = await generate(
      { topic: 'spreadsheets', brand_id: kitId },
      undefined,
      '/api/v1/videos/magic',
    );
    assert.equal(magic.status, 422, magic.text);
    assert.equal(await balance(), before);
  });

  void test('Magic and article-to-video select a kit with brand_id instead of the account brand', async () => {
    for (const [path, body] of [
      ['/api/v1/videos/magic', { topic: 'faster month-end close', brand_id: kitId, dry_run: true }],
      ['/api/v1/blog-to-video', { article_title: 'Closing in five days', brand_id: kitId, dry_run: true }],
    ] as const) {
      const response = await service.call('POST', path, { body });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.data.normalized_request.brand_kit.brand_id, kitId);
      assert.equal(kitHeaders(response).id, kitId);
    }
  });
});

void describe('a render with a kit', () => {
  void test('shows the kit logo, the accent on the spoken word and the progress bar, and follows its profile', async () => {
    const patched = await service.call('PATCH', `/api/v1/b2b/brands/${kitId}`, {
      body: {
        profile: {
          proof_points: [{ claim: PROOF }],
          cta: { text: CTA },
          banned_topics: ['spreadsheets'],
        },
      },
    });
    assert.equal(patched.status, 200, patched.text);
    const kit = patched.body.data;
    const accent: string = kit.kit.colors.accent;
    assert.ok(kit.normalized_logo_url, 'the fixture site has a logo');

    const before = await balance();
    const receipt = await generate({
      prompt: 'how we cut the month-end close by 40% in 6 months with automatic bank feeds',
      content_purpose: 'case_study',
      duration_sec: 15,
      brand_id: kitId,
      website_url: 'https://example.org',
      asset_urls: [`${assetBase}/grey.mp4`],
      music: false,
      progress_bar: { enabled: true, position: 'top' },
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.deepEqual(kitHeaders(receipt), { id: kitId, source: 'reused', stale: 'false' });
    // The job renders the kit as it was accepted: a change made now is not in this video.
    const changed = await service.call('PATCH', `/api/v1/b2b/brands/${kitId}`, {
      body: { accent_color: '#1E88E5' },
    });
    assert.equal(changed.status, 200, changed.text);

    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(await balance(), before - 60);
    assert.deepEqual(job.artifacts.brand, { source: 'kit', brand_id: kitId, revision: kit.revision });

    const script: string = job.artifacts.script;
    assert.equal(script.trim().split('\n').at(-1), CTA, script);
    const proofNumbers = new Set(PROOF.match(/\d+(?:[.,]\d+)*/g));
    for (const number of script.match(/\d+(?:[.,]\d+)*/g) ?? [])
      assert.ok(proofNumbers.has(number), `"${number}" is in no proof point: ${script}`);
    assert.ok(!/\b6 months\b|\bsix months\b/i.test(script), script);

    // Captions are set in the kit's font (a family shipped with the service, drawn from its own files).
    assert.equal(kit.kit.font.family, 'Space Grotesk');
    const ass = job.artifacts.output_files.find((f: { format: string }) => f.format === 'ass');
    const styles = (await (await fetch(ass.url)).text()).split('\n').filter((l) => l.startsWith('Style:'));
    assert.ok(
      styles.length > 0 && styles.every((l) => l.split(',')[1] === 'Space Grotesk'),
      styles.join('\n'),
    );

    const video = await downloadTo(job.artifacts.videoUrl, join(dir, 'kit.mp4'));
    const logo = await expectedLogo(kit.normalized_logo_url);
    let highlighted = 0;
    for (const seconds of [2, 4.5, 7, 9.5, 12]) {
      const frame = await frameRgb(video, seconds);
      assert.equal(frame.length, W * H * 3);
      const match = bestLogoMatch(frame, logo);
      assert.ok(match.medianDeltaE < 8, `logo at ${seconds}s: median ΔE ${match.medianDeltaE.toFixed(1)}`);
      highlighted += accentPixels(frame, accent, logo, match);
      const barEnd = Math.floor(W * (seconds / 15) * 0.8);
      for (const x of [20, Math.floor(barEnd / 2), barEnd])
        assert.ok(deltaE2000(hex(frame, x, 4), accent) < 6, `progress bar at x=${x}, ${seconds}s`);
    }
    assert.ok(highlighted > 400, `${highlighted} caption pixels in the kit accent`);
  });
});

void describe('branded caption presets of a kit', () => {
  void test('GET /resources/caption-styles?brand_id= draws the branded presets, and their previews, in the kit', async () => {
    const kit = (await service.call('GET', `/api/v1/b2b/brands/${kitId}`)).body.data;
    const { primary, accent } = kit.kit.colors as { primary: string; accent: string };
    const listed = await service.call('GET', `/api/v1/resources/caption-styles?brand_id=${kitId}`);
    assert.equal(listed.status, 200, listed.text);
    const data = listed.body.data;
    assert.deepEqual(data.brand_colors, { primary_color: primary, accent_color: accent });
    assert.equal(data.brand_font_family, kit.kit.font.family);
    const styleOf = (id: string) => data.styles.find((s: { id: string }) => s.id === id);
    assert.equal(styleOf('brand-highlight').style.highlight_color, accent);
    assert.equal(styleOf('brand-highlight').style.font_family, 'Space Grotesk');
    assert.equal(styleOf('brand-box').style.outline_color, primary);
    assert.notEqual(
      styleOf('clean-white').style.font_family,
      'Space Grotesk',
      'other presets keep their font',
    );

    // The preview of the box preset, drawn for the kit, is a box in the kit's primary colour.
    const previewUrl: string = styleOf('brand-box').preview_url;
    assert.ok(previewUrl.includes(`brand_id=${kitId}`), previewUrl);
    const preview = await fetch(previewUrl, {
      headers: { authorization: `Bearer ${service.account.live_key}` },
    });
    assert.equal(preview.status, 200);
    const { data: pixels, info } = await sharp(Buffer.from(await preview.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let inPrimary = 0;
    for (let p = 0; p < info.width * info.height; p += 3) {
      const rgb = `#${[0, 1, 2].map((c) => pixels[p * 3 + c]!.toString(16).padStart(2, '0')).join('')}`;
      if (deltaE2000(rgb, primary) < 3) inPrimary++;
    }
    assert.ok(inPrimary > (info.width * info.height) / 3 / 50, `${inPrimary} preview pixels in ${primary}`);

    const other = await service.newAccount();
    for (const path of [
      `/api/v1/resources/caption-styles?brand_id=${kitId}`,
      `/api/v1/resources/caption-styles/brand-box/preview.png?brand_id=${kitId}`,
      '/api/v1/resources/caption-styles?brand_id=no-such-kit',
    ]) {
      const response = await call(service.url, other.live_key, 'GET', path);
      assert.equal(response.status, 404, `${path} → ${response.text}`);
      assert.equal(response.body.error.code, 'BRAND_NOT_FOUND');
    }
  });
});

interface ExpectedLogo {
  width: number;
  height: number;
  /** RGB composited over the grey background, and alpha, per pixel. */
  rgb: Buffer;
  alpha: Buffer;
}

/** The kit's normalized logo as the render scales it (18% of the frame width, even sizes). */
async function expectedLogo(url: string): Promise<ExpectedLogo> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  const source = sharp(Buffer.from(await response.arrayBuffer()));
  const meta = await source.metadata();
  const width = 2 * Math.round((W * 0.18) / 2);
  const height = 2 * Math.round((width * meta.height) / meta.width / 2);
  const { data } = await source
    .resize(width, height, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgb = Buffer.alloc(width * height * 3);
  const alpha = Buffer.alloc(width * height);
  const grey = parseInt(GREY.slice(1, 3), 16);
  for (let p = 0; p < width * height; p++) {
    const a = data[p * 4 + 3]! / 255;
    alpha[p] = data[p * 4 + 3]!;
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.round(data[p * 4 + c]! * a + grey * (1 - a));
  }
  return { width, height, rgb, alpha };
}

/** Where the renderer puts the logo: bottom right, above the caption band. */
function logoOrigin(logo: ExpectedLogo): { x: number; y: number } {
  const spec = resolveComposeSpec({
    outputPath: 'x.mp4',
    width: W,
    height: H,
    durationSec: 1,
    scenes: [{ path: 'x.mp4', inPoint: 0, duration: 1 }],
    logo: { path: 'logo.png' },
  });
  const margin = spec.logo!.margin;
  return { x: W - logo.width - margin, y: H - logo.height - logoBottomOffset(spec, margin) };
}

/** The median ΔE2000 between the frame and the logo over its opaque pixels, at the best offset near its place. */
function bestLogoMatch(frame: Buffer, logo: ExpectedLogo): { x: number; y: number; medianDeltaE: number } {
  const origin = logoOrigin(logo);
  let best = { x: origin.x, y: origin.y, medianDeltaE: Infinity };
  for (let dy = -3; dy <= 3; dy++)
    for (let dx = -3; dx <= 3; dx++) {
      const deltas: number[] = [];
      for (let y = 0; y < logo.height; y += 2)
        for (let x = 0; x < logo.width; x += 2) {
          const p = y * logo.width + x;
          if (logo.alpha[p]! < 250) continue;
          const want = `#${[0, 1, 2].map((c) => logo.rgb[p * 3 + c]!.toString(16).padStart(2, '0')).join('')}`;
          deltas.push(deltaE2000(hex(frame, origin.x + dx + x, origin.y + dy + y), want));
        }
      deltas.sort((a, b) => a - b);
      const median = deltas[Math.floor(deltas.length / 2)]!;
      if (median < best.medianDeltaE) best = { x: origin.x + dx, y: origin.y + dy, medianDeltaE: median };
    }
  return best;
}

/** Pixels of the lower half in the kit accent, outside the logo (whose bar is amber too). */
function accentPixels(
  frame: Buffer,
  accent: string,
  logo: ExpectedLogo,
  at: { x: number; y: number },
): number {
  let count = 0;
  for (let y = Math.floor(H / 2); y < H; y += 2)
    for (let x = 0; x < W; x += 2) {
      if (x >= at.x - 8 && x < at.x + logo.width + 8 && y >= at.y - 8 && y < at.y + logo.height + 8) continue;
      const i = (y * W + x) * 3;
      // Cheap prefilter: the caption text is white, its outline black, the background grey.
      if (Math.abs(frame[i]! - frame[i + 2]!) < 40) continue;
      if (deltaE2000(hex(frame, x, y), accent) < 6) count++;
    }
  return count;
}
