import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { createRecognizer } from '../src/media/speech/create-recognizer.ts';
import { clipMode } from '../src/modes/clipper/clip-mode.ts';
import { productModes } from '../src/modes/index.ts';
import type { ModeFactoryDeps, ProductSetup } from '../src/platform/runtime.ts';
import { VideoSiteError } from '../src/providers/video-site/video-site.ts';
import { FakeVideoSite } from './support/fake-video-site.ts';
import { makeLongVideo, type LongVideo } from './support/long-video-fixture.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /api/v1/clipper/vidsite end to end: the real service, database, worker, speech recognizer and clip
// engine, with a local stand-in for the video site serving a narrated video made here.

const SOURCE_ID = 'talkVideo01';
const PRIVATE_ID = 'privateVid1';

function clipModes(site: FakeVideoSite) {
  return (deps: ModeFactoryDeps): ProductSetup => ({
    modes: [
      clipMode({
        fetcher: site,
        recognizer: () => createRecognizer(deps.config),
        renderPreset: deps.config.renderPreset,
        // Quarter-size frames (270×480 for 9:16) keep the renders cheap; the engine is the same.
        outputScale: 0.25,
      }),
    ],
  });
}

async function balance(service: TestService, key?: string): Promise<number> {
  const usage = await service.call('GET', '/api/v1/usage', key ? { key } : {});
  assert.equal(usage.status, 200, usage.text);
  return usage.body.data.balance_usd_cents as number;
}

function clipRequest(
  service: TestService,
  body: Record<string, unknown>,
  options: { key?: string; idempotencyKey?: string; repeat?: string } = {},
) {
  return service.call('POST', '/api/v1/clipper/vidsite', {
    body,
    headers: {
      'idempotency-key': options.idempotencyKey ?? `clip-${Math.random()}`,
      ...(options.repeat ? { 'x-repeat-token': options.repeat } : {}),
    },
    ...(options.key ? { key: options.key } : {}),
  });
}

let video: LongVideo;

before(async () => {
  video = await makeLongVideo(await mkdtemp(join(tmpdir(), 'reelsmith-clip-source-')));
});

