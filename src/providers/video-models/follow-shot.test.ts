import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemLookup, type HostLookup } from '../../platform/net/guarded-lookup.ts';
import { UrlGuard, UrlRejectedError } from '../../platform/net/url-guard.ts';
import { startFalQueueServer, type FalQueueServer } from '../../../test/support/fal-queue-server.ts';
import { startReplicateServer, type ReplicateServer } from '../../../test/support/replicate-server.ts';
import { makeShotClip, SHOT_CLIP } from '../../../test/support/shot-clip.ts';
import { createFalQueueProvider } from './fal-queue.ts';
import { downloadShot, followShot, ShotDownloadError, ShotTimeoutError } from './follow-shot.ts';
import { createReplicateProvider } from './replicate-predictions.ts';
import { VideoProviderError, type ShotRequest, type ShotState } from './video-model-provider.ts';

/** A public-looking name that resolves to a private address, as a hostile or broken provider CDN could. */
const PRIVATE_NAME = 'media.videocdn-results.com';
const lookup: HostLookup = async (host) =>
  host === PRIVATE_NAME ? [{ address: '10.1.2.3', family: 4 }] : systemLookup(host);
const guard = new UrlGuard({ allowLoopback: true, lookup });
let fal: FalQueueServer;
let rep: ReplicateServer;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'follow-shot-'));
  const clipPath = await makeShotClip(dir);
  fal = await startFalQueueServer({ clipPath });
  rep = await startReplicateServer({ clipPath });
});
after(async () => {
  await fal.close();
  await rep.close();
  await guard.close();
  await rm(dir, { recursive: true, force: true });
});

const shot = (prompt: string): ShotRequest => ({
  providerModel: 'fal-ai/ltx-2.3/text-to-video',
  prompt,
  durationSec: 6,
  aspectRatio: '9:16',
  resolution: '1080p',
  nativeAudio: true,
});

const falClient = () => createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });

