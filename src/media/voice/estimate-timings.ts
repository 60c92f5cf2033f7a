// Places words inside a stretch of speech whose edges are known exactly, from their relative spoken lengths.
// Pauses found in the audio are matched to the script's punctuation and used as exact word boundaries.
import type { Interval } from './speech-activity.ts';
import type { BreakKind } from './script-words.ts';

export interface WeightedWord {
  /** Relative spoken length (phoneme- or character-based). */
  weight: number;
  breakAfter?: BreakKind;
}

export interface EstimateInput {
  /** From the first to the last voiced moment of this stretch. */
  speech: Interval;
  /** Silences inside `speech`, in order. */
  pauses: Interval[];
  words: WeightedWord[];
}

// Costs in seconds for matching pauses to word boundaries: leaving punctuation without a pause, leaving
// a pause unmatched (per second of pause), and putting a pause where the script has no punctuation.
const SKIP_BREAK = { sentence: 0.4, clause: 0.15, none: 0 } as const;
const SKIP_PAUSE_PER_SEC = 1;
const UNPUNCTUATED_PAUSE = 0.05;
// Words before a pause are drawn out (phrase-final lengthening): extra weight, in consonant units.
const FINAL_LENGTHENING = 1.5;

type BoundaryKind = keyof typeof SKIP_BREAK;

/** Spoken pieces between pauses, with their running speech-time offsets. */
function speechPieces(speech: Interval, pauses: Interval[]): { real: Interval; from: number }[] {
  const pieces: { real: Interval; from: number }[] = [];
  let cursor = speech.start;
  let from = 0;
  for (const p of [...pauses, { start: speech.end, end: speech.end }]) {
    if (p.start > cursor) {
      pieces.push({ real: { start: cursor, end: p.start }, from });
      from += p.start - cursor;
    }
    cursor = Math.max(cursor, p.end);
  }
  return pieces;
}

/**
 * Monotonic matching of word boundaries to pauses (an edit-distance dynamic programme): matching costs the
 * distance between where the boundary is expected and where the pause is, in speech time; leaving either
 * unmatched costs what SKIP_BREAK / SKIP_PAUSE_PER_SEC say. Returns, per boundary, the pause index or -1.
 */
export function matchBoundariesToPauses(
  expected: number[],
  kinds: BoundaryKind[],
  pauseAt: number[],
  pauseLength: number[],
): number[] {
  const m = expected.length;
  const k = pauseAt.length;
  const cost: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(k + 1).fill(Infinity));
  const move: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(k + 1).fill(0));
  cost[0]![0] = 0;
  for (let i = 0; i <= m; i++) {
    for (let j = 0; j <= k; j++) {
      const here = cost[i]![j]!;
      if (here === Infinity) continue;
      const relax = (a: number, b: number, c: number, how: number) => {
        if (c < cost[a]![b]!) {
          cost[a]![b] = c;
          move[a]![b] = how;
        }
      };
      if (i < m) relax(i + 1, j, here + SKIP_BREAK[kinds[i]!], 1);
      if (j < k) relax(i, j + 1, here + SKIP_PAUSE_PER_SEC * pauseLength[j]!, 2);
      if (i < m && j < k) {
        const penalty = kinds[i] === 'none' ? UNPUNCTUATED_PAUSE : 0;
        relax(i + 1, j + 1, here + Math.abs(expected[i]! - pauseAt[j]!) + penalty, 3);
      }
    }
  }
  const matched = new Array<number>(m).fill(-1);
  for (let i = m, j = k; i > 0 || j > 0;) {
    const how = move[i]![j]!;
    if (how === 3) matched[i - 1] = j - 1;
    if (how !== 2) i--;
    if (how !== 1) j--;
  }
  return matched;
}

function cumulativeSums(values: number[]): number[] {
  let acc = 0;
  return values.map((v) => (acc += v));
}

export function estimateWordTimings(input: EstimateInput): Interval[] {
  const { speech, words } = input;
  if (words.length === 0) return [];
  const pieces = speechPieces(speech, input.pauses);
  const total = pieces.reduce((s, p) => s + (p.real.end - p.real.start), 0);
  const speechTimeOf = (t: number) => {
    let acc = 0;
    for (const p of pieces) {
      if (t <= p.real.start) break;
      acc = p.from + Math.min(t, p.real.end) - p.real.start;
    }
    return acc;
  };
  // Real time of a speech-time instant; at a pause, `edge` says whether the pause's start or end is wanted.
  const realTimeOf = (s: number, edge: 'start' | 'end') => {
    for (const p of pieces) {
      const len = p.real.end - p.real.start;
      if (s < p.from + len || (edge === 'end' && s <= p.from + len))
        return p.real.start + Math.max(0, s - p.from);
    }
    return speech.end;
  };

  const base = words.map((w) => Math.max(w.weight, 1e-6));
  const boundaries = words.slice(0, -1).map((w): BoundaryKind => w.breakAfter ?? 'none');
  // First guess: every punctuated word is followed by a pause.
  const guess = cumulativeSums(base.map((w, i) => w + (words[i]!.breakAfter ? FINAL_LENGTHENING : 0)));
  const matched = matchBoundariesToPauses(
    boundaries.map((_, i) => (guess[i]! / guess[guess.length - 1]!) * total),
    boundaries,
    input.pauses.map((p) => speechTimeOf(p.start)),
    input.pauses.map((p) => p.end - p.start),
  );
  const cumulative = cumulativeSums(
    base.map((w, i) => w + (i === words.length - 1 || matched[i]! >= 0 ? FINAL_LENGTHENING : 0)),
  );

  // Anchors: word boundaries fixed in speech time (a matched pause sits between two speech-time instants).
  const anchors: { word: number; at: number }[] = [{ word: -1, at: 0 }];
  matched.forEach((pauseIndex, wordIndex) => {
    const pause = input.pauses[pauseIndex];
    if (pause) anchors.push({ word: wordIndex, at: speechTimeOf(pause.start) });
  });
  anchors.push({ word: words.length - 1, at: total });

  const bounds: { start: number; end: number }[] = [];
  for (let a = 0; a + 1 < anchors.length; a++) {
    const from = anchors[a]!;
    const to = anchors[a + 1]!;
    const offset = from.word < 0 ? 0 : cumulative[from.word]!;
    const span = cumulative[to.word]! - offset;
    for (let i = from.word + 1; i <= to.word; i++) {
      const s0 = from.at + ((i === 0 ? 0 : cumulative[i - 1]! - offset) / span) * (to.at - from.at);
      const s1 = from.at + ((cumulative[i]! - offset) / span) * (to.at - from.at);
      bounds.push({ start: s0, end: s1 });
    }
  }
  return bounds.map((b) => ({ start: realTimeOf(b.start, 'start'), end: realTimeOf(b.end, 'end') }));
}
