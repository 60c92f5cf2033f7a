import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureLoudness, type LoudnessStats } from '../ffmpeg/measure.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { fft } from '../speech/mfcc.ts';
import { bedScore } from './arrangement.ts';
import { bedGraph, bedInputArgs, planBed } from './bed-graph.ts';
import { seedMusicRecipes, type MusicBedRecipe } from './beds.ts';
import {
  BED_TARGET_LUFS,
  buildCutArgs,
  buildEncodeArgs,
  buildSynthArgs,
  generateBed,
  parseIntegratedLoudness,
  SOUNDFONT,
  type BedFiles,
  type BedResult,
} from './generate.ts';
import { bassNote, padVoicing, parseChord } from './theory.ts';
import { BED_SAMPLE_RATE, bedSections } from './timing.ts';

const recipe = (id: string): MusicBedRecipe => seedMusicRecipes().find((b) => b.id === id)!;

// ---- Reading decoded audio ----

/** Decodes what ffmpeg reads with `inputArgs` to 48 kHz stereo float samples, one array per channel. */
async function decode(dir: string, inputArgs: string[]): Promise<Float32Array[]> {
  const raw = join(dir, `decoded-${Math.random().toString(36).slice(2)}.f32`);
  await runFfmpeg(['-y', ...inputArgs, '-f', 'f32le', '-ac', '2', '-ar', String(BED_SAMPLE_RATE), raw]);
  const bytes = await readFile(raw);
  await rm(raw);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const left = new Float32Array(all.length / 2);
  const right = new Float32Array(all.length / 2);
  for (let i = 0; i < left.length; i++) {
    left[i] = all[2 * i]!;
    right[i] = all[2 * i + 1]!;
  }
  return [left, right];
}

/** The step from sample i − 1 to sample i (the larger of the channels'), for i ≥ 1. */
function step(channels: Float32Array[], i: number): number {
  return Math.max(...channels.map((c) => Math.abs(c[i]! - c[i - 1]!)));
}

/** The p-th percentile of the steps between neighbouring samples: what a normal step inside the bed is. */
function stepPercentile(channels: Float32Array[], p: number): number {
  const n = channels[0]!.length;
  const steps = new Float32Array(n - 1);
  for (let i = 1; i < n; i++) steps[i - 1] = step(channels, i);
  steps.sort();
  return steps[Math.floor((p / 100) * (steps.length - 1))]!;
}

/**
 * The averaged power spectrum (40 Hz–8 kHz) of 8 s of the mono mix from `fromSec`: its flatness (geometric
 * over arithmetic mean: 0 for pure tones, higher for many partials and noise) and how many peaks stand
 * within 30 dB of the strongest.
 */
function spectrum(channels: Float32Array[], fromSec: number): { flatness: number; peaks: number } {
  const size = 8192;
  const from = Math.round(fromSec * BED_SAMPLE_RATE);
  const to = Math.min(channels[0]!.length, from + 8 * BED_SAMPLE_RATE);
  const power = new Float64Array(size / 2);
  let frames = 0;
  for (let start = from; start + size <= to; start += size / 2, frames++) {
    const re = new Float64Array(size);
    const im = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
      re[i] = hann * 0.5 * (channels[0]![start + i]! + channels[1]![start + i]!);
    }
    fft(re, im);
    for (let k = 0; k < size / 2; k++) power[k] = power[k]! + re[k]! ** 2 + im[k]! ** 2;
  }
  assert.ok(frames > 0);
  const lo = Math.ceil((40 * size) / BED_SAMPLE_RATE);
  const hi = Math.floor((8000 * size) / BED_SAMPLE_RATE);
  const band = power.subarray(lo, hi + 1);
  let logSum = 0;
  let sum = 0;
  let max = 0;
  for (const p of band) {
    logSum += Math.log(p + 1e-30);
    sum += p;
    max = Math.max(max, p);
  }
  let peaks = 0;
  for (let k = 1; k < band.length - 1; k++)
    if (band[k]! > band[k - 1]! && band[k]! >= band[k + 1]! && band[k]! > max / 1000) peaks++;
  return { flatness: Math.exp(logSum / band.length) / (sum / band.length), peaks };
}

