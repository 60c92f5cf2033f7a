import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  HEYGEN_REFUSAL_MESSAGE,
  startHeyGenServer,
  type HeyGenServer,
} from '../../../test/support/heygen-server.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from '../../../test/support/sample-photos.ts';
import { HeyGenTalkingPhoto } from './heygen.ts';
import {
  TalkingPhotoError,
  talkingPhotoJobFailure,
  type TalkingPhotoJob,
  type TalkingPhotoRenderOptions,
} from './talking-photo.ts';

const guard = new UrlGuard({ allowLoopback: true });
let heygen: HeyGenServer;
let dir: string;
let photoPath: string;
let audioPath: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heygen-test-'));
  heygen = await startHeyGenServer();
  // A landscape 400×300 photo of one person, so the 9:16 crop is really a crop.
  photoPath = await cutToFile(SAMPLES, MAN_AT_TABLE, dir, 'presenter', { width: 400 });
  audioPath = join(dir, 'narration.wav');
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=1.5', '-ar', '24000', audioPath]);
});
after(async () => {
  await heygen.close();
  await guard.close();
  await rm(dir, { recursive: true, force: true });
});

const client = (overrides: { apiKey?: string; timeoutMs?: number } = {}) =>
  new HeyGenTalkingPhoto({
    apiKey: overrides.apiKey ?? heygen.apiKey,
    baseUrl: heygen.baseUrl,
    pollIntervalMs: 20,
    timeoutMs: overrides.timeoutMs ?? 60_000,
    urlGuard: guard,
  });

const job = (title: string, aspectRatio: TalkingPhotoJob['aspectRatio'] = '9:16'): TalkingPhotoJob => ({
  photoPath,
  audioPath,
  aspectRatio,
  title,
});

async function options(extra: Partial<TalkingPhotoRenderOptions> = {}): Promise<TalkingPhotoRenderOptions> {
  return { workDir: await mkdtemp(join(dir, 'work-')), signal: AbortSignal.timeout(120_000), ...extra };
}

/** The requests recorded after `mark` (a count of requests, taken before the call under test). */
const since = (mark: number) => heygen.requests.slice(mark);

async function rejection(promise: Promise<unknown>): Promise<TalkingPhotoError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TalkingPhotoError, `expected a TalkingPhotoError, got ${String(error)}`);
    return error;
  }
  assert.fail('the render should have failed');
}