void describe('clips from one video (worker running)', () => {
  const site = new FakeVideoSite();
  let service: TestService;

  before(async () => {
    site.addVideo(SOURCE_ID, { path: video.path, title: 'A narrated talk' });
    site.addVideo(
      PRIVATE_ID,
      new VideoSiteError('video_unavailable', 'Private video. Sign in if you have access'),
    );
    service = await startTestService({ modes: clipModes(site), env: { RENDER_PRESET: 'ultrafast' } });
  });
  after(() => service.stop());

  void test('a dry run prices every requested clip and names the video, free', async () => {
    const before = await balance(service);
    const dry = await service.call('POST', '/api/v1/clipper/vidsite', {
      body: { vidsite_url: `https://youtu.be/${SOURCE_ID}`, clip_count: 4, dry_run: true },
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.mode, 'clip');
    assert.equal(dry.body.data.price.usd_cents, 160);
    assert.equal(dry.body.data.charged, false);
    assert.deepEqual(dry.body.data.normalized_request.source_video, {
      vidsite_video_id: SOURCE_ID,
      title: null,
      url: `https://www.youtube.com/watch?v=${SOURCE_ID}`,
    });
    assert.equal(await balance(service), before);
  });

  void test('the job delivers clips best first, one link per clip, and refunds the clips it did not deliver', async () => {
    const before = await balance(service);
    const receipt = await clipRequest(service, {
      vidsite_url: `https://www.youtube.com/watch?v=${SOURCE_ID}&t=5`,
      clip_count: 10,
      aspect_ratio: '9:16',
      content_purpose: 'education',
    });
    assert.equal(receipt.status, 200, receipt.text);
    const data = receipt.body.data;
    assert.equal(data.status, 'queued');
    assert.equal(data.price_usd_cents, 400);
    assert.equal(data.requested_clip_count, 10);
    assert.deepEqual(data.source_video, {
      vidsite_video_id: SOURCE_ID,
      title: null,
      url: `https://www.youtube.com/watch?v=${SOURCE_ID}`,
    });
    assert.equal(receipt.headers.get('x-job-id'), data.job_id);
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '400');
    assert.equal(receipt.headers.get('x-api-credits-tool'), 'clipper/vidsite');
    assert.equal(receipt.body.jobId, data.job_id);
    assert.equal(await balance(service), before - 400);

    const job = await waitForJob(service, data.job_id, { timeoutMs: 600_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.operation, 'clip');
    const artifacts = job.artifacts;
    const clips = artifacts.clips as Array<Record<string, any>>;
    assert.ok(clips.length >= 1 && clips.length < 10, `${clips.length} clips`);
    assert.equal(artifacts.delivered_clip_count, clips.length);
    assert.equal(artifacts.videoUrls.length, clips.length);
    assert.equal(artifacts.videoUrl, clips[0]!.videoUrl);
    assert.ok(artifacts.thumbnailUrl);
    assert.equal(artifacts.source_video.title, 'A narrated talk');
    assert.equal(artifacts.title, clips[0]!.title);
    for (let i = 1; i < clips.length; i++) assert.ok(clips[i - 1]!.viralScore >= clips[i]!.viralScore);

    const dir = await mkdtemp(join(tmpdir(), 'reelsmith-clips-'));
    for (const [i, clip] of clips.entries()) {
      assert.equal(clip.videoUrl, artifacts.videoUrls[i]);
      assert.equal(typeof clip.title, 'string');
      assert.equal(typeof clip.transcript, 'string');
      assert.ok(clip.endSec > clip.startSec && clip.endSec <= video.durationSec + 0.5);
      const response = await fetch(clip.videoUrl as string);
      assert.equal(response.status, 200);
      const path = join(dir, `clip-${i}.mp4`);
      await writeFile(path, Buffer.from(await response.arrayBuffer()));
      const info = await probeMedia(path);
      assert.ok(info.video && info.audio, 'a clip has picture and sound');
      assert.equal(
        info.video.width * 16,
        info.video.height * 9,
        `${info.video.width}x${info.video.height} is 9:16`,
      );
      assert.ok(
        Math.abs(info.durationSec - clip.durationSec) < 0.6,
        `${info.durationSec} vs ${clip.durationSec}`,
      );
      assert.equal((await fetch(clip.thumbnailUrl as string)).status, 200);
      // Each clip is measured and has its manifest: the stretch of the caller's video it was cut from.
      assert.equal(clip.quality.passed, true, JSON.stringify(clip.quality));
      assert.equal(clip.quality.checks.loudness.gated, true);
      assert.equal(clip.quality.checks.frozen.gated, false);
      const [footage, ...rest] = clip.provenance.items;
      assert.deepEqual(footage.source, {
        type: 'url',
        url: `https://www.youtube.com/watch?v=${SOURCE_ID}`,
        field: 'vidsite_url',
      });
      assert.deepEqual(footage.placements[0].source_range, {
        start: Math.round(clip.startSec * 1000) / 1000,
        end: Math.round(clip.endSec * 1000) / 1000,
      });
      assert.deepEqual(
        rest.map((item: { kind: string }) => item.kind),
        ['font'],
      );
    }
    const manifests = (artifacts.output_files as { name: string; url: string }[]).filter((f) =>
      f.name.endsWith('.provenance.json'),
    );
    assert.equal(manifests.length, clips.length);
    const stored = (await (await fetch(manifests[0]!.url)).json()) as { items: unknown[] };
    assert.deepEqual(stored.items, clips[0]!.provenance.items);

    const refund = (10 - clips.length) * 40;
    assert.equal(artifacts.refunded_usd_cents, refund);
    assert.equal(await balance(service), before - 400 + refund);
    const ledger = await service.runtime.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount_cents', 'reason'])
      .where('job_id', '=', data.job_id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      ledger.map((e) => [e.kind, Number(e.amount_cents)]),
      [
        ['charge', -400],
        ['refund', refund],
      ],
    );
    assert.match(ledger[1]!.reason, /undelivered clips: \d+ of 10 requested/);
    const stages = new Set((job.progress as Array<{ stage: string }>).map((p) => p.stage));
    assert.ok(stages.has('source') && stages.has('clips'), [...stages].join(','));
  });

  void test('a job whose video cannot be had fails with a clear error and is refunded in full', async () => {
    const before = await balance(service);
    const receipt = await clipRequest(service, {
      vidsite_url: `https://youtu.be/${PRIVATE_ID}`,
      clip_count: 3,
    });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(await balance(service), before - 120);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'SOURCE_UNAVAILABLE');
    assert.equal(job.error.retryable, false);
    assert.match(job.error.message, /Private video/);
    assert.equal(await balance(service), before);
  });
});

