// End to end: a library bed rendered by FluidSynth, a real composition with it, and checks on the decoded
// output audio: it opens with the bed's intro, loops, ends with its outro faded out, no click at any seam.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureLoudness } from '../ffmpeg/measure.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { planBed } from '../music/bed-graph.ts';
import { seedMusicRecipes } from '../music/beds.ts';
import { seedMusicLibrary, type SeededBed } from '../music/seed.ts';
import { BED_SAMPLE_RATE as RATE } from '../music/timing.ts';
import { renderComposition } from './render-composition.ts';

// 120 bpm, 2 s bars: a 4 s intro, a 16 s loop and a 4 s outro body. A 30 s video plays the intro, the loop
// from 4 s (wrapping round at 20 s) and the outro from 24 s: seams at 4, 20 and 24 s.
const BED_ID = 'energetic-drive';
const VIDEO_SEC = 30;

let dir = '';
let bed: SeededBed;
/** The output's samples, stereo and mono (the channels' mean); the bed's three files in mono. */
let out: { mono: Float32Array; stereo: Float32Array[] };
let intro: Float32Array;
let loop: Float32Array;
let outro: Float32Array;
/** The output's delay against the bed (0 when the encoder's priming is trimmed exactly), in samples. */
let lag = 0;

/** The 48 kHz stereo float samples of `input`, one array per channel. */
async function decode(input: string): Promise<Float32Array[]> {
  const raw = join(dir, 'decoded.f32');
  await runFfmpeg(['-y', '-i', input, '-vn', '-f', 'f32le', '-ac', '2', '-ar', String(RATE), raw]);
  const bytes = await readFile(raw);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const channels = [new Float32Array(all.length / 2), new Float32Array(all.length / 2)];
  for (let i = 0; i < all.length / 2; i++) {
    channels[0]![i] = all[2 * i]!;
    channels[1]![i] = all[2 * i + 1]!;
  }
  return channels;
}

function mono([left, right]: Float32Array[]): Float32Array {
  return left!.map((v, i) => (v + right![i]!) / 2);
}

const at = (sec: number) => Math.round(sec * RATE);

/** Normalised correlation of `a` from `fromA` with `b` from `fromB` over `sec` seconds. */
function correlation(a: Float32Array, fromA: number, b: Float32Array, fromB: number, sec: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < at(sec); i++) {
    const x = a[fromA + i]!;
    const y = b[fromB + i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb);
}

function rms(samples: Float32Array, fromSec: number, toSec: number): number {
  let sum = 0;
  for (let i = at(fromSec); i < at(toSec); i++) sum += samples[i]! ** 2;
  return Math.sqrt(sum / (at(toSec) - at(fromSec)));
}

const db = (ratio: number) => 20 * Math.log10(ratio);

/** The step from sample i − 1 to sample i (the larger of the channels'). */
function step(channels: Float32Array[], i: number): number {
  return Math.max(...channels.map((c) => Math.abs(c[i]! - c[i - 1]!)));
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'music-bed-render-'));
  // The test library's beds are kept between runs (seeding renders only what is missing).
  const library = process.env.TEST_LIBRARY_DIR
    ? join(process.env.TEST_LIBRARY_DIR, 'music')
    : join(dir, 'music');
  const recipe = seedMusicRecipes().find((r) => r.id === BED_ID)!;
  bed = (await seedMusicLibrary(library, { recipes: [recipe] }))[0]!;
  await runFfmpeg([
    ...['-y', '-f', 'lavfi', '-i', 'color=c=0x204060:s=270x480', '-frames:v', '1'],
    join(dir, 'still.png'),
  ]);
  const output = join(dir, 'out.mp4');
  await renderComposition({
    outputPath: output,
    width: 270,
    height: 480,
    durationSec: VIDEO_SEC,
    scenes: [{ path: join(dir, 'still.png'), inPoint: 0, duration: VIDEO_SEC }],
    music: {
      path: bed.path,
      bed: { introPath: bed.introPath, outroPath: bed.outroPath, sections: bed.sections },
      volume: 0.3,
    },
    encoding: { preset: 'ultrafast' },
  });
  const stereo = await decode(output);
  out = { stereo, mono: mono(stereo) };
  intro = mono(await decode(bed.introPath));
  loop = mono(await decode(bed.path));
  outro = mono(await decode(bed.outroPath));
  // The lag at which the output best matches the intro, within ±25 ms.
  let best = -Infinity;
  for (let l = -1200; l <= 1200; l++) {
    const c = correlation(out.mono, at(1) + l, intro, at(1), 1);
    if (c > best) [best, lag] = [c, l];
  }
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the output lasts the video exactly and sits at −14 LUFS', async () => {
  assert.ok(
    Math.abs(out.mono.length - VIDEO_SEC * RATE) <= 1024,
    `${out.mono.length} samples for ${VIDEO_SEC * RATE}`,
  );
  assert.equal(lag, 0, 'the output is sample-aligned with the bed');
  const loudness = await measureLoudness(join(dir, 'out.mp4'));
  assert.ok(Math.abs(loudness.integratedLufs - -14) <= 1, `integrated ${loudness.integratedLufs} LUFS`);
  assert.ok(loudness.truePeakDb <= -1, `true peak ${loudness.truePeakDb} dBTP`);
});

