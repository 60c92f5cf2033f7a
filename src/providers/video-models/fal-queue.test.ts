import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { startFalQueueServer, type FalQueueServer } from '../../../test/support/fal-queue-server.ts';
import { makeShotClip } from '../../../test/support/shot-clip.ts';
import { createFalQueueProvider } from './fal-queue.ts';
import { chooseVideoProvider, loadModelMapping } from './model-mapping.ts';
import { VideoProviderError, type ShotRequest, type ShotState } from './video-model-provider.ts';

const guard = new UrlGuard({ allowLoopback: true });
let fal: FalQueueServer;

before(async () => {
  fal = await startFalQueueServer({ clipPath: await makeShotClip() });
});
after(async () => {
  await fal.close();
  await guard.close();
});

const shot = (prompt: string, extra: Partial<ShotRequest> = {}): ShotRequest => ({
  providerModel: 'fal-ai/veo3.1',
  prompt,
  durationSec: 8,
  aspectRatio: '9:16',
  resolution: '1080p',
  nativeAudio: true,
  ...extra,
});

async function pollAll(
  provider: ReturnType<typeof createFalQueueProvider>,
  prompt: string,
): Promise<ShotState[]> {
  const submitted = await provider.submit(shot(prompt));
  const states: ShotState[] = [];
  for (let i = 0; i < 10; i++) {
    const state = await provider.status(submitted);
    states.push(state);
    if (state.state === 'completed' || state.state === 'failed') break;
  }
  return states;
}