void describe('channel mode (no worker: jobs stay queued)', () => {
  const site = new FakeVideoSite();
  let service: TestService;
  const CHANNEL = 'https://www.youtube.com/@reelsmithtest';
  const OTHER = 'https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv';

  before(async () => {
    site.addChannel(`${CHANNEL}/videos`, [
      { id: 'newestVid03', title: 'Third upload' },
      { id: 'middleVid02', title: 'Second upload' },
      { id: 'oldestVid01', title: 'First upload' },
    ]);
    site.addChannel(`${OTHER}/videos`, [
      { id: 'otherNew003', title: 'Other newest' },
      { id: 'otherMid002', title: 'Other middle' },
      { id: 'otherOld001', title: 'Other oldest' },
    ]);
    site.addChannel('https://www.youtube.com/@single/videos', [{ id: 'onlyVideo01', title: 'Only one' }]);
    site.addChannel(
      'https://www.youtube.com/@flaky/videos',
      new VideoSiteError('unavailable', 'HTTP Error 503: Service Unavailable'),
    );
    service = await startTestService({ modes: clipModes(site), worker: false });
  });
  after(() => service.stop());

  const pick = async (body: Record<string, unknown>, options: { key?: string } = {}) => {
    const receipt = await clipRequest(
      service,
      { clip_count: 1, ...body },
      { ...options, repeat: `r-${Math.random()}` },
    );
    assert.equal(receipt.status, 200, receipt.text);
    return receipt.body.data as { job_id: string; source_video: { vidsite_video_id: string; title: string } };
  };

  void test('a dry run reports the video that would be clipped, and takes nothing', async () => {
    const before = await balance(service);
    const dry = await service.call('POST', '/api/v1/clipper/vidsite', {
      body: { channel_url: `${CHANNEL}/featured`, clip_count: 2, dry_run: true },
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.normalized_request.channel_url, `${CHANNEL}/featured`);
    assert.deepEqual(dry.body.data.normalized_request.source_video, {
      vidsite_video_id: 'newestVid03',
      title: 'Third upload',
      url: 'https://www.youtube.com/watch?v=newestVid03',
    });
    assert.ok((dry.body.data.warnings as string[]).some((w) => w.includes('Third upload')));
    assert.equal(dry.body.data.price.usd_cents, 80);
    assert.equal(await balance(service), before);
    // A dry run remembers nothing: the real call still takes the newest.
    assert.equal((await pick({ channel_url: CHANNEL })).source_video.vidsite_video_id, 'newestVid03');
  });

  void test('each call takes the newest upload not clipped yet, then 409 NO_NEW_CHANNEL_VIDEOS, uncharged', async () => {
    const account = await service.newAccount(10_000);
    const key = account.live_key;
    const taken: string[] = [];
    for (let i = 0; i < 3; i++)
      taken.push((await pick({ channel_url: CHANNEL }, { key })).source_video.vidsite_video_id);
    assert.deepEqual(taken, ['newestVid03', 'middleVid02', 'oldestVid01']);
    const before = await balance(service, key);
    assert.equal(before, 10_000 - 3 * 40);
    const none = await clipRequest(
      service,
      { channel_url: CHANNEL, clip_count: 1 },
      { key, repeat: 'again' },
    );
    assert.equal(none.status, 409, none.text);
    assert.equal(none.body.error.code, 'NO_NEW_CHANNEL_VIDEOS');
    assert.equal(await balance(service, key), before);
    const jobs = await service.runtime.database.db
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', account.account_id)
      .execute();
    assert.equal(jobs.length, 3);
  });

  void test('oldest_first walks the recent uploads from the oldest; a cancelled job frees its video', async () => {
    const { live_key: key } = await service.newAccount(10_000);
    const first = await pick({ channel_url: OTHER, selection: 'oldest_first' }, { key });
    assert.equal(first.source_video.vidsite_video_id, 'otherOld001');
    assert.equal(
      (await pick({ channel_url: OTHER, selection: 'oldest_first' }, { key })).source_video.vidsite_video_id,
      'otherMid002',
    );
    const cancel = await service.call('POST', `/api/v1/jobs/${first.job_id}/cancel`, { key });
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal(
      (await pick({ channel_url: OTHER, selection: 'oldest_first' }, { key })).source_video.vidsite_video_id,
      'otherOld001',
    );
  });

  void test('a video clipped by its own URL counts as clipped for channel mode', async () => {
    const { live_key: key } = await service.newAccount(10_000);
    const direct = await clipRequest(
      service,
      { vidsite_url: 'https://youtu.be/otherNew003', clip_count: 1 },
      { key },
    );
    assert.equal(direct.status, 200, direct.text);
    assert.equal((await pick({ channel_url: OTHER }, { key })).source_video.vidsite_video_id, 'otherMid002');
  });

  void test('two requests racing for the last upload: one job, one 409, one charge', async () => {
    const { live_key: key } = await service.newAccount(10_000);
    const answers = await Promise.all(
      [1, 2].map((clip_count) =>
        clipRequest(service, { channel_url: 'https://www.youtube.com/@single', clip_count }, { key }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 409], answers.map((a) => a.text).join('\n'));
    const won = answers.find((a) => a.status === 200)!;
    assert.equal(await balance(service, key), 10_000 - (won.body.data.price_usd_cents as number));
  });

  void test('an unknown channel is 400 CHANNEL_NOT_FOUND and a failing site 502 CHANNEL_UNAVAILABLE, neither charged', async () => {
    const before = await balance(service);
    const missing = await clipRequest(service, { channel_url: 'https://www.youtube.com/@nobodyhere' });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.error.code, 'CHANNEL_NOT_FOUND');
    assert.equal(missing.body.error.retryable, false);
    const idempotencyKey = `flaky-${Math.random()}`;
    const down = await clipRequest(
      service,
      { channel_url: 'https://www.youtube.com/@flaky' },
      { idempotencyKey },
    );
    assert.equal(down.status, 502, down.text);
    assert.equal(down.body.error.code, 'CHANNEL_UNAVAILABLE');
    assert.equal(down.body.error.retryable, true);
    // A 5xx is not stored under the key: the same key asks the site again.
    const listedBefore = site.listed.length;
    const again = await clipRequest(
      service,
      { channel_url: 'https://www.youtube.com/@flaky' },
      { idempotencyKey },
    );
    assert.equal(again.status, 502);
    assert.equal(site.listed.length, listedBefore + 1);
    assert.equal(await balance(service), before);
  });
});

void describe('clip mode as the service ships it, without yt-dlp', () => {
  let service: TestService;

  before(async () => {
    service = await startTestService({
      modes: productModes,
      env: { YTDLP_PATH: '/nonexistent/yt-dlp', RENDER_PRESET: 'ultrafast' },
    });
  });
  after(() => service.stop());

  void test('channel mode answers 502 CHANNEL_UNAVAILABLE (retryable) and charges nothing', async () => {
    const before = await balance(service);
    for (const dry_run of [false, true]) {
      const answer = await clipRequest(service, { channel_url: 'https://www.youtube.com/@mkbhd', dry_run });
      assert.equal(answer.status, 502, answer.text);
      assert.equal(answer.body.error.code, 'CHANNEL_UNAVAILABLE');
      assert.equal(answer.body.error.retryable, true);
      assert.match(answer.body.error.message, /yt-dlp is not installed/);
    }
    assert.equal(await balance(service), before);
  });

  void test('a video job fails with a clear error and is refunded', async () => {
    const before = await balance(service);
    const receipt = await clipRequest(service, {
      vidsite_url: 'https://youtu.be/dQw4w9WgXcQ',
      clip_count: 2,
    });
    assert.equal(receipt.status, 200, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'VIDSITE_DOWNLOADER_MISSING');
    assert.match(job.error.message, /YTDLP_PATH/);
    assert.equal(await balance(service), before);
  });

  void test('the capability map lists the clip route with its body schema', async () => {
    const capabilities = await service.call('GET', '/api/v1/capabilities');
    const clip = (capabilities.body.data.modes as Array<Record<string, any>>).find((m) => m.mode === 'clip');
    assert.ok(clip);
    assert.equal(clip.path, '/api/v1/clipper/vidsite');
    assert.equal(clip.receipt_status, 200);
    assert.ok(clip.batch);
    assert.ok('vidsite_url' in clip.input_schema.properties && 'channel_url' in clip.input_schema.properties);
  });
});