test('the first seconds are the intro, not the loop', () => {
  const withIntro = correlation(out.mono, at(0.2) + lag, intro, at(0.2), 3.6);
  const withLoop = correlation(out.mono, at(0.2) + lag, loop, at(0.2), 3.6);
  assert.ok(withIntro >= 0.95, `correlation with the intro ${withIntro}`);
  assert.ok(withLoop <= 0.5, `correlation with the loop ${withLoop}`);
  // The intro swells in: its first second is well under the loop that follows it.
  assert.ok(db(rms(out.mono, 0, 1) / rms(out.mono, 4, 8)) <= -6, 'the intro swells in');
});

test('the loop follows the intro on its downbeat and wraps round', () => {
  const plan = planBed(bed.sections, VIDEO_SEC);
  assert.deepEqual(
    plan.seams.map((s) => s / RATE),
    [4, 20, 24],
  );
  for (const from of [4, 20]) {
    const c = correlation(out.mono, at(from + 0.1) + lag, loop, at(0.1), 3.8);
    assert.ok(c >= 0.95, `at ${from} s: correlation with the loop's start ${c}`);
  }
});

test('the last seconds are the outro, faded out to silence', () => {
  const join = bed.sections.joinSamples;
  const c = correlation(out.mono, at(24.1) + lag, outro, join + at(0.1), 4.8);
  assert.ok(c >= 0.95, `correlation with the outro ${c}`);
  const body = rms(out.mono, 24, 28);
  const ring = rms(out.mono, 28.2, 28.8);
  const faded = rms(out.mono, VIDEO_SEC - 0.05, VIDEO_SEC - 0.001);
  assert.ok(db(ring / body) > -30, `the ring-out plays: ${db(ring / body)} dB`);
  assert.ok(rms(out.mono, 29, 29.5) > rms(out.mono, 29.5, 30), 'the last second fades');
  assert.ok(db(faded / body) <= -30, `the last 50 ms at ${db(faded / body)} dB`);
});

test('no click at any seam', () => {
  const { stereo } = out;
  const steps = new Float32Array(stereo[0]!.length - 1);
  for (let i = 1; i < stereo[0]!.length; i++) steps[i - 1] = step(stereo, i);
  const typical = steps.sort()[Math.floor(0.999 * (steps.length - 1))]!;
  // Around each join: its 50 ms crossfade before the downbeat, and a millisecond either side.
  const worstAround = (channels: Float32Array[], seam: number) => {
    let worst = 0;
    for (let i = seam + lag - bed.sections.joinSamples - 48; i < seam + lag + 48; i++)
      worst = Math.max(worst, step(channels, i));
    return worst;
  };
  const seams = planBed(bed.sections, VIDEO_SEC).seams;
  for (const seam of seams) {
    const worst = worstAround(stereo, seam);
    assert.ok(worst <= typical, `at ${seam / RATE} s: step ${worst} > 99.9th percentile ${typical}`);
  }
  // The measure does see a click: a jump of a quarter of full scale at the first seam.
  const clicked = stereo.map((c) => c.map((v, i) => (i >= seams[0]! + lag ? v + 0.25 : v)));
  assert.ok(worstAround(clicked, seams[0]!) > typical);
});
