// Slow, small movement of the framed photo so the presenter does not sit frozen: a drift made of two slow
// sines per axis, with seeded periods and phases. ffmpeg's crop evaluates it per frame over the base picture,
// which is the frame plus a margin, so the view never leaves the picture.
// crop moves by whole pixels of its input, so the base is rendered at twice the frame's scale (SUPERSAMPLE) and
// averaged down after the crop: the drift moves in half-pixel steps of the output, smooth to the eye, at the
// cost of one 2:1 downscale (a warp filter that moves by fractions of a pixel costs several times more).
import { num } from '../ffmpeg/filter-escape.ts';
import { seededRandom } from '../script/seeded.ts';
import type { Size } from './framing.ts';

export interface Wave {
  /** Peak offset, as a fraction of the frame's width (x waves) or height (y waves). */
  amplitude: number;
  periodSec: number;
  phase: number;
}

export interface HeadMotion {
  x: Wave[];
  y: Wave[];
}

/** Base pixels per output pixel. */
export const SUPERSAMPLE = 2;
/** Room around the frame in the base picture, as a fraction of the frame's size (half of it on each side). */
export const MOTION_MARGIN = 0.06;

// Drift amplitudes stay under half the margin (the view may move that far before it meets the base's edge).
const X_WAVES: readonly { amplitude: number; periods: readonly [number, number] }[] = [
  { amplitude: 0.014, periods: [7, 12] },
  { amplitude: 0.006, periods: [3, 5] },
];
const Y_WAVES: readonly { amplitude: number; periods: readonly [number, number] }[] = [
  { amplitude: 0.009, periods: [6, 10] },
  { amplitude: 0.005, periods: [2.5, 4.5] },
];

const peak = (waves: readonly { amplitude: number }[]) => waves.reduce((sum, w) => sum + w.amplitude, 0);
/** How far, as a fraction of the frame, the drift can carry a point of the picture. */
export const MAX_SHIFT = Math.max(peak(X_WAVES), peak(Y_WAVES));

export function planHeadMotion(seed: string): HeadMotion {
  const random = seededRandom(`${seed}:head`);
  const wave = (amplitude: number, [lo, hi]: readonly [number, number]): Wave => ({
    amplitude,
    periodSec: lo + (hi - lo) * random(),
    phase: random() * 2 * Math.PI,
  });
  return {
    x: X_WAVES.map((w) => wave(w.amplitude, w.periods)),
    y: Y_WAVES.map((w) => wave(w.amplitude, w.periods)),
  };
}

/** The drift in base pixels at crop's frame number `n`. */
function sines(waves: readonly Wave[], scale: number, fps: number): string {
  return waves
    .map(
      (w) =>
        `${num(w.amplitude * scale, 3)}*sin(${num((2 * Math.PI) / (w.periodSec * fps), 9)}*n+${num(w.phase, 4)})`,
    )
    .join('+');
}

/**
 * The moving view: a frame-sized (at SUPERSAMPLE scale) crop of the base around its middle, offset by the
 * drift, averaged down to the frame. `exact` lets the crop start on odd pixels of a 4:2:0 picture (its chroma
 * then lags by half a chroma sample, which the eye does not see).
 */
export function motionFilters(motion: HeadMotion, frame: Size & { fps: number }): string {
  const w = frame.width * SUPERSAMPLE;
  const h = frame.height * SUPERSAMPLE;
  const x = `(iw-ow)/2+${sines(motion.x, w, frame.fps)}`;
  const y = `(ih-oh)/2+${sines(motion.y, h, frame.fps)}`;
  return `crop=w=${w}:h=${h}:x='${x}':y='${y}':exact=1,scale=${frame.width}:${frame.height}:flags=area`;
}
