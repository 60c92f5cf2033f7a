// Places words an aligner did not find between their found neighbours, in proportion to their length.
import type { Interval } from './speech-activity.ts';

export interface Interpolated {
  timings: Interval[];
  /** How many words had to be placed this way. */
  interpolated: number;
}

/**
 * `found[i]` is the aligned interval of word i or null; `lengths[i]` its spoken length (characters).
 * Runs of missing words share the gap between the previous word's end (or `span.start`) and the next
 * word's start (or `span.end`), each getting a share proportional to its length.
 */
export function interpolateMissing(
  found: readonly (Interval | null)[],
  lengths: readonly number[],
  span: Interval,
): Interpolated {
  const timings: Interval[] = [];
  let interpolated = 0;
  let i = 0;
  while (i < found.length) {
    const hit = found[i];
    if (hit) {
      timings.push(hit);
      i++;
      continue;
    }
    let j = i;
    while (j < found.length && !found[j]) j++;
    const from = timings.length > 0 ? timings[timings.length - 1]!.end : span.start;
    const to = Math.max(from, found[j]?.start ?? span.end);
    const run = lengths.slice(i, j).map((l) => Math.max(l, 1));
    const total = run.reduce((a, b) => a + b, 0);
    let cursor = from;
    for (const l of run) {
      const end = cursor + ((to - from) * l) / total;
      timings.push({ start: cursor, end });
      cursor = end;
    }
    interpolated += j - i;
    i = j;
  }
  return { timings, interpolated };
}
