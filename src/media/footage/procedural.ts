import { randomUUID } from 'node:crypto';
// Procedurally generated background footage: recipe metadata, the ffmpeg command that renders a
// recipe as a seamless 1080×1920 30 fps H.264 loop, and the call that runs it.

import { rename, rm } from 'node:fs/promises';
import { familyGraph, type FootageFamily, type FootageLook } from './family-graphs.ts';
import type { Niche } from './niches.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';

export type { FootageFamily, FootageLook, GeometricPattern } from './family-graphs.ts';
export { seedFootageRecipes } from './footage-recipes.ts';

export const CLIP_WIDTH = 1080;
export const CLIP_HEIGHT = 1920;
export const CLIP_FPS = 30;

export interface FootageRecipe {
  id: string;
  family: FootageFamily;
  palette: string;
  title: string;
  /** Descriptive words: colours, motion, mood. */
  tags: string[];
  /** Only the niches the visual genuinely fits. */
  niches: Niche[];
  durationSec: number;
  /** x264 constant rate factor: grain needs more compression than smooth fields to stay a few MB. */
  crf: number;
  look: FootageLook;
  /** The licence the clip is given (provenance manifests carry it). */
  licence: string;
}

export interface ClipOptions {
  /** Render a shorter (or longer) loop than the recipe's own length, e.g. for tests and previews. */
  durationSec?: number;
}

/** The complete filter graph for a recipe: the family's drawing, upscaled and converted for H.264. */
export function buildClipGraph(recipe: FootageRecipe, options: ClipOptions = {}): string {
  const durationSec = options.durationSec ?? recipe.durationSec;
  const drawing = familyGraph(recipe.look, { durationSec, fps: CLIP_FPS });
  // Converting to 4:2:0 before the upscale keeps the expensive full-size work to one plane-wise scale.
  return (
    `${drawing};[base]scale=out_color_matrix=bt709:out_range=tv,format=yuv420p,` +
    `scale=${CLIP_WIDTH}:${CLIP_HEIGHT}:flags=bicubic,setsar=1[out]`
  );
}

/** ffmpeg arguments that render a recipe to `outPath` (an .mp4). */
export function buildClipArgs(recipe: FootageRecipe, outPath: string, options: ClipOptions = {}): string[] {
  const durationSec = options.durationSec ?? recipe.durationSec;
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-filter_complex',
    buildClipGraph(recipe, options),
    '-map',
    '[out]',
    '-frames:v',
    String(Math.round(durationSec * CLIP_FPS)),
    '-r',
    String(CLIP_FPS),
    // A keyframe every second: a compose that starts a scene part-way into a clip seeks to the keyframe before
    // its in-point and decodes from there, so one keyframe per clip had it decode and drop up to a whole clip.
    '-g',
    String(CLIP_FPS),
    '-c:v',
    'libx264',
    '-preset',
    'superfast',
    '-crf',
    String(recipe.crf),
    '-pix_fmt',
    'yuv420p',
    '-colorspace',
    'bt709',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-movflags',
    '+faststart',
    '-an',
    outPath,
  ];
}

/**
 * Renders a recipe to `outPath`. The file appears only when complete: ffmpeg writes a sibling
 * temporary file that is renamed into place, so an interrupted run never leaves a truncated clip.
 */
export async function generateClip(
  recipe: FootageRecipe,
  outPath: string,
  options: ClipOptions & { signal?: AbortSignal; priority?: ProcessPriority } = {},
): Promise<void> {
  // Unique per call: two processes making the same clip must not share (and delete) one partial file.
  const partial = `${outPath}.${process.pid}-${randomUUID()}.part.mp4`;
  try {
    const run = { signal: options.signal, priority: options.priority };
    await runFfmpeg(buildClipArgs(recipe, partial, options), run).catch((error: unknown) => {
      // An abort surfaces as the caller's own abort reason, not as an ffmpeg failure.
      options.signal?.throwIfAborted();
      throw error;
    });
    await rename(partial, outPath);
  } finally {
    await rm(partial, { force: true });
  }
}
