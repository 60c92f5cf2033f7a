import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFacebookServer, type FacebookFake } from '../../../test/support/platforms/facebook-server.ts';
import { testVideo, type TestVideo } from '../../../test/support/platforms/test-video.ts';
import { createPlatformClients, PlatformError, type PlatformClient, type VideoToPost } from './platform.ts';

let facebook: FacebookFake;
let video: TestVideo;

before(async () => {
  [facebook, video] = await Promise.all([startFacebookServer(), testVideo()]);
});
after(() => facebook.close());

function client(app = true): PlatformClient {
  return createPlatformClients({
    platforms: {
      facesite_reels: {
        baseUrl: facebook.baseUrl,
        apiVersion: facebook.version,
        ...(app ? { app: { clientId: facebook.appId, clientSecret: facebook.appSecret } } : {}),
      },
    },
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 2_000 },
  }).facesite_reels;
}

function post(options: Record<string, unknown> = {}): VideoToPost {
  return {
    filePath: video.path,
    sizeBytes: video.bytes.length,
    durationSec: video.durationSec,
    signedUrl: 'https://media.example.com/unused',
    caption: 'Crane number 1000',
    title: 'Paper cranes',
    hashtags: ['origami'],
    options,
  };
}

const account = () => ({ externalAccountId: facebook.pageId, token: { accessToken: facebook.pageToken } });

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

describe('Facebook Reels client', () => {
  test('starts a session, streams the file to rupload with its offset and size, then publishes the reel', async () => {
    const progress: number[] = [];
    const result = await client().publish(account(), post(), { onProgress: (f) => progress.push(f) });
    const uploaded = facebook.videos.at(-1);
    assert.ok(uploaded);
    assert.deepEqual(Buffer.concat(uploaded.stored), video.bytes);
    assert.deepEqual(uploaded.posts, [{ offset: 0, arrived: video.bytes.length, dropped: false }]);
    assert.deepEqual(uploaded.finish, {
      upload_phase: 'finish',
      video_id: uploaded.id,
      video_state: 'PUBLISHED',
      description: 'Crane number 1000 #origami',
      title: 'Paper cranes',
    });
    assert.equal(result.externalId, uploaded.id);
    assert.equal(result.externalUrl, `https://www.facebook.com/reel/${uploaded.id}`);
    assert.equal(progress.at(-1), 1);
    assert.deepEqual(facebook.violations, []);
  });

  test('an expired Page token (code 190) is PLATFORM_OAUTH_EXPIRED', async () => {
    const error = await rejection(
      client().publish(
        { externalAccountId: facebook.pageId, token: { accessToken: 'EAAPageStale' } },
        post(),
      ),
    );
    assert.equal(error.code, 'PLATFORM_OAUTH_EXPIRED');
  });

  test('rate limits — a 429 with Retry-After, then code 32 with a usage header — are retried', async () => {
    facebook.rateLimitNextStarts(['http-429', 'page-code']);
    const attempts = facebook.startAttempts;
    const videos = facebook.videos.length;
    await client().publish(account(), post());
    assert.equal(facebook.startAttempts - attempts, 3);
    assert.equal(facebook.videos.length - videos, 1);
    assert.ok(facebook.videos.at(-1)?.finish);
  });

  test('after a drop it reads bytes_transferred and resumes at that offset, never from byte 0', async () => {
    facebook.dropAt(1_000_000);
    await client().publish(account(), post());
    const uploaded = facebook.videos.at(-1);
    assert.ok(uploaded);
    assert.deepEqual(Buffer.concat(uploaded.stored), video.bytes);
    const [first, second, ...rest] = uploaded.posts;
    assert.ok(first?.dropped && first.offset === 0 && first.arrived >= 1_000_000);
    assert.ok(uploaded.statusReads >= 1, 'asked Facebook how much arrived');
    assert.deepEqual(second, {
      offset: first.arrived,
      arrived: video.bytes.length - first.arrived,
      dropped: false,
    });
    assert.deepEqual(rest, []);
    assert.deepEqual(facebook.violations, []);
  });

  test('a video outside the 3-90 s Facebook takes as a reel is refused before any upload', async () => {
    const attempts = facebook.startAttempts;
    const error = await rejection(client().publish(account(), { ...post(), durationSec: 120 }));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.match(error.message, /3-90 s/);
    assert.equal(facebook.startAttempts, attempts);
  });

  test('refresh mints a new Page token from the kept user token', async () => {
    const token = await client().refresh(
      { accessToken: 'EAAPageOld', refreshToken: facebook.userToken },
      facebook.pageId,
    );
    assert.equal(token.accessToken, facebook.pageToken);
    assert.equal(
      token.refreshToken,
      facebook.userToken,
      'the exchanged long-lived user token is kept for next time',
    );
    assert.equal(token.expiresAt, undefined, 'Page tokens from a long-lived user token do not expire');
    const result = await client().publish({ externalAccountId: facebook.pageId, token }, post());
    assert.ok(result.externalId);
  });

  test('a refused exchange or a dead Page token without a user token is PLATFORM_OAUTH_EXPIRED', async () => {
    const refused = await rejection(
      client().refresh({ accessToken: 'x', refreshToken: 'EAAUserRevoked' }, facebook.pageId),
    );
    assert.equal(refused.code, 'PLATFORM_OAUTH_EXPIRED');
    const alive = { accessToken: facebook.pageToken };
    assert.deepEqual(await client().refresh(alive), alive, 'a working Page token is confirmed as it is');
    const dead = await rejection(client().refresh({ accessToken: 'EAAPageDead' }));
    assert.equal(dead.code, 'PLATFORM_OAUTH_EXPIRED');
    const noApp = await rejection(
      client(false).refresh({ accessToken: 'x', refreshToken: facebook.userToken }, facebook.pageId),
    );
    assert.equal(noApp.code, 'PLATFORM_NOT_CONFIGURED');
  });
});
