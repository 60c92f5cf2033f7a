import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Scene-level revision (docs/revision.md) on the real service: a 3-scene stock video at 1080×1920, then one
// scene's line changed. The unchanged scenes' frames are bit-identical in both videos (their segments are the
// same bytes), the changed scene's are not, and the sound runs the whole length.

let service: TestService;
let original: { id: string; video: string };

const SCRIPT =
  'Gold dust rises in the dark. Molten gold flows like honey over black stone. The night sky glows.';
const NEW_LINE = 'Liquid gold pours.';

before(async () => {
  service = await startTestService({
    modes: productModes,
    env: { RENDER_PRESET: 'ultrafast', LOG_LEVEL: process.env.REVISE_LOG ?? 'silent' },
  });
});

after(async () => {
  await service.stop();
  await rm(service.dataDir, { recursive: true, force: true });
});

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

const revise = (jobId: string, body: unknown, key: string, accountKey?: string) =>
  service.call('POST', `/api/v1/jobs/${jobId}/revise`, {
    body,
    headers: { 'idempotency-key': key },
    ...(accountKey ? { key: accountKey } : {}),
  });

/** The stored file of a job's artifact (the local media store). */
function storedVideo(job: any): string {
  const key = decodeURIComponent(
    new URL(job.artifacts.videoUrl as string).pathname.replace(/^\/media\//, ''),
  );
  return join(service.dataDir, 'media', key);
}

/** MD5 of every decoded video frame, in order. */
function frameHashes(path: string): string[] {
  const run = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v', '-f', 'framemd5', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, run.stderr.toString());
  return run.stdout
    .toString()
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').pop()!.trim());
}

function probe(path: string): { video: number; audio: number } {
  const run = spawnSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,duration',
    '-of',
    'json',
    path,
  ]);
  const streams = JSON.parse(run.stdout.toString()).streams as { codec_type: string; duration: string }[];
  const of = (type: string) => Number(streams.find((s) => s.codec_type === type)!.duration);
  return { video: of('video'), audio: of('audio') };
}

function meanVolume(path: string, from: number, seconds: number): number {
  const run = spawnSync('ffmpeg', [
    ...['-v', 'info', '-ss', String(from), '-t', String(seconds), '-i', path],
    ...['-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-'],
  ]);
  const match = /mean_volume: (-?[\d.]+) dB/.exec(run.stderr.toString());
  assert.ok(match, run.stderr.toString());
  return Number(match[1]);
}

interface RevisedScene {
  index: number;
  text: string;
  start: number;
  duration: number;
  segment: 'reused' | 'rendered';
}

