import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { OpenAiModerationClient } from '../../providers/openai-moderation.ts';
import {
  startFakeModerationServer,
  type FakeModerationServer,
} from '../../../test/support/moderation-server.ts';
import {
  checkContent,
  CONTENT_POLICY,
  ContentCheckUnavailableError,
  NOT_BLOCKING_ALONE,
  PROVIDER_CATEGORIES,
} from './content-check.ts';
import { SCRIPT_POLICY_CATEGORIES } from './script-policy.ts';

let server: FakeModerationServer;
let dir: string;
let redPhoto: string;
let greyPhoto: string;

function moderation(maxRetries = 0): OpenAiModerationClient {
  return new OpenAiModerationClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries });
}

before(async () => {
  server = await startFakeModerationServer();
  server.flagText('[explicit]', ['sexual']);
  server.flagText('[war report]', ['violence']);
  server.flagImages((image) => image.mean[0] > 180 && image.mean[1] < 80, ['violence/graphic', 'violence']);
  dir = await mkdtemp(join(tmpdir(), 'content-check-'));
  // Larger than the 1024 px the provider is sent, to see the downscale; PNG with alpha, to see the flatten.
  redPhoto = join(dir, 'red.png');
  greyPhoto = join(dir, 'grey.jpg');
  await sharp({
    create: { width: 1600, height: 1200, channels: 4, background: { r: 210, g: 30, b: 30, alpha: 1 } },
  })
    .png()
    .toFile(redPhoto);
  await sharp({ create: { width: 640, height: 800, channels: 3, background: { r: 120, g: 125, b: 130 } } })
    .jpeg()
    .toFile(greyPhoto);
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

void test('the local policy blocks first and names the category, the reason and the sentence; no provider call', async () => {
  const before = server.requests.length;
  const verdict = await checkContent(
    {
      text: 'Welcome back.\nHi, I am Elon Musk, and today I am doubling every bitcoin you send.',
      imagePath: greyPhoto,
    },
    { moderation: moderation() },
  );
  assert.equal(verdict.allowed, false);
  assert.ok(!verdict.allowed && verdict.blockedBy === 'local_policy');
  assert.equal(verdict.category, 'impersonation');
  assert.equal(verdict.excerpt, 'Hi, I am Elon Musk, and today I am doubling every bitcoin you send.');
  assert.match(verdict.message, /content policy on impersonation/);
  assert.match(verdict.message, /Elon Musk, a real public figure/);
  assert.deepEqual(verdict.checks, ['script_policy']);
  assert.equal(server.requests.length, before);
});

void test('without a provider a script is held to the local policy alone, and a photo is not checked', async () => {
  assert.deepEqual(await checkContent({ text: 'Three ways to save on groceries.' }), {
    allowed: true,
    checks: ['script_policy'],
  });
  assert.deepEqual(await checkContent({ imagePath: redPhoto }), { allowed: true, checks: [] });
});

void test('with a provider, a clean script and photo pass after both are read', async () => {
  const before = server.requests.length;
  const verdict = await checkContent(
    { text: 'Our bakery opens at seven.', imagePath: greyPhoto },
    { moderation: moderation() },
  );
  assert.deepEqual(verdict, {
    allowed: true,
    checks: ['script_policy', 'script_moderation', 'photo_moderation'],
  });
  const sent = server.requests.slice(before);
  assert.equal(sent.length, 2);
  assert.ok(sent.some((r) => (r.body as { input: unknown }).input === 'Our bakery opens at seven.'));
});

void test('a script the provider flags is blocked by the provider, with its categories in words', async () => {
  const verdict = await checkContent(
    { text: 'A perfectly ordinary [explicit] sentence.' },
    { moderation: moderation() },
  );
  assert.ok(!verdict.allowed);
  assert.deepEqual(
    { input: verdict.input, blockedBy: verdict.blockedBy },
    { input: 'script', blockedBy: 'provider' },
  );
  assert.ok(verdict.blockedBy === 'provider');
  assert.deepEqual(verdict.categories, ['sexual']);
  assert.equal(verdict.provider, 'openai-moderation');
  assert.equal(
    verdict.message,
    'The script was blocked by the moderation check (sexual content). Rephrase the script and send the request again.',
  );
});

void test('violence alone does not block (news and history are violent); it does with another category', async () => {
  const verdict = await checkContent(
    { text: 'Our [war report] on the front lines tonight.' },
    { moderation: moderation() },
  );
  assert.equal(verdict.allowed, true);
  const both = await checkContent(
    { text: 'Our [war report], now [explicit].' },
    { moderation: moderation() },
  );
  assert.ok(!both.allowed && both.blockedBy === 'provider');
  assert.deepEqual([...both.categories].sort(), ['sexual', 'violence']);
});

void test('a photo the provider flags is blocked; it was sent upright, downscaled, as a JPEG data URL', async () => {
  const before = server.requests.length;
  const verdict = await checkContent({ imagePath: redPhoto }, { moderation: moderation() });
  assert.ok(!verdict.allowed && verdict.blockedBy === 'provider');
  assert.equal(verdict.input, 'photo');
  assert.deepEqual(verdict.checks, ['photo_moderation']);
  assert.match(
    verdict.message,
    /^The photo was blocked by the moderation check \(graphic violence, violence\)\. Use another photo/,
  );
  const [request] = server.requests.slice(before);
  const input = (request?.body as { input: { type: string; image_url: { url: string } }[] }).input;
  assert.equal(input[0]?.type, 'image_url');
  assert.match(input[0]?.image_url.url ?? '', /^data:image\/jpeg;base64,/);
  assert.deepEqual(
    request?.images.map((i) => [i.format, i.width, i.height]),
    [['jpeg', 1024, 768]],
  );
});

void test('a provider that is down does not let content through: a retryable ContentCheckUnavailableError', async () => {
  server.failNext(503, 2);
  await assert.rejects(
    checkContent({ text: 'Our bakery opens at seven.', imagePath: greyPhoto }, { moderation: moderation() }),
    (err: unknown) => {
      assert.ok(err instanceof ContentCheckUnavailableError);
      assert.deepEqual(
        { code: err.jobError.code, category: err.jobError.category, retryable: err.jobError.retryable },
        { code: 'CONTENT_CHECK_UNAVAILABLE', category: 'provider', retryable: true },
      );
      const api = err.toApiError();
      assert.deepEqual([api.status, api.code, api.retryable], [503, 'CONTENT_CHECK_UNAVAILABLE', true]);
      return true;
    },
  );
});

void test('a provider refusing the service key is a non-retryable failure for the operator to fix', async () => {
  const wrongKey = new OpenAiModerationClient({ baseUrl: server.baseUrl, apiKey: 'sk-wrong', maxRetries: 0 });
  await assert.rejects(
    checkContent({ text: 'Our bakery opens at seven.' }, { moderation: wrongKey }),
    (err: unknown) =>
      err instanceof ContentCheckUnavailableError &&
      !err.jobError.retryable &&
      /HTTP 401/.test(err.message) &&
      /operator/.test(err.message),
  );
});

void test('a blocked input decides even when the provider failed on the other', async () => {
  server.failNext(503);
  // The photo request is started second (after the JPEG is made), so the first failure lands on the script.
  const verdict = await checkContent(
    { text: 'Our bakery opens at seven.', imagePath: redPhoto },
    { moderation: moderation() },
  );
  assert.ok(!verdict.allowed && verdict.blockedBy === 'provider');
  assert.equal(verdict.input, 'photo');
});

void test('an aborted check rejects with the abort reason', async () => {
  const controller = new AbortController();
  const reason = new Error('job cancelled');
  controller.abort(reason);
  await assert.rejects(
    checkContent({ text: 'Hello.' }, { moderation: moderation(), signal: controller.signal }),
    (err: unknown) => err === reason,
  );
});

void test('CONTENT_POLICY lists every local category and splits the provider categories by whether they block', () => {
  assert.deepEqual(
    CONTENT_POLICY.localPolicy.categories.map((c) => c.id),
    Object.keys(SCRIPT_POLICY_CATEGORIES),
  );
  for (const c of CONTENT_POLICY.localPolicy.categories) assert.ok(c.description.length > 20);
  const blocking = CONTENT_POLICY.provider.blocking.map((c) => c.id);
  const alone = CONTENT_POLICY.provider.notBlockingAlone.map((c) => c.id);
  assert.deepEqual([...blocking, ...alone].sort(), Object.keys(PROVIDER_CATEGORIES).sort());
  assert.deepEqual(alone, [...NOT_BLOCKING_ALONE]);
});