// ---- Pure builders ----

describe('parseIntegratedLoudness', () => {
  const cases: [string, number | undefined][] = [
    ['  Integrated loudness:\n    I:         -23.4 LUFS\n    Threshold: -33.7 LUFS', -23.4],
    ['t: 0.1 M: -120.7 S:-120.7 I: -70.0 LUFS\n...\nSummary:\n    I:         -18.0 LUFS', -18],
    ['    I:         -inf LUFS', -Infinity],
    ['no meter here', undefined],
  ];
  for (const [text, expected] of cases)
    test(JSON.stringify(expected), () => assert.equal(parseIntegratedLoudness(text), expected));
});

test('buildSynthArgs: fast render to a 48 kHz float WAV, chorus off, reverb room per bed', () => {
  assert.deepEqual(buildSynthArgs(0.4, '/w/bed.mid', '/w/render.wav'), [
    '-ni',
    '-q',
    '-C',
    '0',
    '-R',
    '1',
    '-o',
    'synth.reverb.room-size=0.4',
    '-F',
    '/w/render.wav',
    '-O',
    'float',
    '-T',
    'wav',
    '-r',
    '48000',
    '-g',
    '0.5',
    SOUNDFONT,
    '/w/bed.mid',
  ]);
});

test('buildCutArgs: the intro, the loop with its tail added onto its start, the outro from 50 ms before its downbeat', () => {
  const r = recipe('energetic-drive');
  const args = buildCutArgs(bedScore(r.id, r.bpm, r.arrangement), '/w/render.wav', {
    intro: '/w/i.wav',
    loop: '/w/l.wav',
    outro: '/w/o.wav',
  });
  // 2 s bars: intro bars 0–2, loop bars 5–13 (cut 1024 samples early), its tail 3 bars, outro from bar 17.
  assert.deepEqual(args[args.indexOf('-filter_complex') + 1]!.split(';'), [
    '[0:a]asplit=4[c0][c1][c2][c3]',
    '[c0]atrim=start_sample=0:end_sample=192000,asetpts=PTS-STARTPTS[intro]',
    '[c1]atrim=start_sample=478976:end_sample=1246976,asetpts=PTS-STARTPTS[body]',
    '[c2]atrim=start_sample=1246976:end_sample=1534976,asetpts=PTS-STARTPTS,apad=whole_len=768000[tail]',
    '[body][tail]amix=inputs=2:normalize=0:duration=first,asplit=2[w0][w1]',
    '[w0]atrim=start_sample=1024,asetpts=PTS-STARTPTS[late]',
    '[w1]atrim=end_sample=1024[early]',
    '[late][early]concat=n=2:v=0:a=1,asplit=2[loop][m]',
    '[m]ebur128[meter]',
    '[c3]atrim=start_sample=1629600:end_sample=2112000,asetpts=PTS-STARTPTS[outro]',
  ]);
  assert.deepEqual(args.slice(-4), ['[meter]', '-f', 'null', '-']);
});

test('buildEncodeArgs: the loop filtered three times over and its middle kept, ALAC out', () => {
  const r = recipe('energetic-drive');
  const sections = bedSections(bedScore(r.id, r.bpm, r.arrangement).timing);
  const wavs = { intro: '/w/i.wav', loop: '/w/l.wav', outro: '/w/o.wav' };
  const args = buildEncodeArgs(
    sections,
    wavs,
    { intro: '/o/i.m4a', loop: '/o/l.m4a', outro: '/o/o.m4a' },
    3.456,
  );
  const chain = 'highpass=f=30,volume=3.46dB,alimiter=limit=0.75:level=false:latency=1';
  assert.deepEqual(args[args.indexOf('-filter_complex') + 1]!.split(';'), [
    `[0:a]${chain}[intro]`,
    `[1:a]aloop=loop=2:size=768000,${chain},atrim=start_sample=768000:end_sample=1536000,asetpts=PTS-STARTPTS[loop]`,
    `[2:a]${chain}[outro]`,
  ]);
  assert.deepEqual(args.slice(-13), [
    '-map',
    '[outro]',
    '-c:a',
    'alac',
    '-sample_fmt',
    's16p',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '/o/o.m4a',
  ]);
});