void describe('scene-level revision', () => {
  test('a stock video, then one line changed: only that scene is rendered again', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `revise-source-${Date.now()}` },
      body: { script: SCRIPT, clip_type: 'luxury', duration_sec: 15, progress_bar: true },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    original = { id: job.id ?? receipt.body.data.job_id, video: storedVideo(job) };

    // A dry run prices it without charging: well below a full render.
    const before = await balance();
    const dry = await service.call('POST', `/api/v1/jobs/${original.id}/revise`, {
      body: { scenes: [{ index: 1, script_line: NEW_LINE }], dry_run: true },
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.price.usd_cents, 15);
    assert.equal(await balance(), before);

    const key = `revise-${Date.now()}`;
    const body = { scenes: [{ index: 1, script_line: NEW_LINE }] };
    const accepted = await revise(original.id, body, key);
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.body.data.price_usd_cents, 15);
    assert.ok(accepted.body.data.price_usd_cents < 60, 'cheaper than a full stock render');
    assert.equal(await balance(), before - 15);
    const again = await revise(original.id, body, key);
    assert.equal(again.body.data.job_id, accepted.body.data.job_id, 'same Idempotency-Key, same job');
    assert.equal(await balance(), before - 15);

    const revised = await waitForJob(service, accepted.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(revised.status, 'completed', JSON.stringify(revised.error));
    const record = revised.artifacts.revision as { source_job_id: string; scenes: RevisedScene[] };
    assert.equal(record.source_job_id, original.id);
    assert.deepEqual(
      record.scenes.map((s) => s.segment),
      ['reused', 'rendered', 'reused'],
      JSON.stringify(record),
    );
    assert.equal(record.scenes[1]!.text, NEW_LINE);
    assert.match(revised.artifacts.script as string, /Liquid gold pours\./);
    // The joined delivery was measured and held to the gate, and it has its manifest (docs/quality.md).
    const quality = revised.artifacts.quality as {
      passed: boolean;
      attempts: number;
      checks: {
        av_sync: { difference_ms: number };
        caption_sync: { passed: boolean | null; compared: number };
      };
    };
    assert.equal(quality.passed, true, JSON.stringify(quality));
    assert.ok(quality.checks.av_sync.difference_ms < 40);
    assert.equal(quality.checks.caption_sync.passed, true);
    assert.ok(quality.checks.caption_sync.compared > 3);
    const manifest = revised.artifacts.provenance as {
      video: { duration_sec: number };
      items: { kind: string; licence: string; placements: { start: number; end: number }[] }[];
    };
    const footage = manifest.items.filter((i) => i.kind === 'footage');
    const tiled = footage.flatMap((i) => i.placements).reduce((sum, p) => sum + p.end - p.start, 0);
    assert.ok(Math.abs(tiled - manifest.video.duration_sec) < 0.05, JSON.stringify(manifest));
    assert.ok(
      footage.every((i) => i.licence === 'CC0-1.0'),
      JSON.stringify(footage),
    );
    assert.ok(manifest.items.some((i) => i.kind === 'voice'));
    assert.ok(manifest.items.some((i) => i.kind === 'font'));
    const files = revised.artifacts.output_files as { name: string }[];
    assert.ok(files.some((f) => f.name === 'provenance.json'));
    // The revision kept its own segments: it can be revised in turn.
    const next = await service.call('POST', `/api/v1/jobs/${accepted.body.data.job_id}/revise`, {
      body: { music: { volume: 0.1 }, dry_run: true },
    });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.data.price.usd_cents, 10);

    // Frames: the reused scenes are bit-identical to the original's, the changed one is not.
    const revisedVideo = storedVideo(revised);
    const a = frameHashes(original.video);
    const b = frameHashes(revisedVideo);
    const fps = 30;
    const frameOf = (s: RevisedScene) => ({
      start: Math.round(s.start * fps),
      count: Math.round(s.duration * fps),
    });
    const sourceScenes = (job.artifacts.footage as { shots: { start: number; sentence: string }[] }).shots;
    assert.ok(sourceScenes.length >= 3);
    // The original's scene boundaries: a shorter line keeps its scene's length, so they are the revision's.
    assert.equal(a.length, b.length, 'a shorter line keeps the length');
    for (const scene of record.scenes) {
      const { start, count } = frameOf(scene);
      const left = a.slice(start, start + count);
      const right = b.slice(start, start + count);
      assert.equal(right.length, count);
      if (scene.segment === 'reused') assert.deepEqual(right, left, `scene ${scene.index} is the original's`);
      else {
        const differing = right.filter((h, i) => h !== left[i]).length;
        assert.ok(differing > count / 2, `scene ${scene.index}: ${differing} of ${count} frames changed`);
      }
    }

    // The sound runs the whole video, and the new line is spoken in its scene.
    const lengths = probe(revisedVideo);
    assert.ok(Math.abs(lengths.audio - lengths.video) < 0.05, JSON.stringify(lengths));
    const changed = record.scenes[1]!;
    assert.ok(meanVolume(revisedVideo, changed.start, Math.min(1, changed.duration)) > -35);
    assert.ok(meanVolume(revisedVideo, record.scenes[2]!.start, 1) > -35);

    // A line long enough to grow this video moves its progress bar everywhere: every scene is drawn again.
    const longer = await revise(
      original.id,
      {
        scenes: [
          {
            index: 0,
            script_line:
              'Gold dust rises slowly in the dark, glittering like a thousand tiny stars above the quiet black stone.',
          },
        ],
      },
      `revise-longer-${Date.now()}`,
    );
    assert.equal(longer.status, 202, longer.text);
    assert.equal(longer.body.data.price_usd_cents, 15, 'priced by the scenes the request changes');
    const grown = await waitForJob(service, longer.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(grown.status, 'completed', JSON.stringify(grown.error));
    const grownRecord = grown.artifacts.revision as { scenes: (RevisedScene & { reasons?: string[] })[] };
    assert.deepEqual(
      grownRecord.scenes.map((s) => s.reasons),
      [['script_line'], ['progress_bar'], ['progress_bar']],
    );
    assert.ok(frameHashes(storedVideo(grown)).length > a.length);
  });

  test('a longer line lengthens its scene: the later scenes start later and are still reused', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `revise-shift-source-${Date.now()}` },
      body: { script: SCRIPT, clip_type: 'luxury', duration_sec: 15, progress_bar: false, music: false },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const source = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(source.status, 'completed', JSON.stringify(source.error));
    const sourceVideo = storedVideo(source);

    const longLine =
      'Molten gold flows slowly like thick honey over black stone, and it glows brighter with every passing second.';
    const accepted = await revise(
      receipt.body.data.job_id,
      { scenes: [{ index: 1, script_line: longLine }] },
      `revise-shift-${Date.now()}`,
    );
    assert.equal(accepted.status, 202, accepted.text);
    const revised = await waitForJob(service, accepted.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(revised.status, 'completed', JSON.stringify(revised.error));
    const record = revised.artifacts.revision as { scenes: RevisedScene[] };
    assert.deepEqual(
      record.scenes.map((s) => s.segment),
      ['reused', 'rendered', 'reused'],
      JSON.stringify(record),
    );

    // The joined delivery passed its gate as it was: no full render replaced the reused segments.
    const quality = revised.artifacts.quality as { passed: boolean; attempts: number };
    assert.equal(quality.attempts, 1, JSON.stringify(quality));

    const a = frameHashes(sourceVideo);
    const b = frameHashes(storedVideo(revised));
    const grown = b.length - a.length;
    assert.ok(grown > 0, `the video grew by ${grown} frames`);
    const [first, , last] = record.scenes.map((s) => ({
      start: Math.round(s.start * 30),
      count: Math.round(s.duration * 30),
    })) as [{ start: number; count: number }, unknown, { start: number; count: number }];
    assert.deepEqual(b.slice(0, first.count), a.slice(0, first.count), 'scene 0 as it was');
    // The last scene is the source's, shifted by exactly the frames the changed scene grew.
    assert.deepEqual(b.slice(last.start), a.slice(last.start - grown), 'scene 2 as it was, later');
    assert.equal(last.count, a.length - (last.start - grown));

    const lengths = probe(storedVideo(revised));
    assert.ok(Math.abs(lengths.audio - lengths.video) < 0.05, JSON.stringify(lengths));
    assert.ok(Math.abs(lengths.video - b.length / 30) < 0.05);
    // The last scene's line is still spoken where its picture now is.
    assert.ok(meanVolume(storedVideo(revised), record.scenes[2]!.start, 1) > -35);
  });

  test('refusals: another account, an unknown scene, a job that is not finished', async () => {
    const other = await service.newAccount();
    const foreign = await revise(
      original.id,
      { scenes: [{ index: 0, script_line: 'Hi.' }] },
      'revise-foreign-1',
      other.live_key,
    );
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(foreign.body.error.code, 'JOB_NOT_FOUND');

    const unknown = await revise(
      original.id,
      { scenes: [{ index: 7, script_line: 'Hi.' }] },
      'revise-unknown-1',
    );
    assert.equal(unknown.status, 400, unknown.text);
    assert.ok(JSON.stringify(unknown.body.error).includes('scenes[0].index'), unknown.text);

    const empty = await revise(original.id, { scenes: [{ index: 0 }] }, 'revise-empty-1');
    assert.equal(empty.status, 400, empty.text);
  });

  test('a revision that fails is refunded, and a failed job cannot be revised', async () => {
    // The reused segment of scene 2 is gone from the store: the job fails and gives the money back.
    await rm(join(service.dataDir, 'media', 'jobs', original.id, 'revision', 'seg-002.mp4'));
    const before = await balance();
    const accepted = await revise(
      original.id,
      { scenes: [{ index: 0, script_line: 'Gold glitters.' }] },
      'revise-fails-1',
    );
    assert.equal(accepted.status, 202, accepted.text);
    const failed = await waitForJob(service, accepted.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'REVISION_SOURCE_GONE');
    assert.equal(await balance(), before, 'refunded');

    const notFinished = await revise(
      failed.id ?? accepted.body.data.job_id,
      { music: false },
      'revise-failed-job-1',
    );
    assert.equal(notFinished.status, 409, notFinished.text);
    assert.equal(notFinished.body.error.code, 'JOB_NOT_REVISABLE');
  });
});
