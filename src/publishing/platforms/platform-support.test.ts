import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerResponse } from 'node:http';
import {
  json,
  readBytes,
  startLoopback,
  type LoopbackServer,
} from '../../../test/support/platforms/fake-platform-server.ts';
import { testVideo } from '../../../test/support/platforms/test-video.ts';
import { businessUseCaseWaitMs } from './meta-graph.ts';
import { createPlatformClients, PLATFORMS, PlatformError } from './platform.ts';
import {
  composeCaption,
  fileBody,
  pinReturnedUrl,
  PlatformHttp,
  readChunk,
  statusError,
  utf16Length,
  type ClientContext,
} from './platform-support.ts';

type Script = (res: ServerResponse, attempt: number) => void;
const scripts = new Map<string, Script>();
const attempts = new Map<string, number>();
let server: LoopbackServer;

before(async () => {
  server = await startLoopback(async (req, res, url) => {
    await readBytes(req);
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    const script = scripts.get(url.pathname);
    if (script) script(res, attempt);
    else json(res, 404, {});
  });
});
after(() => server.close());

function http(
  retry = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 1_000 },
  requestTimeoutMs?: number,
): PlatformHttp {
  const context: ClientContext = {
    endpoints: requestTimeoutMs ? { requestTimeoutMs } : {},
    retry,
    fetch: globalThis.fetch,
  };
  return new PlatformHttp('Test', context, (response, what) =>
    statusError('Test', what, response, undefined),
  );
}

function route(path: string, script: Script): string {
  scripts.set(path, script);
  attempts.set(path, 0);
  return `${server.baseUrl}${path}`;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

describe('platform HTTP exchange', () => {
  test('an idempotent request is sent again after a 503 and a dropped connection', async () => {
    const url = route('/flaky', (res, n) => {
      if (n === 1) json(res, 503, {});
      else if (n === 2) res.socket?.destroy();
      else json(res, 200, { ok: true });
    });
    const response = await http().send({ method: 'GET', url, what: 'read', idempotent: true });
    assert.deepEqual(response.json, { ok: true });
    assert.equal(attempts.get('/flaky'), 3);
  });

  test('a request that could publish twice is not resent after a 5xx or a lost answer, only after a 429', async () => {
    const fiveHundred = route('/publish-503', (res) => json(res, 503, {}));
    const error = await rejection(
      http().send({ method: 'POST', url: fiveHundred, what: 'publish', idempotent: false }),
    );
    assert.ok(error instanceof PlatformError && error.code === 'PLATFORM_UNAVAILABLE' && error.retryable);
    assert.equal(attempts.get('/publish-503'), 1);

    const lost = route('/publish-lost', (res) => res.socket?.destroy());
    const unknown = await rejection(
      http().send({ method: 'POST', url: lost, what: 'publish', idempotent: false }),
    );
    assert.ok(unknown instanceof PlatformError && unknown.code === 'PLATFORM_UNAVAILABLE');
    assert.equal(unknown.retryable, false, 'whether it was applied is unknown');
    assert.match(unknown.message, /may or may not have been applied/);

    const limited = route('/publish-429', (res, n) =>
      n === 1 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, {}),
    );
    await http().send({ method: 'POST', url: limited, what: 'publish', idempotent: false });
    assert.equal(attempts.get('/publish-429'), 2);
  });

  test('a Retry-After longer than the policy allows is reported with the wait instead of slept', async () => {
    const url = route('/long-wait', (res) => json(res, 429, {}, { 'retry-after': '120' }));
    const started = Date.now();
    const error = await rejection(http().send({ method: 'GET', url, what: 'read', idempotent: true }));
    assert.ok(error instanceof PlatformError);
    assert.equal(error.code, 'PLATFORM_RATE_LIMITED');
    assert.equal(error.retryAfterMs, 120_000);
    assert.equal(attempts.get('/long-wait'), 1);
    assert.ok(Date.now() - started < 500);
  });

  test('gives up after maxAttempts, and 401 is never retried', async () => {
    const down = route('/down', (res) => json(res, 502, {}));
    const error = await rejection(http().send({ method: 'GET', url: down, what: 'read', idempotent: true }));
    assert.ok(error instanceof PlatformError && error.code === 'PLATFORM_UNAVAILABLE');
    assert.equal(attempts.get('/down'), 3);
    const denied = route('/denied', (res) => json(res, 401, {}));
    const expired = await rejection(
      http().send({ method: 'GET', url: denied, what: 'read', idempotent: true }),
    );
    assert.ok(expired instanceof PlatformError && expired.code === 'PLATFORM_OAUTH_EXPIRED');
    assert.equal(attempts.get('/denied'), 1);
  });

  test("the caller's abort stops a backoff wait at once, with the caller's reason", async () => {
    const url = route('/abort', (res) => json(res, 503, {}));
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    setTimeout(() => controller.abort(reason), 50);
    const started = Date.now();
    const error = await rejection(
      http({ maxAttempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 }).send({
        method: 'GET',
        url,
        what: 'read',
        idempotent: true,
        signal: controller.signal,
      }),
    );
    assert.equal(error, reason);
    assert.ok(Date.now() - started < 2_000);
  });

  test('a request past its time limit is PLATFORM_UNAVAILABLE', async () => {
    const url = route('/slow', (res) => setTimeout(() => json(res, 200, {}), 1_000));
    const error = await rejection(
      http({ maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 5 }, 50).send({
        method: 'GET',
        url,
        what: 'read',
        idempotent: true,
      }),
    );
    assert.ok(error instanceof PlatformError && error.code === 'PLATFORM_UNAVAILABLE');
    assert.match(error.message, /timed out/);
  });
});

