import assert from 'node:assert/strict';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { detectBlack, measureLoudness } from '../src/media/ffmpeg/measure.ts';
import { isFaststart, readTopLevelAtoms } from '../src/media/ffmpeg/mp4-atoms.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from './support/sample-photos.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo, frameRgb } from './support/media-files.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// AI video with no hosted model configured: the local motion engine, through the whole API, checked on the
// finished files the way the stock video tests check theirs.

let service: TestService;
let photos: http.Server;
let photoBase: string;
let dir: string;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  dir = await mkdtemp(join(tmpdir(), 'ai-video-local-'));
  await cutToFile(SAMPLES, MAN_AT_TABLE, dir, 'person', { width: 633 });
  await cutToFile(SAMPLES, { left: 0, top: 0, width: 80, height: 80 }, dir, 'tiny');
  await writeFile(join(dir, 'not-an-image.jpg'), 'plain text, not an image');
  photos = http.createServer((req, res) => {
    const file = join(dir, (req.url ?? '/').slice(1));
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.endsWith('.png') ? 'image/png' : 'image/jpeg' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
  photoBase = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
});

after(async () => {
  await service.stop();
  await new Promise((resolve) => photos.close(resolve));
});

const post = (endpoint: 'text-to-video' | 'image-to-video', body: Record<string, unknown>) =>
  service.call('POST', `/api/v1/videos/${endpoint}`, {
    body,
    headers: { 'idempotency-key': `${endpoint}-${Math.random()}` },
  });

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

