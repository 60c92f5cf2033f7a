import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { keepGatedClips, type DroppedClip } from '../clips/clip-pipeline.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { CALLER_VIDEO_POLICY, correctedGain, correctiveAudioFilter, deliverGated } from './gated-delivery.ts';
import { judgeQuality } from './quality-gate.ts';
import { QualityGateError } from './gated-render.ts';

// The gate of a caller's video on real 2-second files: a quiet delivery is rendered once more with the sound
// levelled and passes; a silent one fails twice; a still picture is reported, not held against the video.
let dir = '';
let quiet = '';
let silent = '';

const SECONDS = 2;

async function source(path: string, audio: string): Promise<void> {
  await runFfmpeg([
    '-y',
    ...['-f', 'lavfi', '-i', `color=c=gray:s=160x90:r=25:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', audio],
    ...['-map', '0:v', '-map', '1:a', '-t', String(SECONDS)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k'],
    path,
  ]);
}

/** The delivery: the source with its sound as it is, or through the corrective filter on the second render. */
function deliver(input: string, output: string) {
  return async (previous: Parameters<typeof correctiveAudioFilter>[1] | null) => {
    const filter = previous ? await correctiveAudioFilter(input, previous, SECONDS) : 'anull';
    await runFfmpeg(['-y', '-i', input, '-c:v', 'copy', '-af', filter, '-c:a', 'aac', '-b:a', '96k', output]);
  };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-gated-delivery-'));
  quiet = join(dir, 'quiet.mp4');
  silent = join(dir, 'silent.mp4');
  await source(quiet, `sine=frequency=440:sample_rate=48000:d=${SECONDS},volume=-30dB`);
  await source(silent, `anullsrc=r=48000:cl=mono:d=${SECONDS}`);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

void describe('the gate of a caller video', () => {
  void test('a quiet delivery is levelled on its second render; the still picture is reported only', async () => {
    const output = join(dir, 'quiet-out.mp4');
    const quality = await deliverGated({
      render: deliver(quiet, output),
      measure: { videoPath: output },
      context: { plannedSec: SECONDS },
      hasSound: true,
    });
    assert.equal(quality.passed, true, JSON.stringify(quality.checks));
    assert.equal(quality.attempts, 2);
    assert.ok(quality.rerendered_after?.includes('loudness'), JSON.stringify(quality.rerendered_after));
    assert.ok(Math.abs(quality.checks.loudness.integrated_lufs! + 14) <= 1);
    assert.ok(quality.checks.true_peak.true_peak_dbtp! <= -1);
    assert.equal(quality.checks.frozen.passed, false, 'a grey card is frozen');
    assert.equal(quality.checks.frozen.gated, false);
    assert.ok(!quality.failed.includes('frozen'));
  });

  void test('a silent delivery cannot be levelled: it fails twice', async () => {
    const output = join(dir, 'silent-out.mp4');
    let renders = 0;
    const render = deliver(silent, output);
    await assert.rejects(
      deliverGated({
        render: async (previous) => {
          renders++;
          await render(previous);
        },
        measure: { videoPath: output },
        context: { plannedSec: SECONDS },
        hasSound: true,
      }),
      (error: unknown) =>
        error instanceof QualityGateError && error.attempts === 2 && error.report.failed.includes('loudness'),
    );
    assert.equal(renders, 2);
  });

  void test('a video without an audio track is not held to loudness or A/V sync', async () => {
    const output = join(dir, 'mute-out.mp4');
    const quality = await deliverGated({
      render: async () => {
        await runFfmpeg(['-y', '-i', quiet, '-map', '0:v', '-c', 'copy', output]);
      },
      measure: { videoPath: output },
      context: { plannedSec: SECONDS },
      hasSound: false,
    });
    assert.equal(quality.passed, true, JSON.stringify(quality.failed));
    assert.equal(quality.attempts, 1);
    assert.equal(quality.checks.loudness.gated, false);
    assert.equal(quality.checks.av_sync.audio_sec, null);
  });
});

void describe('clip gate decisions', () => {
  const failure = (title: string): DroppedClip => ({
    title,
    startSec: 0,
    endSec: 20,
    reason: 'loudness -70 LUFS (gate -14 ± 1)',
    report: judgeQuality(
      {
        loudness: { integratedLufs: -70, truePeakDb: -Infinity, lra: 0 },
        black: [],
        frozen: [],
        videoStreamSec: 20,
        audioStreamSec: 20,
        narrationLagSec: null,
        narrationCorrelation: null,
        captionOffsets: null,
        captionBoxes: [],
        frame: { width: 1080, height: 1920 },
        measureSec: 1,
      },
      { plannedSec: 20, policy: CALLER_VIDEO_POLICY },
    ),
  });

  void test('clips failing twice are dropped while others pass; the job fails only when none passes', () => {
    assert.doesNotThrow(() => keepGatedClips([{}], [failure('one')]));
    assert.doesNotThrow(() => keepGatedClips([], []), 'no moment at all is the pipeline’s own answer');
    assert.throws(
      () => keepGatedClips([], [failure('one'), failure('two')]),
      (error: unknown) =>
        error instanceof QualityGateError && error.attempts === 2 && /loudness -70 LUFS/.test(error.message),
    );
  });

  void test('a clip render is corrected by what its delivery missed the target by', () => {
    const report = (lufs: number, peak: number, loudOk: boolean, peakOk: boolean) =>
      ({
        checks: {
          loudness: { passed: loudOk, integrated_lufs: lufs },
          true_peak: { passed: peakOk, true_peak_dbtp: peak },
        },
      }) as unknown as Parameters<typeof correctedGain>[1];
    assert.deepEqual(correctedGain({ gainDb: 4, limiter: false }, report(-16.5, -6, false, true)), {
      gainDb: 6.5,
      limiter: false,
    });
    assert.deepEqual(correctedGain({ gainDb: 4, limiter: false }, report(-14, -0.4, true, false)), {
      gainDb: 4,
      limiter: true,
    });
    assert.deepEqual(correctedGain({ gainDb: 0, limiter: false }, report(-70, -80, false, true)), {
      gainDb: 0,
      limiter: false,
    });
  });
});
