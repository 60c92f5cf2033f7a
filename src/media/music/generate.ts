// Renders a music bed from its arrangement: the notes to a MIDI file, FluidSynth plays them through the
// General MIDI soundfont to a float WAV, and ffmpeg cuts that into the intro, the seamless loop and the
// outro, brings them to the target loudness under a limiter and stores them as 48 kHz stereo ALAC (.m4a).
// Lossless on purpose: AAC's first frame decodes only approximately, and a player that loops an AAC file
// (ffmpeg -stream_loop) restarts its decoder there, which clicks at every seam; ALAC decodes to the exact
// samples, so the loop joins itself exactly.

import { randomUUID } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';
import { runProcess } from '../process/run-process.ts';
import { bedScore, type BedScore } from './arrangement.ts';
import type { MusicBedRecipe } from './beds.ts';
import { writeMidiFile } from './midi-file.ts';
import { BED_SAMPLE_RATE, bedSections, type BedSections } from './timing.ts';

/** The General MIDI soundfont of Debian's fluid-soundfont-gm (FluidR3_GM, MIT licence). */
export const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';

/** Integrated loudness the loops are delivered at: a bed sits under narration. */
export const BED_TARGET_LUFS = -20;

/** FluidSynth's master gain. It renders to float, so nothing clips; the loudness pass sets the level. */
const SYNTH_GAIN = 0.5;

/**
 * The loop is cut this many samples before its downbeat and turned round afterwards: FluidSynth dispatches
 * notes per 64-sample block with their ticks rounded, so a note on the downbeat may start a little early.
 */
const PRE_ROLL_SAMPLES = 1024;

/** Sample peak of the limiter (−2.5 dBFS): room for inter-sample peaks under −1 dBTP. */
const LIMIT = 0.75;

export interface BedFiles {
  intro: string;
  loop: string;
  outro: string;
}

export interface BedResult {
  sections: BedSections;
  /** Integrated loudness of the rendered loop, before the gain that brings it to the target. */
  sourceLufs: number;
  gainDb: number;
}

export class SilentBedError extends Error {
  constructor(id: string) {
    super(`music bed ${id} rendered to silence`);
    this.name = 'SilentBedError';
  }
}

