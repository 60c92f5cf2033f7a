import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { ProviderError } from './openai-llm.ts';
import { OpenAiModerationClient } from './openai-moderation.ts';
import {
  startFakeModerationServer,
  type FakeModerationServer,
} from '../../test/support/moderation-server.ts';

let server: FakeModerationServer;

before(async () => {
  server = await startFakeModerationServer();
  server.flagText('[hateful]', ['hate', 'harassment']);
  // A photo that is mostly red stands in for a graphic one.
  server.flagImages((image) => image.mean[0] > 180 && image.mean[1] < 80, ['violence', 'violence/graphic']);
});
after(() => server.close());

function client(extra: { model?: string; timeoutMs?: number; maxRetries?: number; apiKey?: string } = {}) {
  return new OpenAiModerationClient({
    baseUrl: server.baseUrl,
    apiKey: extra.apiKey ?? server.apiKey,
    model: extra.model,
    timeoutMs: extra.timeoutMs,
    maxRetries: extra.maxRetries ?? 0,
  });
}

async function pngDataUrl(rgb: { r: number; g: number; b: number }): Promise<string> {
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: rgb } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

void test('a text is posted as the documented input string with the default model and the Bearer key', async () => {
  const result = await client().moderate({ kind: 'text', text: 'Five habits of calm founders.' });
  assert.deepEqual(server.requests.at(-1), {
    path: '/v1/moderations',
    authorization: `Bearer ${server.apiKey}`,
    body: { model: 'omni-moderation-latest', input: 'Five habits of calm founders.' },
    images: [],
  });
  assert.equal(result.flagged, false);
  assert.deepEqual(result.categories, []);
  assert.equal(result.model, 'omni-moderation-latest');
  assert.equal(Object.keys(result.scores).length, 13);
});

void test('a flagged text comes back with the categories the provider set and their scores', async () => {
  const result = await client({ model: 'omni-moderation-2024-09-26' }).moderate({
    kind: 'text',
    text: 'They are [hateful] words.',
  });
  assert.equal((server.requests.at(-1)?.body as { model: string }).model, 'omni-moderation-2024-09-26');
  assert.equal(result.flagged, true);
  assert.deepEqual(result.categories.sort(), ['harassment', 'hate']);
  assert.equal(result.scores.hate, 0.93);
  assert.ok((result.scores.sexual ?? 1) < 0.01);
});

void test('an image is sent as an image_url part holding the data URL, and the server reads its pixels', async () => {
  const red = await pngDataUrl({ r: 220, g: 20, b: 20 });
  const result = await client().moderate({ kind: 'image', url: red });
  const request = server.requests.at(-1)!;
  assert.deepEqual(request.body, {
    model: 'omni-moderation-latest',
    input: [{ type: 'image_url', image_url: { url: red } }],
  });
  assert.deepEqual(
    request.images.map((i) => [i.format, i.width, i.height]),
    [['png', 48, 32]],
  );
  assert.equal(result.flagged, true);
  assert.deepEqual(result.categories.sort(), ['violence', 'violence/graphic']);

  const grey = await client().moderate({ kind: 'image', url: await pngDataUrl({ r: 128, g: 128, b: 128 }) });
  assert.equal(grey.flagged, false);
});

void test('a rejected key is a non-retryable ProviderError with the status', async () => {
  await assert.rejects(
    client({ apiKey: 'sk-wrong' }).moderate({ kind: 'text', text: 'Hello.' }),
    (err: unknown) =>
      err instanceof ProviderError &&
      err.provider === 'openai-moderation' &&
      err.code === 'unauthorized' &&
      err.status === 401 &&
      !err.retryable &&
      /Incorrect API key/.test(err.message),
  );
});

void test('429 is retried by the client when retries are allowed, else reported as retryable', async () => {
  server.failNext(429);
  const before = server.requests.length;
  const result = await client({ maxRetries: 1 }).moderate({ kind: 'text', text: 'Second time lucky.' });
  assert.equal(result.flagged, false);
  assert.equal(server.requests.length - before, 2);

  server.failNext(429);
  await assert.rejects(
    client().moderate({ kind: 'text', text: 'No retries.' }),
    (err: unknown) =>
      err instanceof ProviderError && err.code === 'rate_limited' && err.status === 429 && err.retryable,
  );
});

void test('a server error is retryable', async () => {
  server.failNext(503);
  await assert.rejects(
    client().moderate({ kind: 'text', text: 'Down.' }),
    (err: unknown) => err instanceof ProviderError && err.code === 'server_error' && err.retryable,
  );
});

void test('a provider slower than the timeout is a retryable timeout', async () => {
  server.delayNext(1500);
  const started = Date.now();
  await assert.rejects(
    client({ timeoutMs: 200 }).moderate({ kind: 'text', text: 'Slow.' }),
    (err: unknown) => err instanceof ProviderError && err.code === 'timeout' && err.retryable,
  );
  assert.ok(Date.now() - started < 1400, 'gave up before the server answered');
});

void test('an answer without results is refused as not of the documented shape', async () => {
  server.answerNextWith({ id: 'modr-x', model: 'omni-moderation-latest', results: [] });
  await assert.rejects(
    client().moderate({ kind: 'text', text: 'Empty.' }),
    (err: unknown) => err instanceof ProviderError && err.code === 'invalid_response' && err.retryable,
  );
});

void test('an aborted request rejects with the abort reason', async () => {
  server.delayNext(1000);
  const controller = new AbortController();
  const reason = new Error('job cancelled');
  setTimeout(() => controller.abort(reason), 50);
  await assert.rejects(
    client().moderate({ kind: 'text', text: 'Cancel me.' }, { signal: controller.signal }),
    (err: unknown) => err === reason,
  );
});
