import { randomUUID } from 'node:crypto';
// Renders a music bed: synthesize to a float WAV while measuring its loudness, then bring it to the
// target loudness under a peak limiter and encode it as 48 kHz stereo AAC (.m4a).

import { rename, rm } from 'node:fs/promises';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';
import { BED_SAMPLE_RATE, bedGraph, bedTiming } from './bed-graph.ts';
import type { MusicBedRecipe } from './beds.ts';

/** Integrated loudness the beds are delivered at: a bed sits under narration. */
export const BED_TARGET_LUFS = -20;

export interface BedResult {
  durationSec: number;
  /** Integrated loudness of the raw synthesis, before the gain that brings it to the target. */
  sourceLufs: number;
  gainDb: number;
}

export class SilentBedError extends Error {
  constructor(id: string) {
    super(`music bed ${id} synthesized to silence`);
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

/** ffmpeg arguments of the synthesis pass: the bed to `wavPath`, the meter to nowhere. */
export function buildSynthArgs(recipe: MusicBedRecipe, wavPath: string, lengthSec?: number): string[] {
  const timing = bedTiming(recipe.bpm, recipe.arrangement);
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-y',
    '-filter_complex',
    bedGraph(recipe.arrangement, timing, lengthSec ?? timing.durationSec),
    '-map',
    '[bed]',
    '-c:a',
    'pcm_f32le',
    wavPath,
    '-map',
    '[meter]',
    '-f',
    'null',
    '-',
  ];
}

/** ffmpeg arguments of the delivery pass: gain, a −1 dBFS limiter, AAC at 48 kHz stereo. */
export function buildEncodeArgs(wavPath: string, outPath: string, gainDb: number): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-i',
    wavPath,
    '-af',
    `volume=${gainDb.toFixed(2)}dB,alimiter=limit=0.891:level=false`,
    '-c:a',
    'aac',
    '-b:a',
    '160k',
    '-ar',
    String(BED_SAMPLE_RATE),
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    outPath,
  ];
}

/**
 * Generates a bed to `outPath` (.m4a). `lengthSec` renders only the opening seconds (for previews and
 * tests). The file appears only when complete.
 */
export async function generateBed(
  recipe: MusicBedRecipe,
  outPath: string,
  options: { signal?: AbortSignal; lengthSec?: number; priority?: ProcessPriority } = {},
): Promise<BedResult> {
  // Unique per call: two processes making the same bed must not share (and delete) one partial file.
  const unique = `${process.pid}-${randomUUID()}`;
  const wav = `${outPath}.${unique}.part.wav`;
  const partial = `${outPath}.${unique}.part.m4a`;
  const run = (args: string[]) =>
    runFfmpeg(args, { signal: options.signal, priority: options.priority }).catch((error: unknown) => {
      // An abort surfaces as the caller's own abort reason, not as an ffmpeg failure.
      options.signal?.throwIfAborted();
      throw error;
    });
  try {
    const synth = await run(buildSynthArgs(recipe, wav, options.lengthSec));
    const sourceLufs = parseIntegratedLoudness(synth.stderrTail);
    if (sourceLufs === undefined) throw new Error(`no loudness measurement for music bed ${recipe.id}`);
    if (!Number.isFinite(sourceLufs) || sourceLufs < -70) throw new SilentBedError(recipe.id);
    const gainDb = BED_TARGET_LUFS - sourceLufs;
    await run(buildEncodeArgs(wav, partial, gainDb));
    await rename(partial, outPath);
    const timing = bedTiming(recipe.bpm, recipe.arrangement);
    return { durationSec: options.lengthSec ?? timing.durationSec, sourceLufs, gainDb };
  } finally {
    await rm(wav, { force: true });
    await rm(partial, { force: true });
  }
}