/** Reads the integrated loudness from ebur128's summary on ffmpeg's stderr. */
export function parseIntegratedLoudness(stderr: string): number | undefined {
  const matches = [...stderr.matchAll(/I:\s+(-?[0-9.]+|-inf) LUFS/g)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return undefined;
  return last === '-inf' ? -Infinity : Number(last);
}

/** FluidSynth arguments: no shell, no MIDI input, fast render of `midi` to a 48 kHz float WAV. */
export function buildSynthArgs(room: number, midi: string, wav: string): string[] {
  return [
    '-ni',
    '-q',
    // The chorus modulates with a free-running oscillator, which would not repeat with the loop.
    '-C',
    '0',
    '-R',
    '1',
    '-o',
    `synth.reverb.room-size=${room}`,
    '-F',
    wav,
    '-O',
    'float',
    '-T',
    'wav',
    '-r',
    String(BED_SAMPLE_RATE),
    '-g',
    String(SYNTH_GAIN),
    SOUNDFONT,
    midi,
  ];
}

/**
 * ffmpeg arguments that cut the render into the three sections (float WAVs) and meter the loop. The loop
 * is its pass with the pass's own tail (release and reverb, rendered into the silence after it) added onto
 * its start, which is what the start sounds like when the loop follows itself: the seam is seamless by
 * construction. It is cut from just before its downbeat and turned round so that it starts on it.
 */
export function buildCutArgs(score: BedScore, render: string, out: BedFiles): string[] {
  const { timing, layout } = score;
  const bar = timing.barSamples;
  const sections = bedSections(timing);
  const introStart = layout.intro * bar;
  const loopFrom = layout.loop * bar - PRE_ROLL_SAMPLES;
  const loopTo = loopFrom + timing.loopSamples;
  const tailTo = loopTo + timing.tailBars * bar;
  const outroFrom = layout.outro * bar - sections.joinSamples;
  const trim = (from: number, to: number) =>
    `atrim=start_sample=${from}:end_sample=${to},asetpts=PTS-STARTPTS`;
  const graph = [
    '[0:a]asplit=4[c0][c1][c2][c3]',
    `[c0]${trim(introStart, introStart + sections.introSamples)}[intro]`,
    `[c1]${trim(loopFrom, loopTo)}[body]`,
    `[c2]${trim(loopTo, tailTo)},apad=whole_len=${timing.loopSamples}[tail]`,
    '[body][tail]amix=inputs=2:normalize=0:duration=first,asplit=2[w0][w1]',
    `[w0]atrim=start_sample=${PRE_ROLL_SAMPLES},asetpts=PTS-STARTPTS[late]`,
    `[w1]atrim=end_sample=${PRE_ROLL_SAMPLES}[early]`,
    '[late][early]concat=n=2:v=0:a=1,asplit=2[loop][m]',
    '[m]ebur128[meter]',
    `[c3]${trim(outroFrom, layout.end * bar)}[outro]`,
  ].join(';');
  const wav = (label: string, path: string) => ['-map', `[${label}]`, '-c:a', 'pcm_f32le', path];
  return [
    '-y',
    '-i',
    render,
    '-filter_complex',
    graph,
    ...wav('intro', out.intro),
    ...wav('loop', out.loop),
    ...wav('outro', out.outro),
    '-map',
    '[meter]',
    '-f',
    'null',
    '-',
  ];
}

/**
 * ffmpeg arguments of the delivery pass: gain, a 30 Hz high-pass, a limiter and ALAC for each section. The
 * loop goes through them three times over and its middle copy is kept, so the filters' state where it ends
 * is the state where it starts and the seam stays seamless.
 */
export function buildEncodeArgs(
  sections: BedSections,
  wavs: BedFiles,
  out: BedFiles,
  gainDb: number,
): string[] {
  const chain = `highpass=f=30,volume=${gainDb.toFixed(2)}dB,alimiter=limit=${LIMIT}:level=false:latency=1`;
  const l = sections.loopSamples;
  const graph = [
    `[0:a]${chain}[intro]`,
    `[1:a]aloop=loop=2:size=${l},${chain},atrim=start_sample=${l}:end_sample=${2 * l},asetpts=PTS-STARTPTS[loop]`,
    `[2:a]${chain}[outro]`,
  ].join(';');
  const alac = (label: string, path: string) => [
    '-map',
    `[${label}]`,
    '-c:a',
    'alac',
    '-sample_fmt',
    's16p',
    '-ar',
    String(BED_SAMPLE_RATE),
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    path,
  ];
  return [
    '-y',
    '-i',
    wavs.intro,
    '-i',
    wavs.loop,
    '-i',
    wavs.outro,
    '-filter_complex',
    graph,
    ...alac('intro', out.intro),
    ...alac('loop', out.loop),
    ...alac('outro', out.outro),
  ];
}

/**
 * Renders a bed's three files. They appear only when complete, the loop last, so a complete loop means a
 * complete bed.
 */
export async function generateBed(
  recipe: MusicBedRecipe,
  out: BedFiles,
  options: { signal?: AbortSignal; priority?: ProcessPriority } = {},
): Promise<BedResult> {
  const score = bedScore(recipe.id, recipe.bpm, recipe.arrangement);
  const sections = bedSections(score.timing);
  const run = { signal: options.signal, priority: options.priority };
  // An abort surfaces as the caller's own abort reason, not as a tool failure.
  const settle = (error: unknown): never => {
    options.signal?.throwIfAborted();
    throw error;
  };
  const work = await mkdtemp(join(tmpdir(), 'reelsmith-bed-'));
  // Unique per call: two processes making the same bed must not share (and delete) one partial file.
  const unique = `${process.pid}-${randomUUID()}`;
  const partial: BedFiles = {
    intro: `${out.intro}.${unique}.part.m4a`,
    loop: `${out.loop}.${unique}.part.m4a`,
    outro: `${out.outro}.${unique}.part.m4a`,
  };
  const wavs: BedFiles = {
    intro: join(work, 'intro.wav'),
    loop: join(work, 'loop.wav'),
    outro: join(work, 'outro.wav'),
  };
  try {
    const midi = join(work, 'bed.mid');
    const render = join(work, 'render.wav');
    await writeFile(midi, writeMidiFile(score.song));
    await runProcess('fluidsynth', buildSynthArgs(recipe.arrangement.room, midi, render), run).catch(settle);
    const cut = await runFfmpeg(buildCutArgs(score, render, wavs), run).catch(settle);
    const sourceLufs = parseIntegratedLoudness(cut.stderrTail);
    if (sourceLufs === undefined) throw new Error(`no loudness measurement for music bed ${recipe.id}`);
    if (!Number.isFinite(sourceLufs) || sourceLufs < -70) throw new SilentBedError(recipe.id);
    const gainDb = BED_TARGET_LUFS - sourceLufs;
    await runFfmpeg(buildEncodeArgs(sections, wavs, partial, gainDb), run).catch(settle);
    await rename(partial.intro, out.intro);
    await rename(partial.outro, out.outro);
    await rename(partial.loop, out.loop);
    return { sections, sourceLufs, gainDb };
  } finally {
    await rm(work, { recursive: true, force: true });
    await Promise.all(Object.values(partial).map((p: string) => rm(p, { force: true })));
  }
}
