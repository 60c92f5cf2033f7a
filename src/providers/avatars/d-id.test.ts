import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { startDIdServer, type DIdServer } from '../../../test/support/d-id-server.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from '../../../test/support/sample-photos.ts';
import { DIdTalkingPhoto } from './d-id.ts';
import {
  TalkingPhotoError,
  talkingPhotoJobFailure,
  type TalkingPhotoJob,
  type TalkingPhotoRenderOptions,
} from './talking-photo.ts';

const guard = new UrlGuard({ allowLoopback: true });
let did: DIdServer;
let dir: string;
let photoPath: string;
let audioPath: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'd-id-test-'));
  did = await startDIdServer();
  // A landscape 400×300 photo of one person: D-ID keeps the uploaded frame, so the crop decides the orientation.
  photoPath = await cutToFile(SAMPLES, MAN_AT_TABLE, dir, 'presenter', { width: 400 });
  audioPath = join(dir, 'narration.wav');
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=1.5', '-ar', '24000', audioPath]);
});
after(async () => {
  await did.close();
  await guard.close();
  await rm(dir, { recursive: true, force: true });
});

const POLL_MS = 40;

const client = (overrides: { apiKey?: string; timeoutMs?: number } = {}) =>
  new DIdTalkingPhoto({
    apiKey: overrides.apiKey ?? did.apiKey,
    baseUrl: did.baseUrl,
    pollIntervalMs: POLL_MS,
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
const since = (mark: number) => did.requests.slice(mark);

async function rejection(promise: Promise<unknown>): Promise<TalkingPhotoError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TalkingPhotoError, `expected a TalkingPhotoError, got ${String(error)}`);
    return error;
  }
  assert.fail('the render should have failed');
}

