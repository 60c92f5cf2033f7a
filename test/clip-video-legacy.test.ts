import assert from 'node:assert/strict';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { createRecognizer } from '../src/media/speech/create-recognizer.ts';
import { clipMode } from '../src/modes/clipper/clip-mode.ts';
import { VideoSiteError } from '../src/providers/video-site/video-site.ts';
import { downloadTo } from './support/media-files.ts';
import { FakeVideoSite } from './support/fake-video-site.ts';
import { makeLongVideo, QUALITY_PASSAGES } from './support/long-video-fixture.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The earlier-format POST /api/clip-video (document 2 §4.9): the clip mode's jobs behind the older body and
// answer shapes. Remote files (video_type 1) come from a fixture server on 127.0.0.1, which the URL guard
// reaches because the test service sets REELSMITH_ALLOW_LOOPBACK_URLS=1.

const site = new FakeVideoSite();
let service: TestService;
let files: http.Server;
let fileBase: string;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-legacy-clips-'));
  // The route's mapping is under test, not moment picking: a minute of speech with one strong passage will do.
  const video = await makeLongVideo(dir, { passages: QUALITY_PASSAGES.slice(0, 3) });
  await writeFile(join(dir, 'notes.txt'), 'plain text, not a video');
  site.addVideo('privateVid1', new VideoSiteError('video_unavailable', 'Private video'));
  files = http.createServer((req, res) => {
    const name = { '/talk.mp4': video.path, '/notes.txt': join(dir, 'notes.txt') }[req.url ?? ''];
    if (!name || !existsSync(name)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': name.endsWith('.mp4') ? 'video/mp4' : 'text/plain' });
    createReadStream(name).pipe(res);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  fileBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  service = await startTestService({
    modes: (deps) => ({
      modes: [
        clipMode({
          fetcher: site,
          recognizer: () => createRecognizer(deps.config),
          renderPreset: deps.config.renderPreset,
          outputScale: 0.25,
        }),
      ],
    }),
    env: { RENDER_PRESET: 'ultrafast', REELSMITH_ALLOW_LOOPBACK_URLS: '1' },
  });
});

after(async () => {
  await service.stop();
  await new Promise((resolve) => files.close(resolve));
});

const clipVideo = (body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}) =>
  service.call('POST', '/api/clip-video', { body, ...options });

async function balance(key?: string): Promise<number> {
  const usage = await service.call('GET', '/api/v1/usage', key ? { key } : {});
  return usage.body.data.balance_usd_cents as number;
}

function assertOlderError(
  answer: { status: number; body: any; text: string },
  status: number,
  code: string,
  message?: RegExp,
) {
  assert.equal(answer.status, status, answer.text);
  assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message', 'success']);
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.error, code);
  if (message) assert.match(answer.body.message, message);
}

