// Publishing through the real service: connections sealed at rest, POST /post of a rendered video to YouTube
// and X (local servers speaking their protocols), refused refreshes expiring a connection, fan-out jobs that
// render then post, scheduled fan-outs cancelled with a refund, and the free refusals of bad input.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { productModes } from '../src/modes/index.ts';
import { loadConfig } from '../src/platform/config.ts';
import { checkTokenKey } from '../src/publishing/connections/token-key-check.ts';
import { type HookReceiver, startHookReceiver } from './support/hook-receiver.ts';
import { startXServer, type XFake } from './support/platforms/x-server.ts';
import { startYouTubeServer, type YouTubeFake } from './support/platforms/youtube-server.ts';
import { startTestService, type TestService, waitForJob } from './support/test-service.ts';

let service: TestService;
let youtube: YouTubeFake;
let x: XFake;
let videoJobId: string;
let videoPath: string;
let hooks: HookReceiver;

const key = () => `publishing-${randomBytes(6).toString('hex')}`;

before(async () => {
  hooks = await startHookReceiver();
  youtube = await startYouTubeServer();
  x = await startXServer();
  service = await startTestService({
    modes: productModes,
    env: {
      RENDER_PRESET: 'ultrafast',
      PLATFORM_TOKEN_KEY: randomBytes(32).toString('base64'),
      YOUTUBE_BASE_URL: youtube.baseUrl,
      YOUTUBE_CLIENT_ID: youtube.clientId,
      YOUTUBE_CLIENT_SECRET: youtube.clientSecret,
      X_BASE_URL: x.baseUrl,
      X_CLIENT_ID: x.clientId,
      X_CLIENT_SECRET: x.clientSecret,
    },
  });
  const made = await service.call('POST', '/api/v1/generate-and-post', {
    body: {
      topic: 'a walk after lunch',
      script: 'Walk for ten minutes after lunch. Your focus comes back. Try it today.',
      music: false,
    },
    headers: { 'idempotency-key': key() },
  });
  assert.equal(made.status, 202, made.text);
  videoJobId = made.body.data.job_id;
  const job = await waitForJob(service, videoJobId, { timeoutMs: 300_000 });
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  const stored = job.artifacts as { videoUrl: string };
  assert.ok(stored.videoUrl);
  const row = await service.runtime.database.db
    .selectFrom('jobs')
    .select('artifacts')
    .where('id', '=', videoJobId)
    .executeTakeFirstOrThrow();
  const file = (row.artifacts as { files: { role: string; key: string }[] }).files.find(
    (f) => f.role === 'video',
  )!;
  videoPath = (await service.runtime.context.store.fetchToLocal(file.key))!;
});

after(async () => {
  await service.stop();
  await youtube.close();
  await x.close();
  await hooks.close();
});

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

async function connect(body: Record<string, unknown>) {
  return service.call('POST', '/api/v1/social-accounts', { body });
}