describe('HeyGen talking photo (v3 API)', () => {
  test('uploads photo and narration as assets, renders on the image route, and delivers a portrait MP4', async () => {
    const start = heygen.requests.length;
    const progress: number[] = [];
    const submitted: string[] = [];
    const result = await client().render(
      job('portrait render'),
      await options({ onProgress: (f) => progress.push(f), onSubmitted: (id) => void submitted.push(id) }),
    );

    const requests = since(start);
    assert.ok(requests.filter((r) => !r.path.startsWith('/files/')).every((r) => r.apiKey === heygen.apiKey));
    const uploads = requests.filter((r) => r.method === 'POST' && r.path === '/v3/assets');
    assert.equal(uploads.length, 2);
    for (const upload of uploads) assert.match(upload.contentType ?? '', /^multipart\/form-data; boundary=/);
    assert.deepEqual(
      uploads.map((u) => (u.body as { file: { type: string } }).file.type),
      ['image/jpeg', 'audio/mpeg'],
    );
    const create = requests.find((r) => r.method === 'POST' && r.path === '/v3/videos');
    const sent = create?.body as { image: { asset_id: string }; audio_asset_id: string };
    const photoAsset = sent.image.asset_id;
    const audioAsset = sent.audio_asset_id;
    assert.deepEqual(sent, {
      type: 'image',
      image: { type: 'asset_id', asset_id: photoAsset },
      audio_asset_id: audioAsset,
      aspect_ratio: '9:16',
      resolution: '1080p',
      fit: 'cover',
      title: 'portrait render',
    });
    assert.equal(heygen.asset(photoAsset)?.type, 'image/jpeg');
    assert.equal(heygen.asset(audioAsset)?.type, 'audio/mpeg');

    assert.deepEqual(submitted, [result.providerJobId]);
    const polls = requests.filter(
      (r) => r.method === 'GET' && r.path === `/v3/videos/${result.providerJobId}`,
    );
    assert.equal(polls.length, 3, 'pending, processing, completed');
    assert.deepEqual(progress, [0.05, 0.12, 0.2, 0.25, 0.5, 0.9, 1]);

    const info = await probeMedia(result.videoPath);
    assert.ok(info.video, 'the result has a video stream');
    assert.ok(
      info.video.height > info.video.width,
      `portrait expected, got ${info.video.width}x${info.video.height}`,
    );
    assert.ok(info.audio, 'the narration is in the result');
    assert.ok(Math.abs(info.durationSec - 1.5) < 0.35, `about as long as the narration: ${info.durationSec}`);

    // Both uploads are deleted once the video is delivered.
    const deletes = requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
    assert.deepEqual(deletes.sort(), [`/v3/assets/${photoAsset}`, `/v3/assets/${audioAsset}`].sort());
  });

  test('16:9 renders a landscape video', async () => {
    const result = await client().render(job('landscape render', '16:9'), await options());
    const info = await probeMedia(result.videoPath);
    assert.ok(info.video && info.video.width > info.video.height, 'landscape expected');
  });

  test('a wrong key is unauthorized, names HEYGEN_API_KEY, and nothing is rendered', async () => {
    const start = heygen.requests.length;
    const error = await rejection(client({ apiKey: 'wrong-key' }).render(job('bad key'), await options()));
    assert.equal(error.kind, 'unauthorized');
    assert.equal(error.details.status, 401);
    assert.match(error.message, /HEYGEN_API_KEY/);
    assert.equal(error.retryable, false);
    assert.equal(talkingPhotoJobFailure(error).jobError.code, 'AI_PROVIDER_FAILED');
    assert.ok(!since(start).some((r) => r.path === '/v3/videos'));
  });

  test('a 429 on the render call is waited out for its Retry-After, then the render goes through', async () => {
    heygen.script('busy', { outcome: 'video', createRateLimitOnceSec: 1 });
    const start = heygen.requests.length;
    const result = await client().render(job('busy'), await options());
    const creates = since(start).filter((r) => r.method === 'POST' && r.path === '/v3/videos');
    assert.equal(creates.length, 2);
    const [first, second] = creates;
    assert.ok(first && second && second.at - first.at >= 950, 'the retry waited for Retry-After');
    assert.ok((await probeMedia(result.videoPath)).video);
  });

  test('gateway outages while polling are retried', async () => {
    heygen.script('flaky', { outcome: 'video', outages: 2 });
    const result = await client().render(job('flaky'), await options());
    assert.ok((await probeMedia(result.videoPath)).video);
  });

  test('a moderation refusal is a refused error → CONTENT_REFUSED, and the uploads are deleted', async () => {
    heygen.script('refuse me', { outcome: 'refused' });
    const start = heygen.requests.length;
    const error = await rejection(client().render(job('refuse me'), await options()));
    assert.equal(error.kind, 'refused');
    assert.ok(error.message.includes(HEYGEN_REFUSAL_MESSAGE));
    assert.equal(error.retryable, false);
    const failure = talkingPhotoJobFailure(error).jobError;
    assert.equal(failure.code, 'CONTENT_REFUSED');
    assert.equal(failure.category, 'input');
    assert.equal(since(start).filter((r) => r.method === 'DELETE').length, 2);
  });

  test('a failed render is a failed error → AI_PROVIDER_FAILED carrying HeyGen’s reason', async () => {
    heygen.script('break me', { outcome: 'failed' });
    const error = await rejection(client().render(job('break me'), await options()));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /Video rendering failed.*internal_error/);
    assert.ok(error.details.providerJobId);
    assert.equal(talkingPhotoJobFailure(error).jobError.code, 'AI_PROVIDER_FAILED');
  });

  test('a render that never finishes times out → AI_PROVIDER_TIMEOUT, keeping its uploads', async () => {
    heygen.script('forever', { outcome: 'never' });
    const start = heygen.requests.length;
    const started = Date.now();
    const error = await rejection(client({ timeoutMs: 1500 }).render(job('forever'), await options()));
    assert.equal(error.kind, 'timeout');
    assert.ok(Date.now() - started < 5000, 'gave up near the budget');
    assert.match(error.message, /did not finish within/);
    assert.equal(talkingPhotoJobFailure(error).jobError.code, 'AI_PROVIDER_TIMEOUT');
    assert.equal(since(start).filter((r) => r.method === 'DELETE').length, 0);
  });

  test('aborting stops at once with the abort reason; resuming the render id finishes it without new uploads', async () => {
    heygen.script('interrupted', { outcome: 'video', pending: 6, processing: 1 });
    const controller = new AbortController();
    let renderId = '';
    const pending = client().render(
      job('interrupted'),
      await options({
        signal: controller.signal,
        onSubmitted: (id) => {
          renderId = id;
          setTimeout(() => controller.abort(new Error('worker shutting down')), 50);
        },
      }),
    );
    await assert.rejects(pending, /worker shutting down/);
    const polls = heygen.video(renderId)?.polls ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(heygen.video(renderId)?.polls, polls, 'no polling after the abort');

    const start = heygen.requests.length;
    const result = await client().render(job('interrupted'), await options({ resumeJobId: renderId }));
    assert.equal(result.providerJobId, renderId);
    assert.ok(!since(start).some((r) => r.method === 'POST'), 'nothing uploaded or submitted again');
    assert.ok((await probeMedia(result.videoPath)).video);
  });
});
