// Gives words the aligner could not place a time between their placed neighbours.
import type { WordTiming } from '../types.ts';

export interface MaybePlaced {
  word: string;
  start?: number;
  end?: number;
}

/**
 * Returns every word with a start and end. Runs of unplaced words share the gap between the previous placed
 * word's end (or `spanStart`) and the next placed word's start (or `spanEnd`) in proportion to their length
 * in characters, so long words get more time than short ones.
 */
export function fillGaps(words: readonly MaybePlaced[], spanStart: number, spanEnd: number): WordTiming[] {
  const out: WordTiming[] = [];
  let i = 0;
  while (i < words.length) {
    const current = words[i]!;
    if (current.start !== undefined && current.end !== undefined) {
      out.push({ word: current.word, start: current.start, end: current.end });
      i++;
      continue;
    }
    let j = i;
    while (j < words.length && (words[j]!.start === undefined || words[j]!.end === undefined)) j++;
    const gapStart = out.length > 0 ? out[out.length - 1]!.end : spanStart;
    const gapEnd = j < words.length ? words[j]!.start! : spanEnd;
    const run = words.slice(i, j);
    const weights = run.map((w) => Math.max(1, w.word.length));
    const total = weights.reduce((a, b) => a + b, 0);
    const span = Math.max(0, gapEnd - gapStart);
    let cursor = gapStart;
    run.forEach((w, k) => {
      const length = (span * weights[k]!) / total;
      out.push({ word: w.word, start: round3(cursor), end: round3(cursor + length) });
      cursor += length;
    });
    i = j;
  }
  return out;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
