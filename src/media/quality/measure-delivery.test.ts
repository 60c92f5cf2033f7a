// The delivery measurement on real media made with lavfi and espeak-ng: each fault a render can have is put
// into a small file on purpose, and the report must catch it (and only it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAss } from '../captions/build-ass.ts';
import { highlightPreset } from '../captions/caption-presets.ts';
import { measureLoudness } from '../ffmpeg/measure.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { WordTiming } from '../types.ts';
import { measureDelivery } from './measure-delivery.ts';
import { judgeQuality, type QualityReport } from './quality-gate.ts';

const W = 270;
const H = 480;
const SEC = 4;
/** Moving picture, no still frame anywhere. */
const MOVING = `testsrc2=s=${W}x${H}:r=30:d=${SEC}`;

describe('measureDelivery', () => {
  let dir = '';
  const at = (name: string) => join(dir, name);
  let words: WordTiming[] = [];

  /** A delivery: `video` lavfi graph, the narration mixed after `delaySec`, gain `gainDb`, audio cut at `audioSec`. */
  async function deliver(
    name: string,
    options: { video?: string; delaySec?: number; gainDb?: number; audioSec?: number; audio?: string } = {},
  ): Promise<string> {
    const delayMs = Math.round((options.delaySec ?? 0) * 1000);
    const audioIn = options.audio ? ['-f', 'lavfi', '-i', options.audio] : ['-i', at('narration.wav')];
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      options.video ?? MOVING,
      ...audioIn,
      '-filter_complex',
      `[1:a]adelay=${delayMs}:all=1,volume=${options.gainDb ?? 0}dB,apad,` +
        `atrim=0:${options.audioSec ?? SEC},aresample=48000[a]`,
      '-map',
      '0:v',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-ac',
      '2',
      at(name),
    ]);
    return at(name);
  }

  const report = async (path: string, withCaptions = true): Promise<QualityReport> => {
    const measured = await measureDelivery({
      videoPath: path,
      narration: { path: at('narration.wav'), words },
      ...(withCaptions ? { captions: { assPath: at('captions.ass') } } : {}),
    });
    return judgeQuality(measured, { plannedSec: SEC });
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-quality-'));
    // Real speech: its syllables give the envelope the irregular rhythm the narration is found by.
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-w',
      at('speech.wav'),
      'Quality is measured on the file we deliver, every single time.',
    ]);
    // Brought to the gate's loudness so that the clean delivery passes as it is.
    const speech = await measureLoudness(at('speech.wav'));
    await runFfmpeg([
      '-y',
      '-i',
      at('speech.wav'),
      '-af',
      `volume=${(-14 - speech.integratedLufs).toFixed(2)}dB`,
      '-ar',
      '48000',
      '-ac',
      '1',
      at('narration.wav'),
    ]);
    // Words every 0.4 s, as an aligner would give them; the captions are built from them.
    words = Array.from({ length: 8 }, (_, i) => ({
      word: `w${i}`,
      start: 0.2 + i * 0.4,
      end: 0.5 + i * 0.4,
    }));
    await writeFile(at('captions.ass'), buildAss(words, highlightPreset(), { width: W, height: H }));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a clean delivery passes every check', async () => {
    const r = await report(await deliver('clean.mp4'));
    assert.deepEqual(r.failed, [], JSON.stringify(r.checks, null, 1));
    assert.ok(
      Math.abs(r.checks.caption_sync.narration_offset_ms!) < 15,
      JSON.stringify(r.checks.caption_sync),
    );
    assert.equal(r.checks.caption_sync.compared, words.length);
    assert.ok(r.checks.safe_zone.caption_box);
    assert.deepEqual(r.checks.black.runs, []);
    assert.deepEqual(r.checks.frozen.runs, []);
  });

  test('a black stretch is found where it is', async () => {
    const r = await report(
      await deliver('black.mp4', { video: `${MOVING},drawbox=c=black:t=fill:enable='between(t,1.5,2.5)'` }),
    );
    assert.deepEqual(r.failed, ['black', 'frozen'], JSON.stringify(r.checks, null, 1));
    const [run] = r.checks.black.runs;
    assert.ok(
      run && Math.abs(run.start - 1.5) <= 0.1 && Math.abs(run.end - 2.6) <= 0.15,
      JSON.stringify(run),
    );
  });

  test('a frozen stretch is found, and a short one is let through', async () => {
    // The picture stops for 1.2 s from 1 s (a stalled feed: fps repeats the last frame over the gap).
    const stalled = (from: number, to: number) => `${MOVING},select='not(between(t,${from},${to}))',fps=30`;
    const r = await report(await deliver('frozen.mp4', { video: stalled(1.01, 2.2) }));
    assert.deepEqual(r.failed, ['frozen'], JSON.stringify(r.checks, null, 1));
    const [run] = r.checks.frozen.runs;
    assert.ok(run && run.duration >= 1 && run.duration <= 1.4, JSON.stringify(run));
    assert.equal(r.checks.black.runs.length, 0);

    const brief = await report(await deliver('brief.mp4', { video: stalled(1.01, 1.3) }));
    assert.equal(brief.checks.frozen.passed, true, JSON.stringify(brief.checks.frozen));
  });

  test('a loud mix fails loudness and true peak', async () => {
    const r = await report(
      await deliver('loud.mp4', { audio: 'sine=f=997:sample_rate=48000:d=4', gainDb: 20 }),
      false,
    );
    assert.deepEqual(r.failed, ['loudness', 'true_peak'], JSON.stringify(r.checks, null, 1));
    assert.ok(r.checks.loudness.integrated_lufs! > -6);
    assert.ok(r.checks.true_peak.true_peak_dbtp! > -1);
  });

  test('a silent mix fails loudness', async () => {
    const r = await report(await deliver('silent.mp4', { audio: 'anullsrc=r=48000:cl=stereo' }), false);
    assert.ok(r.failed.includes('loudness'), JSON.stringify(r.checks, null, 1));
    assert.ok(r.checks.loudness.integrated_lufs === null || r.checks.loudness.integrated_lufs < -60);
  });

  test('narration placed late is found, and the captions are out of sync with it', async () => {
    const r = await report(await deliver('late.mp4', { delaySec: 0.3 }));
    assert.deepEqual(r.failed, ['caption_sync'], JSON.stringify(r.checks, null, 1));
    const { narration_offset_ms: lag, worst_offset_ms: worst } = r.checks.caption_sync;
    assert.ok(Math.abs(lag! - 300) <= 15, `lag ${lag}`);
    assert.ok(worst! >= 280, `worst ${worst}`);
  });

  test('an audio stream shorter than the video fails A/V sync', async () => {
    const r = await report(await deliver('short.mp4', { audioSec: SEC - 0.3 }));
    assert.deepEqual(r.failed, ['av_sync'], JSON.stringify(r.checks, null, 1));
    assert.ok(Math.abs(r.checks.av_sync.difference_ms! - 300) <= 30, JSON.stringify(r.checks.av_sync));
  });

  test('captions drawn over the platform header fail the safe zone', async () => {
    const clean = await deliver('top.mp4');
    // Alignment 8 (top centre) with no vertical margin: the captions sit on the top edge.
    const ass = buildAss(words, highlightPreset(), { width: W, height: H }).replace(
      /^(Style: Caption,(?:[^,]*,){17})\d+,(\d+),(\d+),\d+/m,
      (_all, head: string, left: string, right: string) => `${head}8,${left},${right},0`,
    );
    await writeFile(at('top.ass'), ass);
    const measured = await measureDelivery({ videoPath: clean, captions: { assPath: at('top.ass') } });
    const r = judgeQuality(measured, { plannedSec: SEC });
    assert.deepEqual(r.failed, ['safe_zone'], JSON.stringify(r.checks.safe_zone));
    assert.ok(r.checks.safe_zone.caption_box!.y1 < r.checks.safe_zone.safe_area.y1);
  });
});