describe('followShot', () => {
  test('follows a fal request to completion, reporting each new state, and the result downloads as a video', async () => {
    const provider = falClient();
    const submitted = await provider.submit(shot('a harbour at sunrise'));
    const seen: ShotState[] = [];
    const final = await followShot(provider, submitted, { pollIntervalMs: 10, onState: (s) => seen.push(s) });
    assert.deepEqual(seen, [
      { state: 'queued', position: 1 },
      { state: 'queued', position: 0 },
      { state: 'running' },
      final,
    ]);
    assert.equal(final.state, 'completed');
    assert.ok(final.state === 'completed');

    const dest = join(dir, 'harbour.mp4');
    const downloaded = await downloadShot(guard, final.videoUrl, dest);
    assert.ok(downloaded.bytes > 1000);
    assert.equal(downloaded.contentType, 'video/mp4');
    assert.equal(downloaded.info.video?.width, SHOT_CLIP.width);
    assert.equal(downloaded.info.video?.height, SHOT_CLIP.height);
    assert.ok(
      Math.abs(downloaded.info.durationSec - SHOT_CLIP.seconds) < 0.2,
      String(downloaded.info.durationSec),
    );
    assert.ok(downloaded.info.audio);
  });

  test('waits out a rate limit for its Retry-After and retries gateway outages', async () => {
    fal.script('crowded', { outcome: 'video', queued: 0, running: 0, rateLimitOnceSec: 1, outages: 2 });
    const provider = falClient();
    const submitted = await provider.submit(shot('crowded'));
    const started = Date.now();
    const final = await followShot(provider, submitted, { pollIntervalMs: 20 });
    const elapsed = Date.now() - started;
    assert.equal(final.state, 'completed');
    // 1 s Retry-After, then two outages backed off 20 ms and 40 ms.
    assert.ok(elapsed >= 1000, `elapsed ${elapsed} ms`);
    const polls = fal.requests.filter((r) => r.path.endsWith(`/${submitted.requestId}/status`));
    assert.equal(polls.length, 4);
  });

  test('gives up after too many outages in a row with the provider’s error', async () => {
    fal.script('down', { outcome: 'video', outages: 5 });
    const provider = falClient();
    const submitted = await provider.submit(shot('down'));
    await assert.rejects(
      followShot(provider, submitted, { pollIntervalMs: 5, maxTransientRetries: 2 }),
      (error: unknown) => error instanceof VideoProviderError && error.kind === 'unavailable',
    );
    const polls = fal.requests.filter((r) => r.path.endsWith(`/${submitted.requestId}/status`));
    assert.equal(polls.length, 3);
  });

  test('bad credentials stop at once', async () => {
    const provider = falClient();
    const submitted = await provider.submit(shot('locked out'));
    const wrong = createFalQueueProvider(guard, { key: 'revoked', baseUrl: fal.baseUrl });
    await assert.rejects(
      followShot(wrong, submitted, { pollIntervalMs: 5 }),
      (error: unknown) => error instanceof VideoProviderError && error.kind === 'unauthorized',
    );
  });

  test('a request that never finishes is cancelled at the provider and reported as a timeout', async () => {
    fal.script('endless', { outcome: 'never' });
    const provider = falClient();
    const submitted = await provider.submit(shot('endless'));
    const started = Date.now();
    await assert.rejects(
      followShot(provider, submitted, { pollIntervalMs: 50, maxWaitMs: 400 }),
      (error: unknown) => {
        assert.ok(error instanceof ShotTimeoutError);
        assert.equal(error.cancelled, true);
        assert.match(error.message, /did not finish within 0 s; the provider request was cancelled/);
        return true;
      },
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 400 && elapsed < 2000, `elapsed ${elapsed} ms`);
    assert.equal(fal.request(submitted.requestId)?.cancelled, true);
  });

  test('an aborted signal stops following without cancelling the paid request', async () => {
    fal.script('worker shutting down', { outcome: 'never' });
    const provider = falClient();
    const submitted = await provider.submit(shot('worker shutting down'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await assert.rejects(followShot(provider, submitted, { pollIntervalMs: 20, signal: controller.signal }), {
      message: 'shutting down',
    });
    assert.equal(fal.request(submitted.requestId)?.cancelled, false);
  });

  test('a Replicate refusal ends the wait as a failed, refused shot', async () => {
    rep.script('refuse this', { outcome: 'refused', starting: 0, processing: 1 });
    const provider = createReplicateProvider(guard, { token: rep.token, baseUrl: rep.baseUrl });
    const submitted = await provider.submit({
      ...shot('refuse this'),
      providerModel: 'bytedance/seedance-2.0',
    });
    const final = await followShot(provider, submitted, { pollIntervalMs: 5 });
    assert.equal(final.state, 'failed');
    assert.equal(final.state === 'failed' && final.refused, true);
  });

  test('a Replicate prediction rate-limited once still completes', async () => {
    rep.script('throttled poll', { outcome: 'video', pollRateLimitOnceSec: 0, starting: 0, processing: 0 });
    const provider = createReplicateProvider(guard, { token: rep.token, baseUrl: rep.baseUrl });
    const submitted = await provider.submit({
      ...shot('throttled poll'),
      providerModel: 'bytedance/seedance-2.0',
    });
    const final = await followShot(provider, submitted, { pollIntervalMs: 5 });
    assert.deepEqual(final, { state: 'completed', videoUrl: `${rep.baseUrl}/files/shot.mp4` });
  });
});

describe('downloadShot', () => {
  test('a result URL at a private IP address is refused with a clear error', async () => {
    fal.script('private literal', {
      outcome: 'video',
      queued: 0,
      running: 0,
      videoUrl: 'https://10.1.2.3/x.mp4',
    });
    const provider = falClient();
    const final = await followShot(provider, await provider.submit(shot('private literal')), {
      pollIntervalMs: 5,
    });
    assert.deepEqual(final, { state: 'completed', videoUrl: 'https://10.1.2.3/x.mp4' });
    const dest = join(dir, 'private-literal.mp4');
    await assert.rejects(downloadShot(guard, final.videoUrl, dest), (error: unknown) => {
      assert.ok(error instanceof UrlRejectedError);
      assert.equal(error.reason, 'ip_literal');
      assert.match(error.message, /provider's result video URL was refused/);
      return true;
    });
    assert.equal(existsSync(dest), false);
  });

  test('a result URL whose name resolves to a private address is refused', async () => {
    const dest = join(dir, 'private-name.mp4');
    await assert.rejects(
      downloadShot(guard, `https://${PRIVATE_NAME}/shots/1.mp4`, dest),
      (error: unknown) => {
        assert.ok(error instanceof UrlRejectedError);
        assert.equal(error.reason, 'private_address');
        return true;
      },
    );
    assert.equal(existsSync(dest), false);
  });

  test('a result that is not a video is refused and not kept', async () => {
    const dest = join(dir, 'garbage.mp4');
    await assert.rejects(downloadShot(guard, `${fal.baseUrl}/files/garbage.mp4`, dest), ShotDownloadError);
    assert.equal(existsSync(dest), false);
  });

  test('a result larger than the bound is refused', async () => {
    const dest = join(dir, 'too-big.mp4');
    await assert.rejects(
      downloadShot(guard, `${fal.baseUrl}/files/shot.mp4`, dest, { maxBytes: 1000 }),
      (error: unknown) => error instanceof UrlRejectedError && error.reason === 'too_large',
    );
    assert.equal(existsSync(dest), false);
  });
});