describe('platform support', () => {
  test('captions get the hashtags they lack, as many as fit, and a caption over the limit is refused', () => {
    const rules = { name: 'Test', maxLength: 40, length: utf16Length, maxHashtags: 3 };
    assert.equal(
      composeCaption('Folding #Origami cranes', ['origami', '#paper', 'crane art', 'diy'], rules),
      'Folding #Origami cranes #paper #craneart',
    );
    assert.equal(composeCaption('  ', ['one'], rules), '#one');
    assert.equal(composeCaption('x'.repeat(36), ['toolong', 'ok'], rules), `${'x'.repeat(36)} #ok`);
    assert.throws(
      () => composeCaption('x'.repeat(41), [], rules),
      (e: unknown) => e instanceof PlatformError && e.code === 'PLATFORM_REJECTED',
    );
  });

  test('upload URLs a platform hands back are pinned to its domain, or moved onto the configured baseUrl', () => {
    const raw = 'https://open-upload.tiktokapis.com/video/?upload_id=1&upload_token=t';
    assert.equal(pinReturnedUrl(raw, {}, 'tiktokapis.com', 'TikTok', 'init'), raw);
    assert.equal(
      pinReturnedUrl(raw, { baseUrl: 'http://127.0.0.1:9/proxy/' }, 'tiktokapis.com', 'TikTok', 'init'),
      'http://127.0.0.1:9/proxy/video/?upload_id=1&upload_token=t',
    );
    for (const bad of [
      'https://tiktokapis.com.evil.example/x',
      'http://open-upload.tiktokapis.com/x',
      'not a url',
      undefined,
    ]) {
      assert.throws(
        () => pinReturnedUrl(bad, {}, 'tiktokapis.com', 'TikTok', 'init'),
        PlatformError,
        String(bad),
      );
    }
  });

  test("Meta's business use case header gives the wait in minutes", () => {
    const headers = new Headers({
      'x-business-use-case-usage': JSON.stringify({
        '1': [{ type: 'pages', estimated_time_to_regain_access: 3 }],
        '2': [{ estimated_time_to_regain_access: 7 }],
      }),
    });
    assert.equal(businessUseCaseWaitMs(headers), 7 * 60_000);
    assert.equal(businessUseCaseWaitMs(new Headers()), undefined);
  });

  test('the video is read in pieces: a range, or a stream from an offset', async () => {
    const video = await testVideo();
    assert.deepEqual(await readChunk(video.path, 1000, 5000), video.bytes.subarray(1000, 6000));
    const read: number[] = [];
    const file = fileBody(video.path, 123_456, (n) => read.push(n));
    const streamed = Buffer.from(await new Response(file.body).arrayBuffer());
    await file.close();
    assert.deepEqual(streamed, video.bytes.subarray(123_456));
    assert.equal(
      read.reduce((a, b) => a + b, 0),
      video.bytes.length - 123_456,
    );
  });

  test('builds the five clients and refuses configuration that could only fail later', () => {
    const clients = createPlatformClients({ platforms: {} });
    assert.deepEqual(Object.keys(clients).sort(), [...PLATFORMS].sort());
    assert.deepEqual(
      PLATFORMS.map((id) => [id, clients[id].id, clients[id].name]),
      [
        ['shortsite', 'shortsite', 'TikTok'],
        ['photosite', 'photosite', 'Instagram Reels'],
        ['vidsite_shorts', 'vidsite_shorts', 'YouTube Shorts'],
        ['facesite_reels', 'facesite_reels', 'Facebook Reels'],
        ['microsite', 'microsite', 'X'],
      ],
    );
    assert.throws(
      () => createPlatformClients({ platforms: { shortsite: { baseUrl: 'ftp://x' } } }),
      /baseUrl/,
    );
    assert.throws(
      () => createPlatformClients({ platforms: { shortsite: { chunkBytes: 100 * 1024 * 1024 } } }),
      /chunkBytes/,
    );
    assert.throws(
      () => createPlatformClients({ platforms: { microsite: { chunkBytes: 6_000_000 } } }),
      /chunkBytes/,
    );
    assert.throws(
      () => createPlatformClients({ platforms: { photosite: { apiVersion: '25' } } }),
      /apiVersion/,
    );
    assert.throws(
      () =>
        createPlatformClients({ platforms: {}, retry: { maxAttempts: 0, baseDelayMs: 1, maxDelayMs: 2 } }),
      /retry/,
    );
  });
});