const normalize = (w: string) => w.toLowerCase().replace(/[^a-z0-9']/g, '');

function srtWords(srt: string): string[] {
  return srt
    .trim()
    .split(/\n\s*\n/)
    .flatMap((block) => block.split('\n').slice(2).join(' ').split(/\s+/))
    .filter(Boolean);
}

void describe('AI video on the local motion engine', () => {
  void test('a 30 s narrated text-to-video: shots cut on sentences, word captions, music, -14 LUFS', async () => {
    const script =
      'Morning light spills over the harbour. Fishing boats head out past the old lighthouse. ' +
      'By noon the market is full of voices and fresh catch. In the evening the town lights glow on calm water. ' +
      'Come and see it for yourself this summer.';
    const start = await balance();
    const receipt = await post('text-to-video', {
      prompt:
        'A harbour town at sunrise; boats leaving the harbour; a busy fish market; lights on the water at night',
      script,
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-engine'), 'local');
    assert.equal(receipt.headers.get('x-api-credits-model'), 'maker-c/flow-2.0');
    const price = Number(receipt.headers.get('x-api-credits-cost-usd-cents'));
    assert.equal(price, 65);
    assert.equal(receipt.body.data.price_usd_cents, 65);

    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 400_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(await balance(), start - 65);
    const a = job.artifacts;
    assert.equal(a.engine, 'local');
    assert.equal(a.script, script);
    assert.equal(a.shots.length, 6);
    for (const shot of a.shots) {
      assert.equal(shot.provider, 'local');
      assert.equal(shot.source.kind, 'library');
      assert.ok(shot.source.move.kind);
    }
    assert.ok(Math.abs(a.shots.reduce((s: number, x: { seconds: number }) => s + x.seconds, 0) - 30) < 0.01);

    const video = await downloadTo(a.videoUrl, join(dir, 't2v.mp4'));
    const info = await probeMedia(video);
    assert.equal(info.video?.codec, 'h264');
    assert.equal(info.video?.width, 1080);
    assert.equal(info.video?.height, 1920);
    assert.equal(info.video?.fps, 30);
    assert.equal(info.audio?.codec, 'aac');
    assert.equal(info.audio?.sampleRate, 48000);
    assert.ok(isFaststart(await readTopLevelAtoms(video)), 'moov before mdat');
    assert.ok(Math.abs(info.durationSec - 30) <= 0.5, `duration ${info.durationSec}`);
    const loudness = await measureLoudness(video);
    assert.ok(Math.abs(loudness.integratedLufs + 14) <= 1.5, `loudness ${loudness.integratedLufs}`);
    assert.deepEqual(await detectBlack(video, { minDuration: 0.5 }), []);
    const srtLink = a.output_files.find((f: { name: string }) => f.name === 'captions.srt');
    const words = srtWords(await (await fetch(srtLink.url)).text());
    assert.deepEqual(
      words.map(normalize).filter(Boolean),
      script.split(/\s+/).map(normalize).filter(Boolean),
    );
  });

  void test('image-to-video moves the photo itself: a slow zoom in over 5 s with no narration', async () => {
    const receipt = await post('image-to-video', {
      image_url: `${photoBase}/person.png`,
      motion_prompt: 'slow zoom in',
      duration_sec: 5,
      music: false,
      model: 'host-x/pix/v6',
      resolution: '720p',
    });
    assert.equal(receipt.status, 200, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.artifacts.shots.length, 1);
    assert.equal(job.artifacts.shots[0].source.kind, 'image');
    assert.equal(job.artifacts.shots[0].source.move.kind, 'zoom');
    const video = await downloadTo(job.artifacts.videoUrl, join(dir, 'i2v.mp4'));
    const info = await probeMedia(video);
    assert.equal(info.video?.width, 720);
    assert.equal(info.video?.height, 1280);
    assert.ok(Math.abs(info.durationSec - 5) <= 0.3, `duration ${info.durationSec}`);
    // Neither narration nor music nor native sound: the file still carries a (silent) audio track.
    assert.equal(info.audio?.codec, 'aac');
    // The picture changes over the shot (the camera moves), and it is the photo, not a blank frame.
    const first = await frameRgb(video, 0.1);
    const last = await frameRgb(video, 4.8);
    let diff = 0;
    for (let i = 0; i < first.length; i++) diff += Math.abs(first[i]! - last[i]!);
    assert.ok(diff / first.length > 3, `mean frame change ${diff / first.length}`);
  });

  void test('an orbit lifts the person off the background: two layers, moving apart', async () => {
    const receipt = await post('image-to-video', {
      image_url: `${photoBase}/person.png`,
      prompt: 'slow orbit around the man',
      duration_sec: 4,
      music: false,
      model: 'host-x/pix/v6',
      resolution: '720p',
    });
    assert.equal(receipt.status, 200, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const source = job.artifacts.shots[0].source;
    assert.equal(source.move.kind, 'orbit');
    assert.match(source.parallax, /segmentation/);
    const video = await downloadTo(job.artifacts.videoUrl, join(dir, 'orbit.mp4'));
    assert.ok(Math.abs((await probeMedia(video)).durationSec - 4) <= 0.3);
  });

  void test('bad input is refused before anything is charged, naming the field to fix', async () => {
    const start = await balance();
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        'image-to-video',
        { prompt: 'zoom in', image_url: `${photoBase}/not-an-image.jpg`, duration_sec: 5 },
        400,
        'image_url',
      ],
      [
        'image-to-video',
        { prompt: 'zoom in', image_url: `${photoBase}/tiny.png`, duration_sec: 5 },
        400,
        'image_url',
      ],
      [
        'image-to-video',
        { prompt: 'zoom in', image_url: 'https://10.0.0.1/a.jpg', duration_sec: 5 },
        400,
        'image_url',
      ],
      ['image-to-video', { prompt: 'zoom in', duration_sec: 5 }, 400, 'image_url'],
      ['text-to-video', { prompt: 'x', script: 'word '.repeat(200) }, 400, 'script'],
      ['text-to-video', { prompt: 'x', model: 'maker-a/sky-3.1', resolution: '2160p' }, 400, 'resolution'],
      ['text-to-video', { prompt: 'x', duration_sec: 20 }, 400, 'duration_sec'],
      ['text-to-video', { prompt: 'x'.repeat(1001) }, 400, 'prompt'],
      ['text-to-video', { prompt: 'x', voice_id: 'not:valid' }, 400, 'voice_id'],
      ['text-to-video', { prompt: 'x', script: 'Hello there.', voice_id: 'nobody_voice' }, 400, 'voice_id'],
    ];
    for (const [endpoint, body, status, field] of cases) {
      const answer = await post(endpoint as 'text-to-video', body);
      assert.equal(answer.status, status, `${endpoint} ${JSON.stringify(body).slice(0, 80)}: ${answer.text}`);
      assert.equal(answer.body.error.code, 'INPUT_INVALID');
      assert.ok(
        answer.body.error.details.fields.some((d: { field: string }) => d.field === field),
        `${field} named in ${answer.text}`,
      );
    }
    const foreign = await post('text-to-video', { prompt: 'x', brand_id: 'acme' });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'BRAND_NOT_FOUND');
    assert.equal(await balance(), start);
  });

  void test('a dry run prices the request and says the local engine renders it', async () => {
    const dry = await post('text-to-video', { prompt: 'A lighthouse', dry_run: true, duration_sec: 60 });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.price.usd_cents, 120);
    assert.ok(dry.body.data.warnings.some((w: string) => /local motion engine/.test(w)));
    assert.equal(dry.body.data.charged, false);
  });
});