describe('fal queue client', () => {
  test('submits the mapped input with the key, then follows queued → in progress → completed', async () => {
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const mapping = await loadModelMapping();
    const chosen = chooseVideoProvider(mapping, 'ridge-3.0-standard', 'image-to-video', {
      fal: { key: fal.key },
    });
    assert.ok(chosen);
    const submitted = await provider.submit(
      shot('a lighthouse at dusk, waves rolling in', {
        providerModel: chosen.providerModel,
        inputShape: chosen.inputShape,
        extraInput: chosen.extraInput,
        imageUrl: 'https://images.example.com/first-frame.jpg',
        durationSec: 5,
        nativeAudio: false,
      }),
    );
    const sent = fal.requests.find((r) => r.method === 'POST' && r.path.endsWith('/image-to-video'));
    assert.ok(sent);
    assert.equal(sent.path, '/fal-ai/kling-video/v3/standard/image-to-video');
    assert.equal(sent.authorization, `Key ${fal.key}`);
    // Kling on fal: the image is start_image_url, the duration a string, and there is no resolution input.
    assert.deepEqual(sent.body, {
      prompt: 'a lighthouse at dusk, waves rolling in',
      duration: '5',
      aspect_ratio: '9:16',
      generate_audio: false,
      start_image_url: 'https://images.example.com/first-frame.jpg',
    });
    assert.equal(submitted.provider, 'fal');
    assert.equal(submitted.providerModel, 'fal-ai/kling-video/v3/standard/image-to-video');
    // Follow-up URLs name the app only, as fal hands them out.
    assert.equal(
      submitted.urls?.status,
      `${fal.baseUrl}/fal-ai/kling-video/requests/${submitted.requestId}/status`,
    );

    const states: ShotState[] = [];
    for (let i = 0; i < 6; i++) {
      const state = await provider.status(submitted);
      states.push(state);
      if (state.state === 'completed') break;
    }
    assert.deepEqual(states, [
      { state: 'queued', position: 1 },
      { state: 'queued', position: 0 },
      { state: 'running' },
      { state: 'completed', videoUrl: `${fal.baseUrl}/files/shot.mp4` },
    ]);
    const polls = fal.requests.filter((r) => r.path.endsWith(`/${submitted.requestId}/status`));
    assert.equal(polls.length, 4);
    assert.ok(polls.every((r) => r.authorization === `Key ${fal.key}`));
  });

  test('a prompt refused at submit is a refused VideoProviderError', async () => {
    fal.script('refuse me at the door', { outcome: 'refused-at-submit' });
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    await assert.rejects(provider.submit(shot('refuse me at the door')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'refused');
      assert.equal(error.status, 422);
      assert.match(error.message, /flagged by a content checker/);
      assert.equal(error.retryable, false);
      return true;
    });
  });

  test('a result refused by the content checker is a failed, refused, not retryable shot', async () => {
    fal.script('refuse me later', { outcome: 'refused', queued: 0, running: 1 });
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const states = await pollAll(provider, 'refuse me later');
    assert.deepEqual(states.at(-1), {
      state: 'failed',
      refused: true,
      retryable: false,
      message: 'The content was flagged by a content checker.',
    });
  });

  test('a request that fails mid-way is a failed, retryable shot carrying fal’s explanation', async () => {
    fal.script('fail mid-way', { outcome: 'model-error', queued: 1, running: 2 });
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const states = await pollAll(provider, 'fail mid-way');
    assert.deepEqual(
      states.map((s) => s.state),
      ['queued', 'running', 'running', 'failed'],
    );
    assert.deepEqual(states.at(-1), {
      state: 'failed',
      refused: false,
      retryable: true,
      message: 'Request timed out (request_timeout)',
    });
  });

  test('a wrong key is unauthorized and names the setting', async () => {
    const provider = createFalQueueProvider(guard, { key: 'wrong-key', baseUrl: fal.baseUrl });
    await assert.rejects(provider.submit(shot('anything')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'unauthorized');
      assert.equal(error.status, 401);
      assert.match(error.message, /FAL_KEY/);
      return true;
    });
  });

  test('429 is rate_limited with the Retry-After seconds; a gateway 503 is unavailable', async () => {
    fal.script('busy', { outcome: 'video', rateLimitOnceSec: 7, outages: 1 });
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const submitted = await provider.submit(shot('busy'));
    await assert.rejects(provider.status(submitted), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'rate_limited');
      assert.equal(error.retryAfterSec, 7);
      return true;
    });
    await assert.rejects(provider.status(submitted), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'unavailable');
      assert.equal(error.status, 503);
      return true;
    });
    assert.deepEqual(await provider.status(submitted), { state: 'queued', position: 1 });
  });

  test('cancel PUTs the cancel URL; cancelling a finished request is not an error', async () => {
    fal.script('cancel me', { outcome: 'never' });
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const submitted = await provider.submit(shot('cancel me'));
    await provider.cancel(submitted);
    const put = fal.requests.find((r) => r.method === 'PUT' && r.path.includes(submitted.requestId));
    assert.equal(put?.path, `/fal-ai/veo3.1/requests/${submitted.requestId}/cancel`);
    assert.equal(put?.authorization, `Key ${fal.key}`);
    assert.equal(fal.request(submitted.requestId)?.cancelled, true);

    fal.script('already done', { outcome: 'video', queued: 0, running: 0 });
    const finished = await provider.submit(shot('already done'));
    assert.equal((await provider.status(finished)).state, 'completed');
    await provider.cancel(finished);
    assert.equal(fal.request(finished.requestId)?.cancelled, false);
  });

  test('follow-up URLs on another origin are never sent the key: the documented URLs are used instead', async () => {
    const provider = createFalQueueProvider(guard, { key: fal.key, baseUrl: fal.baseUrl });
    const submitted = await provider.submit(
      shot('stay home', { providerModel: 'fal-ai/veo3.1/image-to-video' }),
    );
    const tampered = {
      ...submitted,
      urls: {
        status: 'https://collector.example.net/status',
        result: 'https://collector.example.net/result',
        cancel: 'https://collector.example.net/cancel',
      },
    };
    assert.deepEqual(await provider.status(tampered), { state: 'queued', position: 1 });
    const last = fal.requests.at(-1);
    assert.equal(last?.path, `/fal-ai/veo3.1/requests/${submitted.requestId}/status`);
  });
});
