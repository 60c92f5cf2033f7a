// Which mouth shape each video frame shows: every word's phones spread over the word's time by their relative
// durations, sampled once per frame, closed in silences, and smoothed so no shape flashes for a single frame.
import type { WordTiming } from '../types.ts';
import { MOUTH_SHAPES, phoneViseme, phoneWeight, type Viseme } from './visemes.ts';

/** A state held for a number of consecutive frames. */
export interface Run<S extends string> {
  state: S;
  frames: number;
}

export interface PhoneSpan {
  viseme: Viseme;
  start: number;
  end: number;
}

/** Gaps between words shorter than this keep the lips slightly parted instead of closing them. */
const SHORT_GAP_SEC = 0.25;
/** The mouth shapes a sound slightly before it is heard; a frame or so ahead reads as in sync. */
export const LEAD_SEC = 0.04;
/** Shortest time a shape is held, in frames. */
export const MIN_RUN_FRAMES = 2;

/** Each word's phones (one list per word, same order) spread over the word's time by their weights. */
export function phoneSpans(
  words: readonly WordTiming[],
  phones: readonly (readonly string[])[],
): PhoneSpan[] {
  const spans: PhoneSpan[] = [];
  words.forEach((word, i) => {
    const list = phones[i] ?? [];
    const duration = word.end - word.start;
    if (list.length === 0 || !(duration > 0)) return;
    const weights = list.map(phoneWeight);
    const total = weights.reduce((a, b) => a + b, 0);
    let at = word.start;
    list.forEach((phone, j) => {
      const end = j === list.length - 1 ? word.end : at + (duration * weights[j]!) / total;
      spans.push({ viseme: phoneViseme(phone), start: at - LEAD_SEC, end: end - LEAD_SEC });
      at = end;
    });
  });
  return spans.sort((a, b) => a.start - b.start);
}

function openness(v: Viseme): number {
  return MOUTH_SHAPES[v].open;
}

/** One viseme per frame: the span under the frame's middle, 'rest' in short gaps, 'closed' in silences. */
export function frameVisemes(spans: readonly PhoneSpan[], fps: number, frameCount: number): Viseme[] {
  const out: Viseme[] = new Array<Viseme>(frameCount).fill('closed');
  let s = 0;
  for (let k = 0; k < frameCount; k++) {
    const t = (k + 0.5) / fps;
    while (s < spans.length && spans[s]!.end <= t) s++;
    const span = spans[s];
    if (span && span.start <= t) {
      out[k] = span.viseme;
      continue;
    }
    const before = spans[s - 1];
    if (before && span && span.start - before.end < SHORT_GAP_SEC) out[k] = 'rest';
  }
  // A lip closure (M, B, P) shorter than a frame would fall between frame middles; it is what the eye reads
  // most, so it takes the frame nearest to it.
  for (const span of spans) {
    // Frames whose middle lies in [start, end) already show the span.
    const sampled = Math.ceil(span.start * fps - 0.5) < span.end * fps - 0.5;
    if (span.viseme !== 'closed' || sampled) continue;
    const k = Math.round(((span.start + span.end) / 2) * fps - 0.5);
    if (k >= 0 && k < frameCount) out[k] = 'closed';
  }
  return out;
}

export function toRuns<S extends string>(states: readonly S[]): Run<S>[] {
  const runs: Run<S>[] = [];
  for (const state of states) {
    const last = runs[runs.length - 1];
    if (last && last.state === state) last.frames++;
    else runs.push({ state, frames: 1 });
  }
  return runs;
}

function mergeEqualNeighbours<S extends string>(runs: Run<S>[]): Run<S>[] {
  const out: Run<S>[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    if (last && last.state === run.state) last.frames += run.frames;
    else out.push({ ...run });
  }
  return out;
}

/**
 * Runs shorter than `minFrames` are absorbed: a lip closure borrows frames from a longer neighbour (it must be
 * seen), any other shape joins the neighbour whose opening is closest to its own.
 */
export function smoothRuns(runs: readonly Run<Viseme>[], minFrames = MIN_RUN_FRAMES): Run<Viseme>[] {
  let out = mergeEqualNeighbours(runs.map((r) => ({ ...r })));
  for (;;) {
    const i = out.findIndex((r) => r.frames < minFrames);
    if (i < 0 || out.length === 1) return out;
    const run = out[i]!;
    const prev = out[i - 1];
    const next = out[i + 1];
    const donor = [prev, next]
      .filter((r): r is Run<Viseme> => r !== undefined && r.frames - (minFrames - run.frames) >= minFrames)
      .sort((a, b) => b.frames - a.frames)[0];
    if (run.state === 'closed' && donor) {
      donor.frames -= minFrames - run.frames;
      run.frames = minFrames;
    } else {
      const target =
        prev && next
          ? Math.abs(openness(prev.state) - openness(run.state)) <=
            Math.abs(openness(next.state) - openness(run.state))
            ? prev
            : next
          : (prev ?? next)!;
      target.frames += run.frames;
      out.splice(i, 1);
    }
    out = mergeEqualNeighbours(out);
  }
}

/** The mouth's runs for a narration: words and their phones in, `frameCount` frames at `fps` out. */
export function mouthRuns(
  words: readonly WordTiming[],
  phones: readonly (readonly string[])[],
  fps: number,
  frameCount: number,
): Run<Viseme>[] {
  return smoothRuns(toRuns(frameVisemes(phoneSpans(words, phones), fps, frameCount)));
}
