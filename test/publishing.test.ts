// Publishing through the real service: connections sealed at rest, refreshed ahead of expiry and managed by the
// admin CLI; POST /post of a rendered video to YouTube, X and Instagram (local servers speaking their protocols;
// Instagram pulls the signed link); refused refreshes expiring a connection; fan-out jobs that render then post;
// scheduled fan-outs cancelled with a refund, or run once by other processes after the accepting one stopped;
// and the free refusals of bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { productModes } from '../src/modes/index.ts';
import { loadConfig } from '../src/platform/config.ts';
import { parseTokenKey, TokenCipher } from '../src/publishing/connections/token-cipher.ts';
import { checkTokenKey } from '../src/publishing/connections/token-key-check.ts';
import { type HookReceiver, startHookReceiver } from './support/hook-receiver.ts';
import { type InstagramFake, startInstagramServer } from './support/platforms/instagram-server.ts';
import { startXServer, type XFake } from './support/platforms/x-server.ts';
import { startYouTubeServer, type YouTubeFake } from './support/platforms/youtube-server.ts';
import { startTestService, type TestService, waitForJob } from './support/test-service.ts';

let service: TestService;
let youtube: YouTubeFake;
let x: XFake;
let instagram: InstagramFake;
let videoJobId: string;
let videoPath: string;
let hooks: HookReceiver;
/** What every process of these tests shares: the token key and the platforms' local servers. */
let platformEnv: Record<string, string>;

const key = () => `publishing-${randomBytes(6).toString('hex')}`;

