import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSignedFileServer } from '../../../test/support/platforms/fake-platform-server.ts';
import {
  startInstagramServer,
  type InstagramFake,
} from '../../../test/support/platforms/instagram-server.ts';
import { testVideo, type TestVideo } from '../../../test/support/platforms/test-video.ts';
import { createPlatformClients, PlatformError, type PlatformClient, type VideoToPost } from './platform.ts';

let instagram: InstagramFake;
let files: Awaited<ReturnType<typeof startSignedFileServer>>;
let video: TestVideo;

before(async () => {
  video = await testVideo();
  [instagram, files] = await Promise.all([startInstagramServer(), startSignedFileServer(video.path)]);
});
after(async () => {
  await instagram.close();
  await files.close();
});

function client(): PlatformClient {
  return createPlatformClients({
    platforms: {
      photosite: { baseUrl: instagram.baseUrl, apiVersion: instagram.version, pollIntervalMs: 5 },
    },
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 2_000 },
  }).photosite;
}

function post(signedUrl = files.signedUrl, options: Record<string, unknown> = {}): VideoToPost {
  return {
    filePath: video.path,
    sizeBytes: video.bytes.length,
    durationSec: video.durationSec,
    signedUrl,
    caption: 'A crane a day 🕊️',
    hashtags: ['origami', '#papercraft'],
    options,
  };
}

const account = () => ({
  externalAccountId: instagram.userId,
  token: { accessToken: instagram.accessToken },
});

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

describe('Instagram Reels client', () => {
  test('creates a REELS container Instagram pulls from the signed link, waits for FINISHED, publishes once', async () => {
    const result = await client().publish(
      account(),
      post(files.signedUrl, { share_to_feed: false, thumb_offset_ms: 500 }),
    );
    const container = instagram.containers.at(-1);
    assert.ok(container);
    assert.deepEqual(container.pulled, video.bytes, 'Instagram fetched the whole file from the signed link');
    assert.deepEqual(container.body, {
      media_type: 'REELS',
      video_url: files.signedUrl,
      caption: 'A crane a day 🕊️ #origami #papercraft',
      share_to_feed: false,
      thumb_offset: 500,
    });
    assert.ok(container.polls >= 2, 'polled status_code until FINISHED');
    assert.equal(container.statusCode, 'PUBLISHED');
    assert.equal(result.externalUrl, instagram.permalink);
    assert.match(result.externalId, /^1800\d+$/);
    assert.deepEqual(instagram.violations, []);
  });

  test('an expired token (Graph code 190 on HTTP 400) is PLATFORM_OAUTH_EXPIRED', async () => {
    const error = await rejection(
      client().publish(
        { externalAccountId: instagram.userId, token: { accessToken: 'IGAAexpired' } },
        post(),
      ),
    );
    assert.equal(error.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.match(error.message, /code 190\/463/);
  });

  test('rate limits — a 429 with Retry-After, then Graph code 4 — are retried and the reel is published', async () => {
    instagram.rateLimitNextContainers(['http-429', 'graph-code']);
    const attempts = instagram.containerAttempts;
    const publishes = instagram.publishes;
    const result = await client().publish(account(), post());
    assert.equal(instagram.containerAttempts - attempts, 3);
    assert.equal(instagram.publishes - publishes, 1);
    assert.equal(result.externalUrl, instagram.permalink);
  });

  test('a container that ends in ERROR is PLATFORM_REJECTED with Instagram’s reason and nothing is published', async () => {
    instagram.failNextContainer(
      'Error: The video file you selected is in a format that we don’t support. (2207026)',
    );
    const publishes = instagram.publishes;
    const error = await rejection(client().publish(account(), post()));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.match(error.message, /2207026/);
    assert.equal(instagram.publishes, publishes);
  });

  test('a link Instagram cannot download ends the container in ERROR too', async () => {
    const error = await rejection(
      client().publish(account(), post(`${files.baseUrl}/media/video.mp4?sig=wrong`)),
    );
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.match(error.message, /download has failed/);
  });

  test('refresh exchanges the long-lived token for a new one; a refused one is PLATFORM_OAUTH_EXPIRED', async () => {
    const token = await client().refresh({ accessToken: instagram.accessToken });
    assert.equal(token.accessToken, instagram.accessToken);
    assert.ok(token.expiresAt && token.expiresAt.getTime() > Date.now() + 59 * 24 * 3600 * 1000);
    const refused = await rejection(client().refresh({ accessToken: 'IGAAstale' }));
    assert.equal(refused.code, 'PLATFORM_OAUTH_EXPIRED');
  });

  test('captions longer than Instagram allows are refused before a container is made', async () => {
    const attempts = instagram.containerAttempts;
    const long = { ...post(), caption: 'x'.repeat(2201) };
    const error = await rejection(client().publish(account(), long));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.equal(instagram.containerAttempts, attempts);
  });
});
