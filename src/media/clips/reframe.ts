// Reframing a clip to the asked aspect ratio without stretching: follow the centre of motion shot by shot
// with a full-height (or full-width) crop when motion is concentrated enough, else fit the whole picture over
// a blurred copy of itself. Pure decisions from motion measurements.
import type { MotionAnalysis, MotionShot } from './motion-analysis.ts';

export type AspectRatio = '9:16' | '16:9' | '1:1';

export const OUTPUT_SIZES: Readonly<Record<AspectRatio, { width: number; height: number }>> = {
  '9:16': { width: 1080, height: 1920 },
  '16:9': { width: 1920, height: 1080 },
  '1:1': { width: 1080, height: 1080 },
};

/** Motion this weak (share of the largest possible per frame pair) is treated as a still picture. */
export const MIN_ACTIVITY = 0.0004;
/**
 * Motion counts as concentrated when the best crop window holds at least this many times its share of the
 * frame (bounded to 0.6–0.9 of all motion): a subject, not a camera move over everything.
 */
export const CONCENTRATION_FACTOR = 1.5;
/** A clip is cropped when at least this share of its time has concentrated motion; else it is fitted. */
export const MIN_FOCUSED_SHARE = 0.5;
/** Aspect ratios closer than this (relative) are the same: the picture is only scaled. */
const SAME_ASPECT = 0.01;

function even(x: number): number {
  return Math.max(2, 2 * Math.round(x / 2));
}

/** The output frame for an aspect ratio, optionally scaled down (tests), both sides even. */
export function outputSize(aspect: AspectRatio, scale = 1): { width: number; height: number } {
  const size = OUTPUT_SIZES[aspect];
  return { width: even(size.width * scale), height: even(size.height * scale) };
}

export interface CropSegment {
  /** From this time in the clip (s) until the next segment. */
  startSec: number;
  /** Left edge (axis x) or top edge (axis y) of the crop in source pixels. */
  offset: number;
}

export type ReframePlan =
  | { mode: 'scale' }
  | { mode: 'fit'; reason: string }
  | {
      mode: 'crop';
      axis: 'x' | 'y';
      cropWidth: number;
      cropHeight: number;
      segments: CropSegment[];
    };

interface Size {
  width: number;
  height: number;
}

/** The largest crop of `source` with the aspect of `target`, and the axis it slides along. */
export function cropGeometry(
  source: Size,
  target: Size,
): { axis: 'x' | 'y'; cropWidth: number; cropHeight: number } {
  if (source.width / source.height > target.width / target.height) {
    return {
      axis: 'x',
      cropWidth: Math.min(source.width, even((source.height * target.width) / target.height)),
      cropHeight: source.height,
    };
  }
  return {
    axis: 'y',
    cropWidth: source.width,
    cropHeight: Math.min(source.height, even((source.width * target.height) / target.width)),
  };
}

export function sameAspect(source: Size, target: Size): boolean {
  const a = source.width / source.height;
  const b = target.width / target.height;
  return Math.abs(a - b) / b < SAME_ASPECT;
}

/** Where the crop window of `window` cells should sit in a motion profile, or null when motion is not concentrated. */
export function focusCentre(profile: readonly number[], window: number, activity: number): number | null {
  const total = profile.reduce((a, b) => a + b, 0);
  if (total <= 0 || activity < MIN_ACTIVITY || window >= profile.length) return null;
  const w = Math.max(1, Math.round(window));
  let sum = profile.slice(0, w).reduce((a, b) => a + b, 0);
  let best = sum;
  let bestStart = 0;
  for (let s = 1; s + w <= profile.length; s++) {
    sum += profile[s + w - 1]! - profile[s - 1]!;
    if (sum > best) {
      best = sum;
      bestStart = s;
    }
  }
  const needed = Math.min(0.9, Math.max(0.6, (w / profile.length) * CONCENTRATION_FACTOR));
  if (best / total < needed) return null;
  // Centre of mass inside the best window, in cells (cell centres at i + 0.5).
  let weighted = 0;
  for (let i = bestStart; i < bestStart + w; i++) weighted += profile[i]! * (i + 0.5);
  return best > 0 ? weighted / best : bestStart + w / 2;
}

/**
 * The reframe of one clip from its motion analysis. Unfocused shots of a cropped clip keep the crop of the
 * nearest focused shot (the one before, else the one after), so the picture does not jump to the middle.
 */
export function planReframe(source: Size, target: Size, motion: MotionAnalysis | null): ReframePlan {
  if (sameAspect(source, target)) return { mode: 'scale' };
  if (!motion || motion.shots.length === 0) return { mode: 'fit', reason: 'no motion analysis' };
  const { axis, cropWidth, cropHeight } = cropGeometry(source, target);
  const sourceLength = axis === 'x' ? source.width : source.height;
  const cropLength = axis === 'x' ? cropWidth : cropHeight;
  const cells = axis === 'x' ? motion.grid.width : motion.grid.height;
  const window = (cropLength / sourceLength) * cells;

  const centres = motion.shots.map((shot: MotionShot) =>
    focusCentre(axis === 'x' ? shot.columns : shot.rows, window, shot.activity),
  );
  const focused = motion.shots.reduce(
    (sum, shot, i) => sum + (centres[i] === null ? 0 : shot.endSec - shot.startSec),
    0,
  );
  if (focused < MIN_FOCUSED_SHARE * motion.durationSec) {
    return {
      mode: 'fit',
      reason: focused > 0 ? 'motion concentrated in too little of the clip' : 'no concentrated motion',
    };
  }
  const offsetOf = (centreCells: number) => {
    const centre = (centreCells / cells) * sourceLength;
    return Math.min(sourceLength - cropLength, Math.max(0, 2 * Math.round((centre - cropLength / 2) / 2)));
  };
  const segments: CropSegment[] = [];
  motion.shots.forEach((shot, i) => {
    let centre = centres[i] ?? null;
    for (let d = 1; centre === null && d < centres.length; d++)
      centre = centres[i - d] ?? centres[i + d] ?? null;
    const offset = offsetOf(centre!);
    const last = segments[segments.length - 1];
    if (!last || last.offset !== offset) segments.push({ startSec: i === 0 ? 0 : shot.startSec, offset });
  });
  return { mode: 'crop', axis, cropWidth, cropHeight, segments };
}
