import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  REPLICATE_SENSITIVE_ERROR,
  startReplicateServer,
  type ReplicateServer,
} from '../../../test/support/replicate-server.ts';
import { makeShotClip } from '../../../test/support/shot-clip.ts';
import { chooseVideoProvider, loadModelMapping } from './model-mapping.ts';
import { createReplicateProvider } from './replicate-predictions.ts';
import { VideoProviderError, type ShotRequest, type ShotState } from './video-model-provider.ts';

const guard = new UrlGuard({ allowLoopback: true });
let rep: ReplicateServer;

before(async () => {
  rep = await startReplicateServer({ clipPath: await makeShotClip() });
});
after(async () => {
  await rep.close();
  await guard.close();
});

const shot = (prompt: string, extra: Partial<ShotRequest> = {}): ShotRequest => ({
  providerModel: 'google/veo-3.1',
  prompt,
  durationSec: 8,
  aspectRatio: '9:16',
  resolution: '1080p',
  nativeAudio: true,
  ...extra,
});

function client(token = rep.token) {
  return createReplicateProvider(guard, { token, baseUrl: rep.baseUrl });
}

async function pollAll(prompt: string, extra: Partial<ShotRequest> = {}): Promise<ShotState[]> {
  const provider = client();
  const submitted = await provider.submit(shot(prompt, extra));
  const states: ShotState[] = [];
  for (let i = 0; i < 10; i++) {
    const state = await provider.status(submitted);
    states.push(state);
    if (state.state === 'completed' || state.state === 'failed') break;
  }
  return states;
}

