import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startYouTubeServer, type YouTubeFake } from '../../../test/support/platforms/youtube-server.ts';
import { testVideo, type TestVideo } from '../../../test/support/platforms/test-video.ts';
import { createPlatformClients, PlatformError, type PlatformClient, type VideoToPost } from './platform.ts';

const CHUNK = 2 * 256 * 1024;
let youtube: YouTubeFake;
let video: TestVideo;

before(async () => {
  [youtube, video] = await Promise.all([startYouTubeServer(), testVideo()]);
});
after(() => youtube.close());

function client(app = true): PlatformClient {
  return createPlatformClients({
    platforms: {
      vidsite_shorts: {
        baseUrl: youtube.baseUrl,
        chunkBytes: CHUNK,
        ...(app ? { app: { clientId: youtube.clientId, clientSecret: youtube.clientSecret } } : {}),
      },
    },
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 2_000 },
  }).vidsite_shorts;
}

function post(options: Record<string, unknown> = {}): VideoToPost {
  return {
    filePath: video.path,
    sizeBytes: video.bytes.length,
    durationSec: video.durationSec,
    signedUrl: 'https://media.example.com/unused',
    caption: 'Three ways to fold a paper crane\nStep by step for beginners',
    hashtags: ['#origami', 'crafts', 'paper crane'],
    options,
  };
}

const account = () => ({ externalAccountId: 'UC1234567890', token: { accessToken: youtube.accessToken } });

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    return error;
  }
  assert.fail('expected a PlatformError');
}

