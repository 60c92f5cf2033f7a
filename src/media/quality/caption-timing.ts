// When the burned-in captions change, read back from the ASS script that was drawn, against when the narration
// says each word. Every caption look starts an event (or, for karaoke, a fill) at a word's start, so each
// such onset is matched to the narration word starting nearest to it.
import type { WordTiming } from '../types.ts';

const DIALOGUE = /^Dialogue:\s*[^,]*,(\d+):(\d{2}):(\d{2})\.(\d{2}),/;
const KARAOKE = /\\k[fo]?(\d+)/g;

function seconds(h: string, m: string, s: string, cs: string): number {
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(cs) / 100;
}

/** Times (s) at which a caption event or a karaoke word starts, sorted, without repeats. */
export function captionOnsets(ass: string): number[] {
  const onsets = new Set<number>();
  for (const line of ass.split(/\r?\n/)) {
    const match = DIALOGUE.exec(line);
    if (!match) continue;
    const start = seconds(match[1]!, match[2]!, match[3]!, match[4]!);
    onsets.add(Math.round(start * 100));
    let at = start * 100;
    // \k durations are centiseconds; each word after the first starts where the previous fill ends.
    const fills = [...line.matchAll(KARAOKE)].map((k) => Number(k[1]));
    for (const fill of fills.slice(0, -1)) {
      at += fill;
      onsets.add(Math.round(at));
    }
  }
  return [...onsets].sort((a, b) => a - b).map((cs) => cs / 100);
}

export interface CaptionOffsets {
  /** Caption onsets compared. */
  count: number;
  /** Median and largest |caption onset − narration word start|, ms. */
  medianMs: number;
  worstMs: number;
  /** The onset (s) with the largest offset. */
  worstAt: number | null;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Offsets of caption onsets from the narration's words. `narrationLagSec` is where the narration was found in
 * the delivered audio relative to its own file (its words are heard that much later than their timings say).
 */
export function captionOffsets(
  onsets: readonly number[],
  words: readonly WordTiming[],
  narrationLagSec: number,
): CaptionOffsets {
  const starts = words.map((w) => w.start).sort((a, b) => a - b);
  if (starts.length === 0 || onsets.length === 0) return { count: 0, medianMs: 0, worstMs: 0, worstAt: null };
  const offsets: number[] = [];
  let worst = -1;
  let worstAt: number | null = null;
  let j = 0;
  for (const onset of onsets) {
    while (j + 1 < starts.length && Math.abs(starts[j + 1]! - onset) <= Math.abs(starts[j]! - onset)) j++;
    const offsetMs = Math.abs(onset - (starts[j]! + narrationLagSec)) * 1000;
    offsets.push(offsetMs);
    if (offsetMs > worst) {
      worst = offsetMs;
      worstAt = onset;
    }
  }
  return {
    count: offsets.length,
    medianMs: Math.round(median(offsets) * 10) / 10,
    worstMs: Math.round(worst * 10) / 10,
    worstAt,
  };
}