describe('D-ID talking photo (talks API)', () => {
  test('uploads the image and audio, creates an audio-driven stitched talk, and delivers a portrait MP4', async () => {
    const start = did.requests.length;
    const progress: number[] = [];
    const submitted: string[] = [];
    const result = await client().render(
      job('portrait talk'),
      await options({ onProgress: (f) => progress.push(f), onSubmitted: (id) => void submitted.push(id) }),
    );

    const requests = since(start);
    const api = requests.filter((r) => !r.path.startsWith('/results/'));
    assert.ok(api.every((r) => r.authorization === `Basic ${did.apiKey}`));
    const image = requests.find((r) => r.method === 'POST' && r.path === '/images');
    const audio = requests.find((r) => r.method === 'POST' && r.path === '/audios');
    assert.match(image?.contentType ?? '', /^multipart\/form-data; boundary=/);
    assert.equal((image?.body as { image: { type: string } }).image.type, 'image/jpeg');
    assert.equal((audio?.body as { audio: { type: string } }).audio.type, 'audio/mpeg');

    const create = requests.find((r) => r.method === 'POST' && r.path === '/talks');
    const sent = create?.body as { source_url: string; script: { audio_url: string } };
    assert.match(sent.source_url, /^s3:\/\/d-id-images-prod\/.+\.jpeg$/);
    assert.match(sent.script.audio_url, /^s3:\/\/d-id-audios-prod\/.+\.wav$/);
    assert.deepEqual(sent, {
      source_url: sent.source_url,
      script: { type: 'audio', audio_url: sent.script.audio_url },
      config: { stitch: true, result_format: 'mp4' },
      name: 'portrait talk',
    });

    assert.deepEqual(submitted, [result.providerJobId]);
    assert.match(result.providerJobId, /^tlk_/);
    assert.equal(did.talk(result.providerJobId)?.polls, 3, 'created, started, done');
    assert.deepEqual(progress, [0.05, 0.12, 0.2, 0.25, 0.5, 0.9, 1]);

    const info = await probeMedia(result.videoPath);
    assert.ok(info.video, 'the result has a video stream');
    assert.ok(
      info.video.height > info.video.width,
      `portrait expected, got ${info.video.width}x${info.video.height}`,
    );
    assert.ok(info.audio, 'the narration is in the result');
    assert.ok(Math.abs(info.durationSec - 1.5) < 0.35, `about as long as the narration: ${info.durationSec}`);

    const deleted = requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/')[1]);
    assert.deepEqual(deleted.sort(), ['audios', 'images']);
  });

  test('16:9 renders a landscape video; 1:1 a square one', async () => {
    for (const [aspect, check] of [
      ['16:9', (w: number, h: number) => w > h],
      ['1:1', (w: number, h: number) => w === h],
    ] as const) {
      const result = await client().render(job(`talk ${aspect}`, aspect), await options());
      const { video } = await probeMedia(result.videoPath);
      assert.ok(video && check(video.width, video.height), `${aspect}: got ${video?.width}x${video?.height}`);
    }
  });

  test('a wrong key is unauthorized, names DID_API_KEY, and nothing is uploaded', async () => {
    const start = did.requests.length;
    const error = await rejection(
      client({ apiKey: 'bm9ib2R5:wrong' }).render(job('bad key'), await options()),
    );
    assert.equal(error.kind, 'unauthorized');
    assert.equal(error.details.status, 401);
    assert.match(error.message, /DID_API_KEY/);
    assert.match(error.message, /user unauthenticated/);
    assert.ok(!since(start).some((r) => r.path === '/talks'));
  });

  test('a 429 without Retry-After is retried after an exponential backoff', async () => {
    did.script('throttled', { outcome: 'video', pollRateLimitOnce: {} });
    const start = did.requests.length;
    const result = await client().render(job('throttled'), await options());
    const polls = since(start).filter(
      (r) => r.method === 'GET' && r.path === `/talks/${result.providerJobId}`,
    );
    assert.equal(polls.length, 4, 'the 429 and three real polls');
    const [limited, retried] = polls;
    assert.ok(
      limited && retried && retried.at - limited.at >= 2 * POLL_MS,
      'backed off twice the poll interval',
    );
    assert.ok((await probeMedia(result.videoPath)).video);
  });

  test('a talk rejected by moderation, or a 451 at creation, is refused → CONTENT_REFUSED', async () => {
    did.script('rejected talk', { outcome: 'rejected' });
    const rejected = await rejection(client().render(job('rejected talk'), await options()));
    assert.equal(rejected.kind, 'refused');
    assert.match(rejected.message, /ImageModerationError/);
    assert.equal(talkingPhotoJobFailure(rejected).jobError.code, 'CONTENT_REFUSED');

    did.script('refused at the door', { outcome: 'refused-at-create' });
    const start = did.requests.length;
    const refused = await rejection(client().render(job('refused at the door'), await options()));
    assert.equal(refused.kind, 'refused');
    assert.equal(refused.details.status, 451);
    assert.equal(refused.retryable, false);
    assert.equal(talkingPhotoJobFailure(refused).jobError.code, 'CONTENT_REFUSED');
    // Nothing can still need the uploads: both are deleted.
    assert.equal(since(start).filter((r) => r.method === 'DELETE').length, 2);
  });

  test('a talk that ends in error is a failed error → AI_PROVIDER_FAILED with D-ID’s reason', async () => {
    did.script('no face', { outcome: 'error' });
    const error = await rejection(client().render(job('no face'), await options()));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /face not detected \(FaceError\)/);
    assert.equal(error.retryable, false);
    assert.equal(talkingPhotoJobFailure(error).jobError.code, 'AI_PROVIDER_FAILED');
  });

  test('a talk that never finishes times out → AI_PROVIDER_TIMEOUT', async () => {
    did.script('stuck', { outcome: 'never' });
    const start = Date.now();
    const error = await rejection(client({ timeoutMs: 1500 }).render(job('stuck'), await options()));
    assert.equal(error.kind, 'timeout');
    assert.match(error.details.providerJobId ?? '', /^tlk_/);
    assert.ok(Date.now() - start < 5000, 'gave up near the budget');
    assert.equal(talkingPhotoJobFailure(error).jobError.code, 'AI_PROVIDER_TIMEOUT');
  });

  test('an abort, before the start or while polling, rejects with the abort reason', async () => {
    did.script('cut short', { outcome: 'never' });
    const controller = new AbortController();
    let talkId = '';
    const pending = client().render(
      job('cut short'),
      await options({
        signal: controller.signal,
        onSubmitted: (id) => {
          talkId = id;
          setTimeout(() => controller.abort(new Error('cancelled by the caller')), 60);
        },
      }),
    );
    await assert.rejects(pending, /cancelled by the caller/);
    const polls = did.talk(talkId)?.polls ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(did.talk(talkId)?.polls, polls, 'no polling after the abort');

    const aborted = AbortSignal.abort(new Error('already cancelled'));
    await assert.rejects(
      client().render(job('cut short'), await options({ signal: aborted })),
      /already cancelled/,
    );
  });
});
