// When the eyes blink: every 2–6 s (people at rest blink about 15 times a minute), each blink 120–180 ms,
// closing and opening through a half-closed lid. Seeded, so a re-render blinks at the same moments.
import { seededRandom } from '../script/seeded.ts';
import { toRuns, type Run } from './mouth-track.ts';

export type EyeState = 'open' | 'half' | 'closed';

export interface Blink {
  /** First frame of the blink. */
  frame: number;
  frames: number;
}

const FIRST_BLINK_SEC: readonly [number, number] = [0.6, 2.2];
const INTERVAL_SEC: readonly [number, number] = [2, 6];
const DURATION_SEC: readonly [number, number] = [0.12, 0.18];

export function planBlinks(durationSec: number, fps: number, seed: string): Blink[] {
  const random = seededRandom(`${seed}:blinks`);
  const within = ([lo, hi]: readonly [number, number]) => lo + (hi - lo) * random();
  const total = Math.ceil(durationSec * fps);
  const blinks: Blink[] = [];
  for (let t = within(FIRST_BLINK_SEC); ; t += within(INTERVAL_SEC)) {
    const frame = Math.round(t * fps);
    // At least three frames (half, closed, half) so the lid is seen moving at any frame rate.
    const frames = Math.max(3, Math.round(within(DURATION_SEC) * fps));
    if (frame + frames > total) return blinks;
    blinks.push({ frame, frames });
  }
}

/** The lid positions of one blink: a quarter of it closing, the middle closed, the rest opening. */
export function blinkStates(frames: number): EyeState[] {
  const closing = Math.max(1, Math.round(frames * 0.25));
  const opening = Math.max(1, Math.round(frames * 0.35));
  const closed = Math.max(1, frames - closing - opening);
  return [
    ...Array<EyeState>(closing).fill('half'),
    ...Array<EyeState>(closed).fill('closed'),
    ...Array<EyeState>(frames - closing - closed).fill('half'),
  ];
}

export function eyeRuns(blinks: readonly Blink[], frameCount: number): Run<EyeState>[] {
  const states = Array<EyeState>(frameCount).fill('open');
  for (const blink of blinks) {
    blinkStates(blink.frames).forEach((state, i) => {
      if (blink.frame + i < frameCount) states[blink.frame + i] = state;
    });
  }
  return toRuns(states);
}