void describe('platform connections', () => {
  void test('a connection is stored sealed, listed without its tokens, and replaced by a reconnection', async () => {
    const created = await connect({
      platform: 'vidsite_shorts',
      external_account_id: 'UC-test-channel',
      display_name: 'Test channel',
      access_token: youtube.accessToken,
      refresh_token: youtube.refreshToken,
      expires_in: 3600,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.connection.platform_name, 'YouTube Shorts');
    assert.ok(!created.text.includes(youtube.accessToken) && !created.text.includes(youtube.refreshToken));
    const sealed = await sql<{ tokens: Buffer }>`SELECT tokens FROM platform_connections`.execute(
      service.runtime.database.db,
    );
    for (const row of sealed.rows) assert.ok(!row.tokens.toString('latin1').includes(youtube.accessToken));

    const again = await connect({
      platform: 'vidsite_shorts',
      external_account_id: 'UC-test-channel',
      access_token: youtube.accessToken,
      refresh_token: youtube.refreshToken,
      expires_in: 3600,
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.replaced, true);
    assert.equal(again.body.data.connection.id, created.body.data.connection.id);

    const list = await service.call('GET', '/api/v1/social-accounts');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.connections.map((c: { platform: string }) => c.platform),
      ['vidsite_shorts'],
    );
    assert.ok(!list.text.includes(youtube.accessToken));

    const other = await service.newAccount(1000);
    const foreign = await service.call('GET', `/api/v1/social-accounts/${created.body.data.connection.id}`, {
      key: other.live_key,
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'CONNECTION_NOT_FOUND');
  });

  void test('start-up refuses a missing or different token key once connections exist', async () => {
    const db = service.runtime.database.db;
    const env = { ...service.env };
    await checkTokenKey(loadConfig(env), db);
    delete env.PLATFORM_TOKEN_KEY;
    await assert.rejects(checkTokenKey(loadConfig(env), db), /PLATFORM_TOKEN_KEY is not set/);
    env.PLATFORM_TOKEN_KEY = randomBytes(32).toString('hex');
    await assert.rejects(checkTokenKey(loadConfig(env), db), /is not the key/);
  });

  void test('an unknown platform or a missing token is a 400 naming the field', async () => {
    const bad = await connect({ platform: 'myspace', external_account_id: 'a', access_token: 'abcdefgh' });
    assert.equal(bad.status, 400);
    assert.ok(JSON.stringify(bad.body.error.details).includes('platform'));
    const missing = await connect({ platform: 'microsite', external_account_id: 'a' });
    assert.equal(missing.status, 400);
    assert.ok(JSON.stringify(missing.body.error.details).includes('access_token'));
  });
});

void describe('POST /post', () => {
  void test('bad input is refused for free, naming the field', async () => {
    const start = await balance();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ job_id: videoJobId, platforms: ['myspace'] }, 400, 'platforms[0]'],
      [{ job_id: videoJobId, platforms: ['facesite_reels'] }, 400, 'PLATFORM_NOT_CONNECTED'],
      [{ video_id: 'vid_nope', platforms: ['vidsite_shorts'] }, 404, 'VIDEO_NOT_FOUND'],
      [{ platforms: ['vidsite_shorts'] }, 400, 'video_id'],
      [
        { job_id: videoJobId, platforms: ['vidsite_shorts'], platform_options: { microsite: {} } },
        400,
        'platform_options.microsite',
      ],
    ];
    for (const [body, status, mention] of cases) {
      const answer = await service.call('POST', '/api/v1/post', {
        body,
        headers: { 'idempotency-key': key() },
      });
      assert.equal(answer.status, status, answer.text);
      assert.ok(answer.text.includes(mention), `${answer.text} names ${mention}`);
    }
    const noKey = await service.call('POST', '/api/v1/post', {
      body: { job_id: videoJobId, platforms: ['vidsite_shorts'] },
    });
    assert.equal(noKey.status, 400);
    assert.equal(await balance(), start);
  });

  void test('a finished video is posted to YouTube and X: the bytes arrive, the states read posted, 5 cents', async () => {
    const xConnection = await connect({
      platform: 'microsite',
      external_account_id: '1234567890',
      access_token: x.accessToken,
      refresh_token: x.refreshToken,
      expires_in: 7200,
    });
    assert.equal(xConnection.status, 201, xConnection.text);
    const start = await balance();
    const receipt = await service.call('POST', '/api/v1/post', {
      body: {
        job_id: videoJobId,
        platforms: ['vidsite_shorts', 'microsite'],
        caption: 'Ten minutes after lunch',
        hashtags: ['focus'],
        platform_options: { vidsite_shorts: { privacy_status: 'unlisted' } },
      },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.body.data.price_usd_cents, 5);
    assert.deepEqual(
      receipt.body.data.platforms.map((p: { status: string }) => p.status),
      ['queued', 'queued'],
    );
    assert.equal(start - (await balance()), 5);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    const read = await service.call('GET', `/api/v1/jobs/${job.id}`);
    const record = read.body.data.job;
    assert.equal(record.kind, 'publish');
    assert.equal(record.status, 'completed', read.text);
    for (const platform of record.platforms) {
      assert.equal(platform.status, 'posted', JSON.stringify(platform));
      assert.ok(platform.external_id && platform.external_url && platform.posted_at);
    }
    const { size } = await stat(videoPath);
    const session = youtube.sessions.at(-1)!;
    assert.equal(session.storedBytes, size);
    assert.equal(x.posts.length, 1);
    assert.match(JSON.stringify(x.posts[0]), /Ten minutes after lunch/);
  });

  void test('a connection whose refresh is refused expires: that platform fails with PLATFORM_OAUTH_EXPIRED, the other posts', async () => {
    // The access token is past its expiry and its refresh token is not the platform's: the refresh is refused.
    const stale = await connect({
      platform: 'microsite',
      external_account_id: '1234567890',
      access_token: 'xat-stale-token',
      refresh_token: 'xrt-not-the-current-one',
      expires_in: 1,
    });
    assert.equal(stale.status, 200, stale.text);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const receipt = await service.call('POST', '/api/v1/post', {
      body: {
        video_id: (await service.call('GET', `/api/v1/jobs/${videoJobId}`)).body.data.job.video_id,
        platforms: ['vidsite_shorts', 'microsite'],
      },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(receipt.status, 200, receipt.text);
    await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    const record = (await service.call('GET', `/api/v1/jobs/${receipt.body.data.job_id}`)).body.data.job;
    assert.equal(record.status, 'partial_success');
    const byPlatform = Object.fromEntries(record.platforms.map((p: { platform: string }) => [p.platform, p]));
    assert.equal(byPlatform.vidsite_shorts.status, 'posted');
    assert.equal(byPlatform.microsite.status, 'failed');
    assert.equal(byPlatform.microsite.error_code, 'PLATFORM_OAUTH_EXPIRED');
    const connection = (await service.call('GET', '/api/v1/social-accounts')).body.data.connections.find(
      (c: { platform: string }) => c.platform === 'microsite',
    );
    assert.equal(connection.status, 'expired');
    const refused = await service.call('POST', '/api/v1/post', {
      body: { job_id: videoJobId, platforms: ['microsite'] },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'PLATFORM_NOT_CONNECTED');
  });
});

void describe('fan-out jobs (POST /jobs with platforms)', () => {
  void test('renders then posts: generating → posting → completed, one charge of the video plus 5 cents', async () => {
    const start = await balance();
    const receipt = await service.call('POST', '/api/v1/jobs', {
      body: {
        topic: 'water in the morning',
        script: 'Drink a glass of water first thing. It wakes you up. Simple as that.',
        music: false,
        platforms: ['vidsite_shorts'],
        post: { caption: 'Water first' },
        webhook_url: `${hooks.url}/fanout`,
      },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(receipt.status, 201, receipt.text);
    assert.equal(receipt.body.data.price_usd_cents, 65);
    assert.equal(receipt.body.data.platforms[0].status, 'queued');
    assert.equal(start - (await balance()), 65);
    const seen = new Set<string>();
    const deadline = Date.now() + 300_000;
    let record: { status: string; platforms: { status: string }[]; artifacts: { videoUrl?: string } };
    do {
      record = (await service.call('GET', `/api/v1/jobs/${receipt.body.data.job_id}`)).body.data.job;
      seen.add(record.status);
      if (['completed', 'partial_success', 'failed'].includes(record.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (Date.now() < deadline);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.ok(seen.has('generating'), [...seen].join(', '));
    assert.equal(record.platforms[0]!.status, 'posted');
    assert.ok(record.artifacts.videoUrl);
    assert.equal(start - (await balance()), 65);

    const [hook] = await hooks.waitFor('/fanout', 1, 30_000);
    assert.equal(hook!.headers['x-service-event-type'], 'job.completed');
    const event = JSON.parse(hook!.rawBody) as { data: Record<string, any> };
    assert.equal(event.data.job_id, receipt.body.data.job_id);
    assert.equal(event.data.status, 'completed');
    assert.equal(event.data.credits_used, 13);
    assert.equal(event.data.credits_refunded, 0);
    assert.ok(event.data.video_url);
    assert.equal(event.data.platforms[0].status, 'posted');
    assert.ok(event.data.platforms[0].external_url);
  });

  void test('schedule_at holds the job; DELETE before it starts refunds it all; bad times are free 400s', async () => {
    const start = await balance();
    const at = new Date(Date.now() + 3600_000).toISOString();
    const body = { topic: 'why sleep matters', platforms: ['vidsite_shorts'], schedule_at: at };
    const receipt = await service.call('POST', '/api/v1/jobs', {
      body,
      headers: { 'idempotency-key': key() },
    });
    assert.equal(receipt.status, 201, receipt.text);
    assert.equal(receipt.body.data.schedule_at, at);
    const record = (await service.call('GET', `/api/v1/jobs/${receipt.body.data.job_id}`)).body.data.job;
    assert.equal(record.status, 'queued');
    const cancelled = await service.call('DELETE', `/api/v1/jobs/${receipt.body.data.job_id}`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(await balance(), start);
    const after = (await service.call('GET', `/api/v1/jobs/${receipt.body.data.job_id}`)).body.data.job;
    assert.equal(after.status, 'cancelled');
    assert.equal(after.credits_refunded, after.credits_used);

    for (const scheduleAt of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 31 * 86_400_000).toISOString(),
    ]) {
      const refused = await service.call('POST', '/api/v1/jobs', {
        body: { ...body, schedule_at: scheduleAt },
        headers: { 'idempotency-key': key() },
      });
      assert.equal(refused.status, 400, refused.text);
      assert.ok(refused.text.includes('schedule_at'));
    }
    const retired = await service.call('POST', '/api/v1/jobs', {
      body: { topic: 'x', platforms: ['vidsite_shorts'], video_style: 'ugc_ad' },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(retired.status, 400);
    assert.equal(await balance(), start);
  });
});

void describe('schedules of fan-out jobs', () => {
  void test('a schedule takes a publish body, priced per run; its platforms are checked like the route', async () => {
    const create = (body: Record<string, unknown>) =>
      service.call('POST', '/api/v1/schedules', {
        body: { cron: '0 9 * * *', time_zone: 'Europe/Paris', endpoint: 'jobs', body },
        headers: { 'idempotency-key': key() },
      });
    const made = await create({ topic: 'a morning tip', platforms: ['vidsite_shorts'] });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.data.price_per_run.usd_cents, 65);
    const refused = await create({ topic: 'a morning tip', platforms: ['facesite_reels'] });
    assert.equal(refused.status, 400, refused.text);
    assert.ok(refused.text.includes('PLATFORM_NOT_CONNECTED') || refused.text.includes('body.platforms'));
  });
});
