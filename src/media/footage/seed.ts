// Seeds a footage directory with the procedural clips: generates whatever is missing or broken, keeps
// what is already there, and describes every clip for the library.

import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Niche } from './niches.ts';
import {
  CLIP_FPS,
  CLIP_HEIGHT,
  CLIP_WIDTH,
  generateClip,
  seedFootageRecipes,
  type FootageFamily,
  type FootageRecipe,
} from './procedural.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';

export interface SeededClip {
  id: string;
  path: string;
  title: string;
  tags: string[];
  niches: Niche[];
  family: FootageFamily;
  palette: string;
  source: 'generated';
  durationSec: number;
  sizeBytes: number;
}

export interface SeedProgress {
  id: string;
  /** 1-based position in the recipe list. */
  index: number;
  total: number;
  status: 'generated' | 'existing';
  /** Time spent on this clip, including the probe. */
  elapsedMs: number;
}

export interface SeedOptions {
  signal?: AbortSignal;
  onProgress?: (progress: SeedProgress) => void;
  /** The recipes to seed; the full catalogue by default. */
  recipes?: FootageRecipe[];
  /** Of every ffmpeg and ffprobe run ('background' for work nobody waits for). */
  priority?: ProcessPriority;
}

/** Probes a clip and returns its duration if it is a complete rendering of the recipe. */
async function completeClipDuration(
  path: string,
  recipe: FootageRecipe,
  { signal, priority }: SeedOptions,
): Promise<number | undefined> {
  try {
    const info = await probeMedia(path, { signal, priority });
    const v = info.video;
    const whole =
      v && v.width === CLIP_WIDTH && v.height === CLIP_HEIGHT && Math.abs(v.fps - CLIP_FPS) < 0.01;
    return whole && Math.abs(info.durationSec - recipe.durationSec) < 0.1 ? info.durationSec : undefined;
  } catch (err) {
    if (signal?.aborted) throw err;
    return undefined;
  }
}

/**
 * Generates every recipe whose clip is missing or incomplete in `dir` (as `<id>.mp4`), one at a time,
 * and returns all clips in recipe order. Safe to re-run and to interrupt: a clip only appears once it is
 * complete, and complete clips are kept.
 */
export async function seedLibrary(dir: string, options: SeedOptions = {}): Promise<SeededClip[]> {
  const recipes = options.recipes ?? seedFootageRecipes();
  await mkdir(dir, { recursive: true });
  const clips: SeededClip[] = [];
  for (const [i, recipe] of recipes.entries()) {
    try {
      clips.push(await seedOne(dir, recipe, i, recipes.length, options));
    } catch (err) {
      // Whichever ffmpeg or ffprobe call the abort interrupted, the caller sees the abort itself.
      options.signal?.throwIfAborted();
      throw err;
    }
  }
  return clips;
}

async function seedOne(
  dir: string,
  recipe: FootageRecipe,
  i: number,
  total: number,
  options: SeedOptions,
): Promise<SeededClip> {
  options.signal?.throwIfAborted();
  const started = Date.now();
  const path = join(dir, `${recipe.id}.mp4`);
  let status: SeedProgress['status'] = 'existing';
  let durationSec = await completeClipDuration(path, recipe, options);
  if (durationSec === undefined) {
    await generateClip(recipe, path, { signal: options.signal, priority: options.priority });
    status = 'generated';
    durationSec = await completeClipDuration(path, recipe, options);
    if (durationSec === undefined) throw new Error(`generated clip ${recipe.id} does not match its recipe`);
  }
  const clip: SeededClip = {
    id: recipe.id,
    path,
    title: recipe.title,
    tags: [...recipe.tags],
    niches: [...recipe.niches],
    family: recipe.family,
    palette: recipe.palette,
    source: 'generated',
    durationSec,
    sizeBytes: (await stat(path)).size,
  };
  options.onProgress?.({ id: recipe.id, index: i + 1, total, status, elapsedMs: Date.now() - started });
  return clip;
}
