import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { detectBlack, measureLoudness } from '../src/media/ffmpeg/measure.ts';
import { isFaststart, readTopLevelAtoms } from '../src/media/ffmpeg/mp4-atoms.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo } from './support/media-files.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /generate-and-post end to end on the real stock engine: a real MP4 checked the way a person would.

let service: TestService;
let assets: http.Server;
let assetBase: string;
let dir: string;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-assets-'));
  const clip = join(dir, 'own-clip.mp4');
  const made = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=640x360:r=30:d=4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    clip,
  ]);
  assert.equal(made.status, 0, made.stderr.toString());
  await writeFile(join(dir, 'not-a-video.mp4'), 'plain text, not a video');
  const logo = join(dir, 'logo.png');
  assert.equal(
    spawnSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=200x80',
      '-frames:v',
      '1',
      logo,
    ]).status,
    0,
  );
  assets = http.createServer((req, res) => {
    const file = join(dir, (req.url ?? '/').slice(1));
    import('node:fs').then(
      ({ createReadStream, existsSync }) => {
        if (!existsSync(file)) return res.writeHead(404).end();
        res.writeHead(200);
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => assets.listen(0, '127.0.0.1', resolve));
  assetBase = `http://127.0.0.1:${(assets.address() as AddressInfo).port}`;
});

after(async () => {
  await service.stop();
  await new Promise((resolve) => assets.close(resolve));
});

const generate = (body: Record<string, unknown>, key = `stock-${Math.random()}`) =>
  service.call('POST', '/api/v1/generate-and-post', { body, headers: { 'idempotency-key': key } });

const download = (url: string, name: string) => downloadTo(url, join(dir, name));

function srtWords(srt: string): { words: string[]; end: number } {
  const words: string[] = [];
  let end = 0;
  for (const block of srt.trim().split(/\n\s*\n/)) {
    const [, times, ...text] = block.split('\n');
    const stamp = /--> (\d+):(\d+):(\d+),(\d+)/.exec(times ?? '');
    if (stamp)
      end = Math.max(
        end,
        Number(stamp[1]) * 3600 + Number(stamp[2]) * 60 + Number(stamp[3]) + Number(stamp[4]) / 1000,
      );
    words.push(...text.join(' ').split(/\s+/).filter(Boolean));
  }
  return { words, end };
}

const normalize = (w: string) => w.toLowerCase().replace(/[^a-z0-9']/g, '');

void describe('stock video (POST /generate-and-post)', () => {
  void test('renders a postable 1080×1920 video with narration, synced captions, music and logo', async () => {
    const before = (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
    const receipt = await generate({
      topic: 'how compound interest grows savings',
      duration_sec: 15,
      content_purpose: 'education',
      brand: { name: 'Acme Savings', logo_url: `${assetBase}/logo.png`, accent_color: '#22C55E' },
      progress_bar: { enabled: true, position: 'top' },
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.body.data.price_usd_cents, 60);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '60');
    assert.equal(receipt.headers.get('x-api-credits-tool'), 'generate-and-post');

    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal((await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents, before - 60);
    const a = job.artifacts;
    assert.ok(a.title.length > 5 && a.title.length <= 70, a.title);
    assert.match(a.description, /#\w+/);
    assert.ok(a.script.split(/\s+/).length >= 15);

    const video = await download(a.videoUrl, 'stock.mp4');
    const info = await probeMedia(video);
    assert.equal(info.video?.codec, 'h264');
    assert.equal(info.video?.width, 1080);
    assert.equal(info.video?.height, 1920);
    assert.equal(info.video?.fps, 30);
    assert.equal(info.audio?.codec, 'aac');
    assert.equal(info.audio?.sampleRate, 48000);
    assert.ok(isFaststart(await readTopLevelAtoms(video)), 'moov before mdat');
    assert.ok(Math.abs(info.durationSec - 15) <= 1.5, `duration ${info.durationSec}`);
    assert.ok(Math.abs(a.durationSec - info.durationSec) < 0.05);
    const loudness = await measureLoudness(video);
    assert.ok(Math.abs(loudness.integratedLufs + 14) <= 1.5, `loudness ${loudness.integratedLufs}`);
    assert.deepEqual(await detectBlack(video, { minDuration: 0.5 }), []);

    const poster = await fetch(a.thumbnailUrl);
    assert.equal(poster.headers.get('content-type'), 'image/jpeg');
    const srtLink = a.output_files.find((f: { name: string }) => f.name === 'captions.srt');
    const srt = srtWords(await (await fetch(srtLink.url)).text());
    assert.deepEqual(
      srt.words.map(normalize).filter(Boolean),
      a.script.split(/\s+/).map(normalize).filter(Boolean),
    );
    assert.ok(srt.end <= info.durationSec + 0.01, `captions end at ${srt.end}`);
    assert.ok(a.output_files.some((f: { name: string }) => f.name === 'captions.ass'));
  });

  void test('a sent script is narrated word for word with the caller’s own clips as background', async () => {
    const script =
      'This is our own script. It is read exactly as written, every single word of it. Nothing is cut or changed along the way.';
    const receipt = await generate({
      script,
      asset_urls: [`${assetBase}/own-clip.mp4`],
      music: false,
      captions: false,
      include_branding: false,
      duration_sec: 15,
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.artifacts.script, script);
    assert.ok(job.artifacts.footage.shots.every((s: { clipId: string }) => s.clipId.startsWith('asset-')));
    assert.ok(!job.artifacts.output_files.some((f: { name: string }) => f.name === 'captions.ass'));
  });

  void test('an asset that is not a video fails the job with a clear error and a refund', async () => {
    const before = (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
    const receipt = await generate({ topic: 'bad asset', asset_urls: [`${assetBase}/not-a-video.mp4`] });
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'INPUT_INVALID_MEDIA');
    assert.match(job.error.message, /asset_urls\[0\]/);
    assert.equal((await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents, before);
  });

  void test('invalid requests are refused before charging, naming each field', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ topic: 'x', clip_type: 'finance/moon' }, 400, 'INPUT_INVALID', 'clip_type'],
      [{ topic: 'x', aspect_ratio: '16:9' }, 400, 'INPUT_INVALID', 'aspect_ratio'],
      [{ topic: 'x', brand: { name: 'A', favourite: 'blue' } }, 400, 'INPUT_INVALID', 'brand.favourite'],
      [{ topic: 'x', brand: { primary_color: 'red' } }, 400, 'INPUT_INVALID', 'brand.primary_color'],
      [{ topic: 'x', brand: {} }, 400, 'INPUT_INVALID', 'brand'],
      [{ topic: 'x', voice_speed: 2 }, 400, 'INPUT_INVALID', 'voice_speed'],
      [{ topic: 'x', voice_id: 'nobody' }, 400, 'INPUT_INVALID', 'voice_id'],
      [{ topic: 'x', language: 'ln' }, 400, 'INPUT_INVALID', 'language'],
      [{ topic: 'x', caption_language: 'fr' }, 400, 'INPUT_INVALID', 'caption_language'],
      [{ script: 'word '.repeat(400) }, 400, 'INPUT_INVALID', 'script'],
      [{ duration_sec: 30 }, 400, 'INPUT_INVALID', 'prompt'],
      [{ topic: 'x', asset_urls: ['https://10.0.0.1/clip.mp4'] }, 400, 'INPUT_INVALID', 'asset_urls[0]'],
      [{ topic: 'x', brand_id: 'acme' }, 404, 'BRAND_NOT_FOUND', ''],
    ];
    const before = (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
    for (const [body, status, code, field] of cases) {
      const response = await generate(body);
      assert.equal(
        response.status,
        status,
        `${JSON.stringify(body).slice(0, 80)} → ${response.text.slice(0, 300)}`,
      );
      assert.equal(response.body.error.code, code);
      if (field)
        assert.ok(
          response.body.error.details.fields.some((f: { field: string }) => f.field === field),
          response.text,
        );
    }
    const clipType = await generate({ topic: 'x', clip_type: 'nope' });
    assert.ok(clipType.body.error.details.fields[0].valid_values.includes('finance/crypto'));
    assert.equal((await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents, before);
  });

  void test('a dry run normalizes aliases with a warning each and prices the job at $0.60', async () => {
    const response = await generate({
      topic: 'morning routines',
      dry_run: true,
      duration: 45,
      clipType: 'tech/ai',
      video_style: 'energetic',
      caption_position: 'middle',
      caption_highlight_color: '#FF0000',
      music_volume: 0.2,
      progress_bar_enabled: true,
      include_captions: true,
    });
    assert.equal(response.status, 200, response.text);
    const data = response.body.data;
    assert.equal(data.price.usd_cents, 60);
    assert.equal(data.normalized_request.duration_sec, 45);
    assert.equal(data.normalized_request.clip_type, 'tech/ai');
    assert.equal(data.normalized_request.content_style, 'energetic');
    assert.deepEqual(data.normalized_request.caption_style, {
      preset: 'highlight',
      text_color: '#FFFFFF',
      highlight_color: '#FF0000',
      position: 'center',
      font_size: 'large',
    });
    assert.deepEqual(data.normalized_request.music, { enabled: true, volume: 0.2 });
    assert.equal(data.normalized_request.progress_bar.enabled, true);
    for (const alias of [
      'duration',
      'clipType',
      'video_style',
      'caption_position',
      'caption_highlight_color',
      'music_volume',
      'progress_bar_enabled',
      'include_captions',
    ]) {
      assert.ok(
        data.warnings.some((w: string) => w.includes(`"${alias}"`)),
        `no warning for ${alias}: ${JSON.stringify(data.warnings)}`,
      );
    }
    assert.ok(
      data.warnings.some((w: string) => w.includes("'tech/ai'")),
      'niche fallback warning',
    );
  });
});