before(async () => {
  hooks = await startHookReceiver();
  youtube = await startYouTubeServer();
  x = await startXServer();
  instagram = await startInstagramServer();
  platformEnv = {
    RENDER_PRESET: 'ultrafast',
    PLATFORM_TOKEN_KEY: randomBytes(32).toString('base64'),
    YOUTUBE_BASE_URL: youtube.baseUrl,
    YOUTUBE_CLIENT_ID: youtube.clientId,
    YOUTUBE_CLIENT_SECRET: youtube.clientSecret,
    X_BASE_URL: x.baseUrl,
    X_CLIENT_ID: x.clientId,
    X_CLIENT_SECRET: x.clientSecret,
    INSTAGRAM_BASE_URL: instagram.baseUrl,
  };
  service = await startTestService({
    modes: productModes,
    env: platformEnv,
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
  await instagram.close();
  await hooks.close();
});

const videoIdOf = async (jobId: string): Promise<string> =>
  (await service.call('GET', `/api/v1/jobs/${jobId}`)).body.data.job.video_id;

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

  void test("the worker's refresh renews a token before it expires with the platform's flow; a refused one expires the connection", async () => {
    const other = await service.newAccount(1000);
    const as = (path: string, body?: Record<string, unknown>) =>
      service.call(body ? 'POST' : 'GET', path, { key: other.live_key, ...(body ? { body } : {}) });
    const before = youtube.accessToken;
    const due = await as('/api/v1/social-accounts', {
      platform: 'vidsite_shorts',
      external_account_id: 'UC-refreshed-channel',
      access_token: before,
      refresh_token: youtube.refreshToken,
      expires_in: 600,
    });
    assert.equal(due.status, 201, due.text);
    const refused = await as('/api/v1/social-accounts', {
      platform: 'microsite',
      external_account_id: '555',
      access_token: 'xat-about-to-expire',
      refresh_token: 'xrt-revoked-by-the-user',
      expires_in: 600,
    });
    assert.equal(refused.status, 201, refused.text);

    const outcome = await service.runtime.context.publishing.connections.refreshDue();
    assert.ok(outcome.refreshed >= 1 && outcome.expired >= 1, JSON.stringify(outcome));

    const byPlatform = Object.fromEntries(
      (await as('/api/v1/social-accounts')).body.data.connections.map((c: { platform: string }) => [
        c.platform,
        c,
      ]),
    );
    const renewed = byPlatform.vidsite_shorts;
    assert.equal(renewed.status, 'active');
    assert.ok(renewed.refreshed_at, JSON.stringify(renewed));
    // Google's answer gives an hour: the expiry moved from ten minutes ahead to about an hour ahead.
    assert.ok(Date.parse(renewed.access_expires_at) > Date.now() + 50 * 60_000, renewed.access_expires_at);
    // The new access token the platform minted is the one sealed now, with the refresh token kept.
    const [row] = (
      await sql<{ tokens: Buffer }>`SELECT tokens FROM platform_connections WHERE id = ${renewed.id}`.execute(
        service.runtime.database.db,
      )
    ).rows;
    const cipher = new TokenCipher(parseTokenKey(service.env.PLATFORM_TOKEN_KEY!));
    const sealed = cipher.decrypt<{ access_token: string; refresh_token: string }>(row!.tokens);
    assert.notEqual(sealed.access_token, before);
    assert.match(sealed.access_token, /^ya29\./);
    assert.equal(sealed.refresh_token, youtube.refreshToken);

    const expired = byPlatform.microsite;
    assert.equal(expired.status, 'expired');
    assert.ok(expired.status_reason, JSON.stringify(expired));
  });

  void test('the admin CLI connects, lists and removes a connection; tokens go in on stdin and never come out', async () => {
    const other = await service.newAccount(1000);
    const cli = (args: string[], input?: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'connections', ...args], {
        env: { ...process.env, ...service.env },
        input,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const accessToken = `act.${randomBytes(12).toString('hex')}`;
    const refreshToken = `rft.${randomBytes(12).toString('hex')}`;
    const connected = cli(
      ['connect', '--account', other.account_id],
      JSON.stringify({
        platform: 'shortsite',
        external_account_id: 'open-id-123',
        display_name: 'Creator',
        access_token: accessToken,
        refresh_token: refreshToken,
        expires_in: 86_400,
      }),
    );
    assert.equal(connected.status, 0, connected.stderr);
    assert.ok(!connected.stdout.includes(accessToken) && !connected.stdout.includes(refreshToken));
    const { connection } = JSON.parse(connected.stdout) as {
      connection: { id: string; platform: string; platform_name: string; status: string };
    };
    assert.equal(connection.platform, 'shortsite');
    assert.equal(connection.platform_name, 'TikTok');
    assert.equal(connection.status, 'active');

    // The API of that account sees what the CLI connected, and the CLI lists it, without tokens.
    const api = await service.call('GET', '/api/v1/social-accounts', { key: other.live_key });
    assert.deepEqual(
      api.body.data.connections.map((c: { id: string }) => c.id),
      [connection.id],
    );
    const listed = cli(['list', '--account', other.account_id]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.ok(!listed.stdout.includes(accessToken));
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { connections: { id: string }[] }).connections.map((c) => c.id),
      [connection.id],
    );

    const badBody = cli(['connect', '--account', other.account_id], JSON.stringify({ platform: 'myspace' }));
    assert.equal(badBody.status, 1);
    assert.match(badBody.stderr, /INPUT_INVALID/);

    const removed = cli(['remove', '--account', other.account_id, '--connection', connection.id]);
    assert.equal(removed.status, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout), { connection_id: connection.id, deleted: true });
    const after = await service.call('GET', '/api/v1/social-accounts', { key: other.live_key });
    assert.deepEqual(after.body.data.connections, []);
    const again = cli(['remove', '--account', other.account_id, '--connection', connection.id]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /CONNECTION_NOT_FOUND/);
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
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ job_id: videoJobId, platforms: ['myspace'] }, 400, 'INPUT_INVALID', 'platforms[0]'],
      [
        { job_id: videoJobId, platforms: ['vidsite_shorts', 'facesite_reels'] },
        400,
        'PLATFORM_NOT_CONNECTED',
        'platforms[1]',
      ],
      [{ video_id: 'vid_nope', platforms: ['vidsite_shorts'] }, 404, 'VIDEO_NOT_FOUND', 'video_id'],
      [{ platforms: ['vidsite_shorts'] }, 400, 'INPUT_INVALID', 'video_id'],
      [
        { job_id: videoJobId, platforms: ['vidsite_shorts'], platform_options: { microsite: {} } },
        400,
        'INPUT_INVALID',
        'platform_options.microsite',
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const answer = await service.call('POST', '/api/v1/post', {
        body,
        headers: { 'idempotency-key': key() },
      });
      assert.equal(answer.status, status, answer.text);
      assert.equal(answer.body.error.code, code, answer.text);
      assert.ok(
        answer.body.error.details.fields.some((f: { field: string }) => f.field === field),
        `${answer.text} names ${field}`,
      );
    }
    const noKey = await service.call('POST', '/api/v1/post', {
      body: { job_id: videoJobId, platforms: ['vidsite_shorts'] },
    });
    assert.equal(noKey.status, 400);
    const noAuth = await service.call('POST', '/api/v1/post', {
      body: { job_id: videoJobId, platforms: ['vidsite_shorts'] },
      headers: { 'idempotency-key': key() },
      key: null,
    });
    assert.equal(noAuth.status, 401);
    assert.equal(noAuth.body.error.code, 'AUTH_REQUIRED');
    // Another account, even with the platform connected, cannot post this account's video: it is not found.
    const other = await service.newAccount(1000);
    const otherConnected = await service.call('POST', '/api/v1/social-accounts', {
      key: other.live_key,
      body: {
        platform: 'vidsite_shorts',
        external_account_id: 'UC-other',
        access_token: 'ya29.other-account',
      },
    });
    assert.equal(otherConnected.status, 201, otherConnected.text);
    for (const ref of [{ job_id: videoJobId }, { video_id: await videoIdOf(videoJobId) }]) {
      const foreign = await service.call('POST', '/api/v1/post', {
        key: other.live_key,
        body: { ...ref, platforms: ['vidsite_shorts'] },
        headers: { 'idempotency-key': key() },
      });
      assert.equal(foreign.status, 404, foreign.text);
      assert.equal(foreign.body.error.code, 'VIDEO_NOT_FOUND');
      assert.ok(foreign.text.includes(Object.keys(ref)[0]!), foreign.text);
    }
    assert.equal(await balance(), start);
    assert.equal(
      (await service.call('GET', '/api/v1/usage', { key: other.live_key })).body.data.balance_usd_cents,
      1000,
    );
  });

  void test('idempotency by key alone: the same key answers the first receipt, charged once; with another body 409', async () => {
    const start = await balance();
    const idem = key();
    const body = { job_id: videoJobId, platforms: ['vidsite_shorts'], caption: 'Once only' };
    const first = await service.call('POST', '/api/v1/post', { body, headers: { 'idempotency-key': idem } });
    assert.equal(first.status, 200, first.text);
    const again = await service.call('POST', '/api/v1/post', { body, headers: { 'idempotency-key': idem } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.job_id, first.body.data.job_id);
    const changed = await service.call('POST', '/api/v1/post', {
      body: { ...body, caption: 'Another caption' },
      headers: { 'idempotency-key': idem },
    });
    assert.equal(changed.status, 409, changed.text);
    // The same body under a new key is a new post: no identical-body window on this route.
    const fresh = await service.call('POST', '/api/v1/post', { body, headers: { 'idempotency-key': key() } });
    assert.equal(fresh.status, 200, fresh.text);
    assert.notEqual(fresh.body.data.job_id, first.body.data.job_id);
    assert.equal(start - (await balance()), 10);
    for (const id of [first.body.data.job_id, fresh.body.data.job_id]) {
      const job = await waitForJob(service, id, { timeoutMs: 120_000 });
      assert.equal(job.status, 'completed', JSON.stringify(job));
    }
  });

  void test('Instagram pulls the video itself from a signed link to this server, and publishes the reel', async () => {
    const connected = await connect({
      platform: 'photosite',
      external_account_id: instagram.userId,
      access_token: instagram.accessToken,
    });
    assert.equal(connected.status, 201, connected.text);
    const receipt = await service.call('POST', '/api/v1/post', {
      body: { job_id: videoJobId, platforms: ['photosite'], caption: 'A reel after lunch' },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(receipt.status, 200, receipt.text);
    await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    const record = (await service.call('GET', `/api/v1/jobs/${receipt.body.data.job_id}`)).body.data.job;
    assert.equal(record.status, 'completed', JSON.stringify(record));
    assert.equal(record.platforms[0].external_url, instagram.permalink);
    assert.equal(instagram.publishes, 1);
    const container = instagram.containers.at(-1)!;
    const link = new URL(container.body.video_url as string);
    assert.equal(link.origin, service.url);
    assert.ok(link.searchParams.get('sig') && link.searchParams.get('expires'), link.href);
    // What Instagram fetched is the stored video, byte for byte.
    assert.ok(container.pulled?.equals(await readFile(videoPath)));
    // The link is signed: the same path with a changed signature gives nothing.
    link.searchParams.set(
      'sig',
      link.searchParams.get('sig')!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    );
    const forged = await fetch(link);
    assert.ok(forged.status >= 400 && forged.status < 500, String(forged.status));
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
      if (record.status === 'generating' && !seen.has('generating')) {
        // The video has started: too late to cancel with a refund, by either route.
        for (const [method, path] of [
          ['DELETE', `/api/v1/jobs/${receipt.body.data.job_id}`],
          ['POST', `/api/v1/jobs/${receipt.body.data.job_id}/cancel`],
        ] as const) {
          const late = await service.call(method, path);
          assert.equal(late.status, 409, `${method} ${late.text}`);
          assert.equal(late.body.error.code, 'JOBS_CANCEL_NOT_ALLOWED');
        }
      }
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
    // Its video is not made yet: posting it is a free 409 naming the field.
    const notReady = await service.call('POST', '/api/v1/post', {
      body: { job_id: receipt.body.data.job_id, platforms: ['vidsite_shorts'] },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(notReady.status, 409, notReady.text);
    assert.equal(notReady.body.error.code, 'VIDEO_NOT_READY');
    assert.ok(notReady.text.includes('job_id'), notReady.text);
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

void describe('scheduled fan-out jobs across restarts and workers', () => {
  void test('accepted by a process that then stops, the job runs once at schedule_at; its video fails: failed, refunded in full, one job.completed', async () => {
    const accepting = await startTestService({
      databaseUrl: service.databaseUrl,
      worker: false,
      modes: productModes,
      env: platformEnv,
    });
    const as = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      service.call(method, path, { key: accepting.account.live_key, headers, ...(body ? { body } : {}) });
    let second: TestService | undefined;
    let stopped = false;
    try {
      const connected = await accepting.call('POST', '/api/v1/social-accounts', {
        body: {
          platform: 'vidsite_shorts',
          external_account_id: 'UC-scheduled',
          access_token: 'ya29.never-used-the-video-fails-first',
        },
      });
      assert.equal(connected.status, 201, connected.text);
      const startBalance = (await as('GET', '/api/v1/usage')).body.data.balance_usd_cents as number;
      const scheduleAt = new Date(Date.now() + 6000);
      scheduleAt.setMilliseconds(0);
      const receipt = await accepting.call('POST', '/api/v1/jobs', {
        body: {
          script: 'Stretch your back every hour. It takes one minute. Your spine will thank you.',
          music: false,
          // Not a video: the render fails when it fetches it, after the job has started.
          asset_urls: [`${hooks.url}/not-a-video.mp4`],
          platforms: ['vidsite_shorts'],
          schedule_at: scheduleAt.toISOString(),
          webhook_url: `${hooks.url}/scheduled`,
        },
        headers: { 'idempotency-key': key() },
      });
      assert.equal(receipt.status, 201, receipt.text);
      const jobId = receipt.body.data.job_id as string;
      const price = receipt.body.data.price_usd_cents as number;
      assert.equal(startBalance - (await as('GET', '/api/v1/usage')).body.data.balance_usd_cents, price);
      // The process that accepted it goes away; the job waits in the database's queue.
      await accepting.stop();
      stopped = true;
      second = await startTestService({
        databaseUrl: service.databaseUrl,
        modes: productModes,
        env: platformEnv,
      });
      assert.equal((await as('GET', `/api/v1/jobs/${jobId}`)).body.data.job.status, 'queued');

      // Two workers (this test's service and the second process) share the queue.
      await waitForJob(service, jobId, { timeoutMs: 120_000, key: accepting.account.live_key });
      const record = (await as('GET', `/api/v1/jobs/${jobId}`)).body.data.job;
      assert.equal(record.status, 'failed', JSON.stringify(record));
      assert.equal(record.platforms[0].status, 'failed');
      assert.equal(record.platforms[0].error_code, 'INPUT_INVALID_MEDIA');
      assert.equal(record.credits_used, price / 5);
      assert.equal(record.credits_refunded, record.credits_used);
      assert.equal((await as('GET', '/api/v1/usage')).body.data.balance_usd_cents, startBalance);
      const row = await service.runtime.database.db
        .selectFrom('jobs')
        .select(['attempts', 'started_at'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      assert.equal(row.attempts, 1);
      assert.ok(new Date(row.started_at!).getTime() >= scheduleAt.getTime(), String(row.started_at));

      const [hook] = await hooks.waitFor('/scheduled', 1, 30_000);
      assert.equal(hook!.headers['x-service-event-type'], 'job.completed');
      const event = JSON.parse(hook!.rawBody) as { data: Record<string, any> };
      assert.equal(event.data.job_id, jobId);
      assert.equal(event.data.status, 'failed');
      assert.equal(event.data.credits_used, price / 5);
      assert.equal(event.data.credits_refunded, price / 5);
      assert.equal(event.data.platforms[0].error_code, 'INPUT_INVALID_MEDIA');
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(hooks.received('/scheduled').length, 1);
    } finally {
      await second?.stop();
      if (!stopped) await accepting.stop();
    }
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
