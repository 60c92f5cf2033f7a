import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTikTokServer, type TikTokFake } from '../../../test/support/platforms/tiktok-server.ts';
import { testVideo, type TestVideo } from '../../../test/support/platforms/test-video.ts';
import { createPlatformClients, PlatformError, type PlatformClient, type VideoToPost } from './platform.ts';
import { parseTikTokJson, tiktokChunkPlan } from './tiktok.ts';

// Small chunks stand in for TikTok's 5 MB minimum; the fake enforces this minimum the way TikTok enforces its own.
const CHUNK = 400_000;
let tiktok: TikTokFake;
let video: TestVideo;

before(async () => {
  [tiktok, video] = await Promise.all([startTikTokServer({ minChunkBytes: CHUNK }), testVideo()]);
});
after(() => tiktok.close());

function client(): PlatformClient {
  return createPlatformClients({
    platforms: {
      shortsite: {
        baseUrl: tiktok.baseUrl,
        chunkBytes: CHUNK,
        pollIntervalMs: 5,
        app: { clientId: tiktok.clientKey, clientSecret: tiktok.clientSecret },
      },
    },
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 2_000 },
  }).shortsite;
}

function post(options: Record<string, unknown> = {}): VideoToPost {
  return {
    filePath: video.path,
    sizeBytes: video.bytes.length,
    durationSec: video.durationSec,
    signedUrl: 'https://media.example.com/unused',
    caption: 'Fold a crane in 60 seconds',
    hashtags: ['origami', '#fyp'],
    options,
  };
}

const account = () => ({ externalAccountId: 'open-id-123', token: { accessToken: tiktok.accessToken } });

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

function chunkStarts(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i * CHUNK);
}

describe('TikTok client', () => {
  test('posts with the creator-checked settings, uploads the chunks in order and returns the exact post id', async () => {
    const progress: number[] = [];
    const result = await client().publish(account(), post({ is_aigc: true }), {
      onProgress: (f) => progress.push(f),
    });
    const publish = tiktok.publishes.at(-1);
    assert.ok(publish);
    const count = Math.floor(video.bytes.length / CHUNK);
    assert.equal(publish.count, count);
    assert.deepEqual(Buffer.concat(publish.stored), video.bytes);
    assert.deepEqual(
      publish.puts.map((p) => p.start),
      chunkStarts(count),
    );
    assert.equal(publish.puts.at(-1)?.end, video.bytes.length, 'the last chunk carries the remainder');
    assert.deepEqual(publish.postInfo, {
      title: 'Fold a crane in 60 seconds #origami #fyp',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      disable_duet: false,
      disable_stitch: true,
      brand_content_toggle: false,
      brand_organic_toggle: false,
      is_aigc: true,
    });
    // 7400000000000000001 is not a safe integer: read as a number it would come back as …000.
    assert.equal(result.externalId, '7400000000000000001');
    assert.equal(result.externalUrl, 'https://www.tiktok.com/@paper.crafts/video/7400000000000000001');
    assert.ok(publish.statusPolls >= 2, 'polled until TikTok reported the post');
    assert.equal(progress.at(-1), 1);
    assert.deepEqual(tiktok.violations, []);
  });

  test('an expired access token is PLATFORM_OAUTH_EXPIRED', async () => {
    const error = await rejection(
      client().publish({ externalAccountId: 'x', token: { accessToken: 'act.expired' } }, post()),
    );
    assert.equal(error.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.equal(error.status, 401);
  });

  test('a 429 on init is retried after its Retry-After and the post goes through', async () => {
    tiktok.rateLimitNextInit(0);
    const attempts = tiktok.initAttempts;
    const publishes = tiktok.publishes.length;
    const result = await client().publish(account(), post());
    assert.equal(tiktok.initAttempts - attempts, 2);
    assert.equal(tiktok.publishes.length - publishes, 1);
    assert.equal(result.externalId, tiktok.postId);
  });

  test('after a dropped chunk it reads uploaded_bytes and resumes at that chunk, never from byte 0', async () => {
    tiktok.dropChunk(2);
    await client().publish(account(), post());
    const publish = tiktok.publishes.at(-1);
    assert.ok(publish);
    assert.deepEqual(Buffer.concat(publish.stored), video.bytes);
    const starts = publish.puts.map((p) => p.start);
    const dropAt = publish.puts.findIndex((p) => p.dropped);
    assert.equal(publish.puts[dropAt]?.start, 2 * CHUNK);
    assert.deepEqual(starts.slice(0, dropAt), chunkStarts(2));
    assert.deepEqual(
      starts.slice(dropAt + 1),
      chunkStarts(publish.count).slice(2),
      'resumed at chunk 2 only',
    );
    assert.deepEqual(tiktok.violations, []);
  });

  test("a privacy level the creator's account does not offer is refused before anything is sent", async () => {
    const attempts = tiktok.initAttempts;
    const error = await rejection(
      client().publish(account(), post({ privacy_level: 'MUTUAL_FOLLOW_FRIENDS' })),
    );
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.match(error.message, /PUBLIC_TO_EVERYONE, FOLLOWER_OF_CREATOR, SELF_ONLY/);
    assert.equal(tiktok.initAttempts, attempts);
  });

  test('refresh rotates both tokens; a refused refresh token is PLATFORM_OAUTH_EXPIRED', async () => {
    const old = tiktok.refreshToken;
    const token = await client().refresh({ accessToken: 'act.old', refreshToken: old });
    assert.equal(token.accessToken, tiktok.accessToken);
    assert.equal(token.refreshToken, tiktok.refreshToken);
    assert.notEqual(token.refreshToken, old);
    assert.equal(token.scope, 'user.info.basic,video.publish');
    assert.ok(token.expiresAt && token.expiresAt.getTime() > Date.now() + 80_000 * 1000);
    const reused = await rejection(client().refresh({ accessToken: 'act.old', refreshToken: old }));
    assert.equal(reused.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.match(reused.message, /invalid_grant/);
  });

  test('chunk plans follow TikTok: whole below one chunk, otherwise size ÷ chunk rounded down', () => {
    assert.deepEqual(tiktokChunkPlan(3_000_000, 10_000_000), { chunkSize: 3_000_000, count: 1 });
    assert.deepEqual(tiktokChunkPlan(25_000_000, 10_000_000), { chunkSize: 10_000_000, count: 2 });
    assert.deepEqual(tiktokChunkPlan(20_000_000, 10_000_000), { chunkSize: 10_000_000, count: 2 });
    assert.deepEqual(
      parseTikTokJson('{"data":{"publicaly_available_post_id":[7400000000000000001, "12"]}}'),
      {
        data: { publicaly_available_post_id: ['7400000000000000001', '12'] },
      },
    );
  });
});
