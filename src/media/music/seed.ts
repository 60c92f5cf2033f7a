// Seeds a music directory with the generated beds: renders whatever is missing or broken, keeps what is
// already there, and describes every bed for the library.

import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { probeMedia } from '../ffmpeg/probe.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';
import { BED_SAMPLE_RATE, bedTiming, type Mood } from './bed-graph.ts';
import { seedMusicRecipes, type MusicBedRecipe } from './beds.ts';
import { generateBed } from './generate.ts';

export interface SeededBed {
  id: string;
  path: string;
  title: string;
  mood: Mood;
  bpm: number;
  folders: string[];
  durationSec: number;
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
  /** Of every ffmpeg and ffprobe run ('background' for work nobody waits for). */
  priority?: ProcessPriority;
}

async function completeBedDuration(
  path: string,
  recipe: MusicBedRecipe,
  { signal, priority }: MusicSeedOptions,
): Promise<number | undefined> {
  try {
    const info = await probeMedia(path, { signal, priority });
    const a = info.audio;
    const expected = bedTiming(recipe.bpm, recipe.arrangement).durationSec;
    // AAC frames pad the end slightly, so allow a fraction of a second.
    const whole =
      a &&
      a.sampleRate === BED_SAMPLE_RATE &&
      a.channels === 2 &&
      Math.abs(info.durationSec - expected) < 0.2;
    return whole ? info.durationSec : undefined;
  } catch (err) {
    if (signal?.aborted) throw err;
    return undefined;
  }
}

/**
 * Renders every bed whose `<id>.m4a` in `dir` is missing or incomplete, one at a time, and returns all
 * beds in catalogue order. Safe to re-run and to interrupt.
 */
export async function seedMusicLibrary(dir: string, options: MusicSeedOptions = {}): Promise<SeededBed[]> {
  const recipes = options.recipes ?? seedMusicRecipes();
  await mkdir(dir, { recursive: true });
  const beds: SeededBed[] = [];
  for (const [i, recipe] of recipes.entries()) {
    options.signal?.throwIfAborted();
    const started = Date.now();
    const path = join(dir, `${recipe.id}.m4a`);
    let status: MusicSeedProgress['status'] = 'existing';
    let durationSec = await completeBedDuration(path, recipe, options);
    if (durationSec === undefined) {
      await generateBed(recipe, path, { signal: options.signal, priority: options.priority });
      status = 'generated';
      durationSec = await completeBedDuration(path, recipe, options);
      if (durationSec === undefined) throw new Error(`generated bed ${recipe.id} does not match its recipe`);
    }
    beds.push({
      id: recipe.id,
      path,
      title: recipe.title,
      mood: recipe.mood,
      bpm: recipe.bpm,
      folders: [...recipe.folders],
      durationSec,
      sizeBytes: (await stat(path)).size,
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
