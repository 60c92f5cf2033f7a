// Seeds a music directory with the beds: renders whatever is missing or broken, keeps what is already there,
// and describes every bed for the library.

import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { probeMedia } from '../ffmpeg/probe.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';
import type { Mood } from './arrangement.ts';
import { seedMusicRecipes, type MusicBedRecipe } from './beds.ts';
import { generateBed, type BedFiles } from './generate.ts';
import { BED_SAMPLE_RATE, bedSections, bedTiming, type BedSections } from './timing.ts';

/**
 * Raised whenever the generator makes different audio from the same recipe. With the recipe it names the
 * files, so beds of an older generator (or an edited recipe) are never taken for current ones.
 */
const GENERATOR_VERSION = 'fluidsynth-gm-2';

export interface SeededBed {
  id: string;
  /** The loop: starts on its first downbeat and joins itself seamlessly when played round and round. */
  path: string;
  /** What leads into the loop's first downbeat. */
  introPath: string;
  /** What follows a bar line of the loop to end the music. */
  outroPath: string;
  sections: BedSections;
  title: string;
  mood: Mood;
  bpm: number;
  folders: string[];
  /** The loop's length. */
  durationSec: number;
  /** Of the three files together. */
  sizeBytes: number;
}

export interface MusicSeedProgress {
  id: string;
  index: number;
  total: number;
  status: 'generated' | 'existing';
  elapsedMs: number;
}

export interface MusicSeedOptions {
  signal?: AbortSignal;
  onProgress?: (progress: MusicSeedProgress) => void;
  /** The beds to seed; the full catalogue by default. */
  recipes?: MusicBedRecipe[];
  /** Of every fluidsynth, ffmpeg and ffprobe run ('background' for work nobody waits for). */
  priority?: ProcessPriority;
}

/** The three files of a bed in `dir`, named by its id and a hash of the recipe and the generator. */
export function bedFiles(dir: string, recipe: MusicBedRecipe): BedFiles {
  const hash = createHash('sha256')
    .update(JSON.stringify([GENERATOR_VERSION, recipe.bpm, recipe.arrangement]))
    .digest('hex')
    .slice(0, 10);
  const stem = join(dir, `${recipe.id}.${hash}`);
  return { intro: `${stem}.intro.m4a`, loop: `${stem}.m4a`, outro: `${stem}.outro.m4a` };
}

/** Whether each file is 48 kHz stereo ALAC of its section's exact length. */
async function complete(files: BedFiles, sections: BedSections, { signal, priority }: MusicSeedOptions) {
  const expected: [string, number][] = [
    [files.intro, sections.introSamples],
    [files.loop, sections.loopSamples],
    [files.outro, sections.outroSamples],
  ];
  try {
    for (const [path, samples] of expected) {
      const info = await probeMedia(path, { signal, priority });
      const a = info.audio;
      const whole =
        a?.codec === 'alac' &&
        a.sampleRate === BED_SAMPLE_RATE &&
        a.channels === 2 &&
        Math.abs(info.durationSec - samples / BED_SAMPLE_RATE) < 0.01;
      if (!whole) return false;
    }
    return true;
  } catch (err) {
    if (signal?.aborted) throw err;
    return false;
  }
}

/**
 * Renders every bed whose files in `dir` are missing or incomplete, one at a time, and returns all beds in
 * catalogue order. Safe to re-run and to interrupt.
 */
export async function seedMusicLibrary(dir: string, options: MusicSeedOptions = {}): Promise<SeededBed[]> {
  const recipes = options.recipes ?? seedMusicRecipes();
  await mkdir(dir, { recursive: true });
  const beds: SeededBed[] = [];
  for (const [i, recipe] of recipes.entries()) {
    options.signal?.throwIfAborted();
    const started = Date.now();
    const files = bedFiles(dir, recipe);
    const { chords, barsPerChord } = recipe.arrangement;
    const sections = bedSections(bedTiming({ bpm: recipe.bpm, chordCount: chords.length, barsPerChord }));
    let status: MusicSeedProgress['status'] = 'existing';
    if (!(await complete(files, sections, options))) {
      await generateBed(recipe, files, { signal: options.signal, priority: options.priority });
      status = 'generated';
      if (!(await complete(files, sections, options)))
        throw new Error(`generated bed ${recipe.id} does not match its recipe`);
    }
    const sizes = await Promise.all([files.intro, files.loop, files.outro].map((p) => stat(p)));
    beds.push({
      id: recipe.id,
      path: files.loop,
      introPath: files.intro,
      outroPath: files.outro,
      sections,
      title: recipe.title,
      mood: recipe.mood,
      bpm: recipe.bpm,
      folders: [...recipe.folders],
      durationSec: sections.loopSamples / BED_SAMPLE_RATE,
      sizeBytes: sizes.reduce((sum, s) => sum + s.size, 0),
    });
    options.onProgress?.({
      id: recipe.id,
      index: i + 1,
      total: recipes.length,
      status,
      elapsedMs: Date.now() - started,
    });
  }
  return beds;
}