void describe('POST /api/clip-video', () => {
  void test('a remote file (video_type 1) becomes a clip job: older answer, same job, price per clip', async () => {
    const before = await balance();
    const answer = await clipVideo({
      video_url: `${fileBase}/talk.mp4`,
      user_id: service.account.account_id,
      video_type: 1,
      finalVideo_type: 'Wide',
      numberOfClips: 2,
      ext: 'mp4',
      templateId: 7,
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.body).sort(), ['message', 'success', 'taskId', 'videoId']);
    assert.equal(answer.body.success, true);
    assert.match(answer.body.message, /up to 2 clips/);
    assert.match(answer.body.taskId, /^job_/);
    assert.match(answer.body.videoId, /^vid_/);
    assert.equal(answer.headers.get('x-job-id'), answer.body.taskId);
    assert.equal(answer.headers.get('x-api-credits-cost-usd-cents'), '80');
    assert.equal(await balance(), before - 80);

    const job = await waitForJob(service, answer.body.taskId as string, { timeoutMs: 600_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.operation, 'clip');
    const clips = job.artifacts.clips as Array<Record<string, any>>;
    assert.ok(clips.length >= 1 && clips.length <= 2);
    assert.equal(job.artifacts.videoUrls.length, clips.length);
    assert.equal(job.artifacts.source_video.url, `${fileBase}/talk.mp4`);
    const path = join(dir, 'legacy-clip.mp4');
    await downloadTo(clips[0]!.videoUrl as string, path);
    const info = await probeMedia(path);
    assert.ok(info.video && info.audio);
    assert.equal(
      info.video.width * 9,
      info.video.height * 16,
      `${info.video.width}x${info.video.height} is 16:9`,
    );
    assert.equal(await balance(), before - 80 + (2 - clips.length) * 40);
  });

  void test('user_id may be the account name; the Idempotency-Key replays the answer; a failed job is refunded', async () => {
    const { name } = await service.runtime.database.db
      .selectFrom('accounts')
      .select('name')
      .where('id', '=', service.account.account_id)
      .executeTakeFirstOrThrow();
    const before = await balance();
    const body = { video_url: 'https://youtu.be/privateVid1', user_id: name, numberOfClips: '1' };
    const headers = { 'idempotency-key': `legacy-${Math.random()}` };
    const first = await clipVideo(body, { headers });
    assert.equal(first.status, 200, first.text);
    const replay = await clipVideo(body, { headers });
    assert.equal(replay.status, 200);
    assert.equal(replay.body.taskId, first.body.taskId);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    const job = await waitForJob(service, first.body.taskId as string, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'SOURCE_UNAVAILABLE');
    assert.equal(await balance(), before);
  });

  void test('a remote file that is not a video fails its job and is refunded', async () => {
    const before = await balance();
    const answer = await clipVideo({
      video_url: `${fileBase}/notes.txt`,
      user_id: service.account.account_id,
      video_type: 1,
      numberOfClips: 1,
    });
    assert.equal(answer.status, 200, answer.text);
    const job = await waitForJob(service, answer.body.taskId as string, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'SOURCE_UNUSABLE');
    assert.equal(await balance(), before);
  });

  void test('errors answer in the older shape with the older statuses, and charge nothing', async () => {
    const user_id = service.account.account_id;
    const before = await balance();
    assertOlderError(await clipVideo({ user_id }), 400, 'INPUT_INVALID', /video_url/);
    assertOlderError(
      await clipVideo({ video_url: 'https://cdn.example.com/talk.mp4', user_id }),
      400,
      'INPUT_INVALID',
      /video_type 2/,
    );
    assertOlderError(
      await clipVideo({ video_url: 'https://10.0.0.1/talk.mp4', user_id, video_type: 1 }),
      400,
      'INPUT_INVALID',
      /video_url/,
    );
    assertOlderError(
      await clipVideo({ video_url: 'https://youtu.be/dQw4w9WgXcQ', user_id, finalVideo_type: 'Diagonal' }),
      400,
      'INPUT_INVALID',
      /finalVideo_type/,
    );
    assertOlderError(
      await clipVideo({ video_url: 'https://youtu.be/dQw4w9WgXcQ', user_id, dry_run: true }),
      400,
      'DRY_RUN_NOT_SUPPORTED',
    );
    assertOlderError(await clipVideo('{"video_url": '), 400, 'INPUT_INVALID');
    assertOlderError(
      await clipVideo({ video_url: 'https://youtu.be/dQw4w9WgXcQ', user_id: 'someone-else' }),
      404,
      'USER_NOT_FOUND',
    );
    assertOlderError(
      await clipVideo({ video_url: 'https://youtu.be/dQw4w9WgXcQ', user_id }, { key: null }),
      401,
      'AUTH_REQUIRED',
    );
    assert.equal(await balance(), before);

    const poor = await service.newAccount(50);
    const broke = await clipVideo(
      { video_url: 'https://youtu.be/dQw4w9WgXcQ', user_id: poor.account_id, numberOfClips: 3 },
      { key: poor.live_key },
    );
    assertOlderError(broke, 400, 'INSUFFICIENT_API_CREDITS', /120 cents/);
    assert.equal(await balance(poor.live_key), 50);
  });
});