describe('YouTube Shorts client', () => {
  test('uploads the file in 256 KiB-aligned chunks with its metadata and returns the Short', async () => {
    const progress: number[] = [];
    const result = await client().publish(
      account(),
      post({ privacy_status: 'unlisted', notify_subscribers: false }),
      {
        onProgress: (f) => progress.push(f),
      },
    );
    const session = youtube.sessions.at(-1);
    assert.ok(session);
    assert.deepEqual(Buffer.concat(session.stored), video.bytes);
    assert.deepEqual(
      session.puts.map((p) => p.start),
      Array.from({ length: Math.ceil(video.bytes.length / CHUNK) }, (_, i) => i * CHUNK),
    );
    assert.equal(session.contentType, 'video/mp4');
    assert.equal(session.notifySubscribers, 'false');
    assert.deepEqual(session.resource, {
      snippet: {
        title: 'Three ways to fold a paper crane',
        description:
          'Three ways to fold a paper crane\nStep by step for beginners #origami #crafts #papercrane',
        tags: ['origami', 'crafts', 'paper crane'],
        categoryId: '22',
      },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false, containsSyntheticMedia: false },
    });
    assert.equal(result.externalId, session.videoId);
    assert.equal(result.externalUrl, `https://www.youtube.com/shorts/${session.videoId}`);
    assert.equal(progress.at(-1), 1);
    assert.ok(progress.every((f, i) => i === 0 || f >= (progress[i - 1] ?? 0)));
    assert.deepEqual(youtube.violations, []);
  });

  test('an expired access token is PLATFORM_OAUTH_EXPIRED, asked once', async () => {
    const before = youtube.sessionAttempts;
    const error = await rejection(
      client().publish({ externalAccountId: 'UC1', token: { accessToken: 'ya29.expired' } }, post()),
    );
    assert.equal(error.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.equal(error.retryable, false);
    assert.equal(youtube.sessionAttempts - before, 1);
  });

  test('a 429 with Retry-After is waited out, then the upload goes through', async () => {
    youtube.rateLimitNextSession(1);
    const before = youtube.sessionAttempts;
    const started = Date.now();
    const result = await client().publish(account(), post());
    assert.ok(Date.now() - started >= 1000, 'waited for Retry-After');
    assert.equal(youtube.sessionAttempts - before, 2);
    assert.ok(result.externalId);
  });

  test('a daily quota refusal is reported with the wait, not slept through', async () => {
    youtube.exhaustQuota();
    const before = youtube.sessionAttempts;
    const error = await rejection(client().publish(account(), post()));
    assert.equal(error.code, 'PLATFORM_RATE_LIMITED');
    assert.ok((error.retryAfterMs ?? 0) > 0 && (error.retryAfterMs ?? 0) <= 24 * 3600 * 1000);
    assert.equal(youtube.sessionAttempts - before, 1);
  });

  test('after a dropped connection it asks what arrived and resumes there, not from byte 0', async () => {
    // Cut 300000 bytes into the second chunk: Google keeps whole 256 KiB units, so 768 KiB stay stored.
    youtube.dropAt(CHUNK + 300_000);
    const result = await client().publish(account(), post());
    const session = youtube.sessions.at(-1);
    assert.ok(session && result.externalId === session.videoId);
    assert.deepEqual(Buffer.concat(session.stored), video.bytes);
    const dropIndex = session.puts.findIndex((p) => p.dropped);
    assert.equal(dropIndex, 1);
    assert.equal(session.puts[dropIndex]?.start, CHUNK);
    assert.ok(session.statusChecks >= 1, 'asked the server what it holds');
    const afterDrop = session.puts.slice(dropIndex + 1);
    assert.equal(afterDrop[0]?.start, CHUNK + 256 * 1024, 'resumed at the stored offset');
    assert.ok(
      afterDrop.every((p) => p.start >= CHUNK + 256 * 1024),
      'nothing stored was sent again',
    );
    const resent = session.puts.reduce((sum, p) => sum + p.arrived, 0) - video.bytes.length;
    assert.ok(resent < CHUNK, `only the unstored part of one chunk went twice (${resent} bytes)`);
    assert.deepEqual(youtube.violations, []);
  });

  test('a video longer than three minutes is refused: YouTube would not make it a Short', async () => {
    const attempts = youtube.sessionAttempts;
    const error = await rejection(client().publish(account(), { ...post(), durationSec: 200 }));
    assert.equal(error.code, 'PLATFORM_REJECTED');
    assert.equal(youtube.sessionAttempts, attempts);
  });

  test('a video YouTube rejects is PLATFORM_REJECTED with its reason', async () => {
    youtube.rejectUpload('duplicate');
    try {
      const error = await rejection(client().publish(account(), post()));
      assert.equal(error.code, 'PLATFORM_REJECTED');
      assert.match(error.message, /duplicate/);
    } finally {
      youtube.rejectUpload('');
    }
  });

  test('refresh trades the refresh token for a new access token', async () => {
    const token = await client().refresh({ accessToken: 'old', refreshToken: youtube.refreshToken });
    assert.equal(token.accessToken, youtube.accessToken);
    assert.equal(token.refreshToken, youtube.refreshToken, 'Google keeps the refresh token');
    assert.ok(token.expiresAt && token.expiresAt.getTime() > Date.now() + 3000 * 1000);
    assert.equal(token.scope, 'https://www.googleapis.com/auth/youtube.upload');
    const result = await client().publish({ externalAccountId: 'UC1', token }, post());
    assert.ok(result.externalId);
  });

  test('a refused refresh is PLATFORM_OAUTH_EXPIRED; missing or wrong app credentials are NOT_CONFIGURED', async () => {
    const refused = await rejection(client().refresh({ accessToken: 'old', refreshToken: '1//revoked' }));
    assert.equal(refused.code, 'PLATFORM_OAUTH_EXPIRED');
    assert.match(refused.message, /invalid_grant/);
    const noApp = await rejection(
      client(false).refresh({ accessToken: 'old', refreshToken: youtube.refreshToken }),
    );
    assert.equal(noApp.code, 'PLATFORM_NOT_CONFIGURED');
    const wrongApp = createPlatformClients({
      platforms: {
        vidsite_shorts: { baseUrl: youtube.baseUrl, app: { clientId: 'other', clientSecret: 'x' } },
      },
    }).vidsite_shorts;
    const badClient = await rejection(
      wrongApp.refresh({ accessToken: 'old', refreshToken: youtube.refreshToken }),
    );
    assert.equal(badClient.code, 'PLATFORM_NOT_CONFIGURED');
  });

  test('options are checked by the schema and a chunk size off the 256 KiB grid is refused at start', () => {
    assert.equal(client().optionsSchema.safeParse({ privacy_status: 'friends' }).success, false);
    assert.deepEqual(client().optionsSchema.parse({}), {
      privacy_status: 'public',
      made_for_kids: false,
      category_id: '22',
      notify_subscribers: true,
      contains_synthetic_media: false,
    });
    assert.throws(
      () => createPlatformClients({ platforms: { vidsite_shorts: { chunkBytes: 1_000_000 } } }),
      /multiple of 262144/,
    );
  });
});
