import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startXServer, type XFake } from '../../../test/support/platforms/x-server.ts';
import { testVideo, type TestVideo } from '../../../test/support/platforms/test-video.ts';
import { createPlatformClients, PlatformError, type PlatformClient, type VideoToPost } from './platform.ts';
import { xWeightedLength } from './x-posts.ts';

const SEGMENT = 500_000;
let x: XFake;
let video: TestVideo;

before(async () => {
  [x, video] = await Promise.all([startXServer(), testVideo()]);
});
after(() => x.close());

function client(): PlatformClient {
  return createPlatformClients({
    platforms: {
      microsite: {
        baseUrl: x.baseUrl,
        chunkBytes: SEGMENT,
        pollIntervalMs: 5,
        app: { clientId: x.clientId, clientSecret: x.clientSecret },
      },
    },
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 2_000 },
  }).microsite;
}

function post(
  caption = 'How a paper crane folds, in one minute',
  options: Record<string, unknown> = {},
): VideoToPost {
  return {
    filePath: video.path,
    sizeBytes: video.bytes.length,
    durationSec: video.durationSec,
    signedUrl: 'https://media.example.com/unused',
    caption,
    hashtags: ['origami', 'crafts'],
    options,
  };
}

const account = () => ({ externalAccountId: '2244994945', token: { accessToken: x.accessToken } });

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

describe('X client', () => {
  test('uploads the segments in order, waits for processing and posts with the media id', async () => {
    const result = await client().publish(account(), post(undefined, { reply_settings: 'following' }));
    const media = x.media.at(-1);
    assert.ok(media);
    assert.deepEqual(Buffer.concat(media.segments), video.bytes);
    assert.deepEqual(
      media.appends.map((a) => a.segmentIndex),
      Array.from({ length: Math.ceil(video.bytes.length / SEGMENT) }, (_, i) => i),
    );
    assert.equal(media.category, 'tweet_video');
    assert.ok(media.statusPolls >= 2, 'polled STATUS until succeeded');
    assert.deepEqual(x.posts.at(-1), {
      text: 'How a paper crane folds, in one minute #origami #crafts',
      media: { media_ids: [media.id] },
      reply_settings: 'following',
    });
    assert.equal(result.externalUrl, `https://x.com/i/web/status/${result.externalId}`);
    assert.deepEqual(x.violations, []);
  });

  test('an expired token is PLATFORM_OAUTH_EXPIRED', async () => {
    const error = await rejection(
      client().publish({ externalAccountId: '1', token: { accessToken: 'xat-old' } }, post()),
    );
    assert.equal(error.code, 'PLATFORM_OAUTH_EXPIRED');
  });

  test('429s — with Retry-After, then with x-rate-limit-reset — are retried and the post goes through', async () => {
    x.rateLimitNextInits(['retry-after', 'reset-header']);
    const attempts = x.initAttempts;
    const posts = x.posts.length;
    await client().publish(account(), post());
    assert.equal(x.initAttempts - attempts, 3);
    assert.equal(x.posts.length - posts, 1);
  });

  test('a dropped APPEND is sent again with the same segment index; acknowledged segments are not resent', async () => {
    x.dropSegment(2);
    await client().publish(account(), post());
    const media = x.media.at(-1);
    assert.ok(media);
    assert.deepEqual(Buffer.concat(media.segments), video.bytes);
    const count = Math.ceil(video.bytes.length / SEGMENT);
    assert.deepEqual(
      media.appends.map((a) => (a.dropped ? 'dropped' : a.segmentIndex)),
      [0, 1, 'dropped', ...Array.from({ length: count - 2 }, (_, i) => i + 2)],
    );
    assert.deepEqual(x.violations, []);
  });

  test('media X fails to process is PLATFORM_REJECTED and nothing is posted', async () => {
    x.failNextProcessing();
    const posts = x.posts.length;
    const error = await rejection(client().publish(account(), post()));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.match(error.message, /UnsupportedMedia/);
    assert.equal(x.posts.length, posts);
  });

  test('text over 280 weighted characters is refused before upload; hashtags that do not fit are left off', async () => {
    const media = x.media.length;
    const error = await rejection(client().publish(account(), post('折'.repeat(141))));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.equal(x.media.length, media);
    // " #origami" would make 281; " #crafts" makes exactly 280.
    await client().publish(account(), post('a'.repeat(272)));
    assert.equal(x.posts.at(-1)?.text, `${'a'.repeat(272)} #crafts`);
    assert.equal(xWeightedLength('折り鶴 crane'), 3 * 2 + 6);
  });

  test('refresh rotates the tokens with HTTP Basic client auth; a refused refresh is PLATFORM_OAUTH_EXPIRED', async () => {
    const old = x.refreshToken;
    const token = await client().refresh({ accessToken: 'xat-old', refreshToken: old });
    assert.equal(token.accessToken, x.accessToken);
    assert.equal(token.refreshToken, x.refreshToken);
    assert.notEqual(token.refreshToken, old);
    assert.ok(token.expiresAt && token.expiresAt.getTime() > Date.now() + 7000 * 1000);
    const refused = await rejection(client().refresh({ accessToken: 'xat-old', refreshToken: old }));
    assert.equal(refused.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.match(refused.message, /invalid_request/);
  });
});