describe('Replicate predictions client', () => {
  test('creates an official-model prediction with the mapped input and follows it to the video', async () => {
    const mapping = await loadModelMapping();
    const chosen = chooseVideoProvider(mapping, 'ridge-3.0-pro', 'image-to-video', {
      replicate: { token: rep.token },
    });
    assert.ok(chosen);
    const provider = client();
    const submitted = await provider.submit(
      shot('a fox crossing a snowy field', {
        providerModel: chosen.providerModel,
        inputShape: chosen.inputShape,
        extraInput: chosen.extraInput,
        imageUrl: 'https://images.example.com/fox.jpg',
        durationSec: 20,
        nativeAudio: false,
      }),
    );
    const create = rep.requests.find((r) => r.method === 'POST' && r.path.includes('/v1/models/'));
    assert.equal(create?.path, '/v1/models/kwaivgi/kling-v3-video/predictions');
    assert.equal(create?.authorization, `Bearer ${rep.token}`);
    // Kling on Replicate: start_image, an integer duration capped at 15 s, the tier as `mode`, no resolution.
    assert.deepEqual(create?.body, {
      input: {
        prompt: 'a fox crossing a snowy field',
        duration: 15,
        aspect_ratio: '9:16',
        generate_audio: false,
        start_image: 'https://images.example.com/fox.jpg',
        mode: 'pro',
      },
    });
    assert.equal(submitted.provider, 'replicate');
    assert.equal(submitted.providerModel, 'kwaivgi/kling-v3-video');

    const states: ShotState[] = [];
    for (let i = 0; i < 8; i++) {
      const state = await provider.status(submitted);
      states.push(state);
      if (state.state === 'completed') break;
    }
    assert.deepEqual(states, [
      { state: 'queued' },
      { state: 'running' },
      { state: 'running' },
      { state: 'completed', videoUrl: `${rep.baseUrl}/files/shot.mp4` },
    ]);
    const gets = rep.requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/predictions/${submitted.requestId}`,
    );
    assert.equal(gets.length, 4);
    assert.ok(gets.every((r) => r.authorization === `Bearer ${rep.token}`));
  });

  test('a pinned version is created through /v1/predictions with the version id', async () => {
    const version = 'ed5b1767b711dd15d954b162af1e890d27882680f463a85e94f02d604012b972';
    await client().submit(shot('pinned', { providerModel: `google/veo-3.1:${version}` }));
    const create = rep.requests.find((r) => r.method === 'POST' && r.path === '/v1/predictions');
    assert.deepEqual(create?.body, {
      version,
      input: {
        prompt: 'pinned',
        duration: 8,
        aspect_ratio: '9:16',
        resolution: '1080p',
        generate_audio: true,
      },
    });
  });

  test('an output given as a list of URLs still yields the video', async () => {
    rep.script('list output', { outcome: 'video', outputList: true, starting: 0, processing: 0 });
    assert.deepEqual((await pollAll('list output')).at(-1), {
      state: 'completed',
      videoUrl: `${rep.baseUrl}/files/shot.mp4`,
    });
  });

  test('an E005 sensitive-content failure is a refused, not retryable shot', async () => {
    rep.script('refused', { outcome: 'refused' });
    assert.deepEqual((await pollAll('refused')).at(-1), {
      state: 'failed',
      refused: true,
      retryable: false,
      message: REPLICATE_SENSITIVE_ERROR,
    });
  });

  test('a failure mid-way carries Replicate’s error; only documented transient codes are retryable', async () => {
    rep.script('oom', { outcome: 'error', error: 'CUDA out of memory (E1001)' });
    const oom = await pollAll('oom');
    assert.deepEqual(
      oom.map((s) => s.state),
      ['queued', 'running', 'running', 'failed'],
    );
    assert.deepEqual(oom.at(-1), {
      state: 'failed',
      refused: false,
      retryable: false,
      message: 'CUDA out of memory (E1001)',
    });
    rep.script('slow start', { outcome: 'error', error: 'Timeout starting prediction (E6716)' });
    const slow = (await pollAll('slow start')).at(-1);
    assert.equal(slow?.state, 'failed');
    assert.equal(slow?.state === 'failed' && slow.retryable, true);
  });

  test('a wrong token is unauthorized and names the setting', async () => {
    await assert.rejects(client('r8_wrong').submit(shot('x')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'unauthorized');
      assert.match(error.message, /REPLICATE_API_TOKEN/);
      return true;
    });
  });

  test('429 on create and on a poll is rate_limited with the Retry-After seconds', async () => {
    rep.script('throttled', { outcome: 'video', createRateLimitOnceSec: 3, pollRateLimitOnceSec: 2 });
    const provider = client();
    await assert.rejects(provider.submit(shot('throttled')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.kind, 'rate_limited');
      assert.equal(error.retryAfterSec, 3);
      return true;
    });
    const submitted = await provider.submit(shot('throttled'));
    await assert.rejects(provider.status(submitted), (error: unknown) => {
      assert.ok(error instanceof VideoProviderError);
      assert.equal(error.retryAfterSec, 2);
      return true;
    });
    assert.deepEqual(await provider.status(submitted), { state: 'queued' });
  });

  test('cancel POSTs to the cancel endpoint and the prediction then reads as failed (canceled)', async () => {
    rep.script('forever', { outcome: 'never' });
    const provider = client();
    const submitted = await provider.submit(shot('forever'));
    await provider.cancel(submitted);
    const cancel = rep.requests.at(-1);
    assert.equal(cancel?.method, 'POST');
    assert.equal(cancel?.path, `/v1/predictions/${submitted.requestId}/cancel`);
    assert.equal(rep.prediction(submitted.requestId)?.canceled, true);
    assert.deepEqual(await provider.status(submitted), {
      state: 'failed',
      refused: false,
      retryable: false,
      message: 'the prediction was canceled',
    });
  });

  test('a model id that is not owner/name is refused before any request', async () => {
    const before = rep.requests.length;
    await assert.rejects(client().submit(shot('x', { providerModel: 'fal-ai/veo3.1/image-to-video' })), {
      name: 'VideoProviderError',
    });
    assert.equal(rep.requests.length, before);
  });
});