// ---- Real beds ----

/** One bed per mood (the quickest to render of each). */
const MOOD_BEDS = [
  'calm-morning-light',
  'uplifting-bright-horizon',
  'energetic-drive',
  'corporate-steady-growth',
  'dark-night-shift',
  'dreamy-soft-focus',
];

interface Rendered {
  recipe: MusicBedRecipe;
  files: BedFiles;
  result: BedResult;
  renderMs: number;
  loop: Float32Array[];
  loudness: Record<keyof BedFiles, LoudnessStats>;
}

describe('real beds, one per mood', () => {
  let dir = '';
  const rendered = new Map<string, Rendered>();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'music-gen-'));
    for (const id of MOOD_BEDS) {
      const r = recipe(id);
      const files = {
        intro: join(dir, `${id}.intro.m4a`),
        loop: join(dir, `${id}.m4a`),
        outro: join(dir, `${id}.outro.m4a`),
      };
      const started = Date.now();
      const result = await generateBed(r, files);
      const renderMs = Date.now() - started;
      rendered.set(id, {
        recipe: r,
        files,
        result,
        renderMs,
        loop: await decode(dir, ['-i', files.loop]),
        loudness: {
          intro: await measureLoudness(files.intro),
          loop: await measureLoudness(files.loop),
          outro: await measureLoudness(files.outro),
        },
      });
    }
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const id of MOOD_BEDS) {
    describe(id, () => {
      test('three 48 kHz stereo ALAC files, nothing else left behind', async (t) => {
        const bed = rendered.get(id)!;
        for (const path of Object.values(bed.files)) {
          const info = await probeMedia(path);
          assert.deepEqual(info.audio, { sampleRate: 48000, channels: 2, codec: 'alac' });
          assert.equal(info.video, undefined);
        }
        assert.deepEqual(
          readdirSync(dir)
            .filter((f) => f.startsWith(`${id}.`))
            .sort(),
          [`${id}.intro.m4a`, `${id}.m4a`, `${id}.outro.m4a`],
        );
        const l = bed.loudness;
        t.diagnostic(
          `render ${(bed.renderMs / 1000).toFixed(1)} s; loop ${l.loop.integratedLufs} LUFS, ${l.loop.truePeakDb} dBTP; ` +
            `intro ${l.intro.integratedLufs} LUFS, ${l.intro.truePeakDb} dBTP; outro ${l.outro.integratedLufs} LUFS, ` +
            `${l.outro.truePeakDb} dBTP; source ${bed.result.sourceLufs} LUFS, gain ${bed.result.gainDb.toFixed(1)} dB`,
        );
      });

      test('loudness: the loop at −20 ± 1 LUFS, every file under −1 dBTP, intro and outro audible', () => {
        const l = rendered.get(id)!.loudness;
        assert.ok(
          Math.abs(l.loop.integratedLufs - BED_TARGET_LUFS) <= 1,
          `loop ${l.loop.integratedLufs} LUFS`,
        );
        for (const [name, stats] of Object.entries(l)) {
          assert.ok(stats.truePeakDb < -1, `${name} true peak ${stats.truePeakDb} dBTP`);
          assert.ok(stats.integratedLufs > -35, `${name} ${stats.integratedLufs} LUFS`);
        }
      });

      test('the loop lasts a whole number of beats (and bars) at the bed’s tempo', () => {
        const bed = rendered.get(id)!;
        const samples = bed.loop[0]!.length;
        assert.equal(samples, bed.result.sections.loopSamples);
        const sec = samples / BED_SAMPLE_RATE;
        const beatSec = 60 / bed.recipe.bpm;
        const beats = Math.round(sec / beatSec);
        assert.ok(Math.abs(sec - beats * beatSec) <= 0.001, `${sec} s is not ${beats} beats of ${beatSec} s`);
        assert.equal(beats % 4, 0);
      });

      test('no click at the loop seam, in the file and when a player loops it', async () => {
        const bed = rendered.get(id)!;
        const loop = bed.loop;
        const n = loop[0]!.length;
        const typical = stepPercentile(loop, 99);
        const seam = Math.max(...loop.map((c) => Math.abs(c[0]! - c[n - 1]!)));
        assert.ok(seam <= typical, `seam step ${seam} > 99th percentile ${typical}`);
        // As the composition reads it: ffmpeg -stream_loop.
        const looped = await decode(dir, ['-stream_loop', '1', '-i', bed.files.loop]);
        assert.equal(looped[0]!.length, 2 * n);
        assert.ok(step(looped, n) <= typical, `played round: step ${step(looped, n)} > ${typical}`);
      });

      test('real instruments: many partials, unlike a chord of sine tones', async () => {
        const bed = rendered.get(id)!;
        const { arrangement } = bed.recipe;
        // The old generator's kind of pad: the first chord as pure sine tones, with its bass.
        const chord = parseChord(arrangement.chords[0]!);
        const notes = [...padVoicing(chord, arrangement.pads[0]!.low), bassNote(chord, 36)];
        const expr = notes
          .map((m) => `0.15*sin(2*PI*${(440 * 2 ** ((m - 69) / 12)).toFixed(3)}*t)`)
          .join('+');
        const tones = await decode(dir, ['-f', 'lavfi', '-i', `aevalsrc=${expr}:s=48000:d=10`]);
        const sine = spectrum(tones, 1);
        const music = spectrum(bed.loop, 2);
        assert.ok(
          music.peaks >= 3 * sine.peaks && music.peaks >= 20,
          `${music.peaks} peaks (tones: ${sine.peaks})`,
        );
        assert.ok(
          music.flatness >= 100 * sine.flatness,
          `flatness ${music.flatness} (tones: ${sine.flatness})`,
        );
      });
    });
  }

  test('a 45 s bed built by the looping graph: exact length, no click at any seam', async () => {
    // 16 s loop: the bed holds the intro, two wraps of the loop and the outro.
    const bed = rendered.get('energetic-drive')!;
    const sections = bed.result.sections;
    const plan = planBed(sections, 45);
    assert.equal(plan.seams.length, 4);
    const graph = bedGraph(sections, plan, { intro: '0:a', loop: '1:a', outro: '2:a' }, 'bed');
    const fitted = await decode(dir, [...bedInputArgs(bed.files), '-filter_complex', graph, '-map', '[bed]']);
    assert.equal(fitted[0]!.length, 45 * BED_SAMPLE_RATE);

    // Each join (and its crossfade just before the downbeat, plus a millisecond either side) steps no more
    // than the bed's ordinary sample steps.
    const typical = stepPercentile(fitted, 99.9);
    const worstAround = (channels: Float32Array[], at: number) => {
      let worst = 0;
      for (let i = at - sections.joinSamples - 48; i < at + 48; i++)
        worst = Math.max(worst, step(channels, i));
      return worst;
    };
    for (const seam of plan.seams) {
      const worst = worstAround(fitted, seam);
      assert.ok(
        worst <= typical,
        `at ${seam / BED_SAMPLE_RATE} s: step ${worst} > 99.9th percentile ${typical}`,
      );
    }
    // The measure does see a click: the same bed with a jump of a quarter of full scale at the first seam.
    const clicked = fitted.map((c) => c.map((v, i) => (i >= plan.seams[0]! ? v + 0.25 : v)));
    assert.ok(worstAround(clicked, plan.seams[0]!) > typical);
  });
});

test('an aborted render leaves no file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'music-abort-'));
  try {
    const controller = new AbortController();
    const files = {
      intro: join(dir, 'a.intro.m4a'),
      loop: join(dir, 'a.m4a'),
      outro: join(dir, 'a.outro.m4a'),
    };
    const pending = generateBed(recipe('calm-still-water'), files, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(pending, { name: 'AbortError' });
    assert.ok(!existsSync(files.loop));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
