// Adapts a recognizer-based aligner with the signature of src/media/speech/align.ts's alignScript into a
// WordTimer: its words are matched back onto the script's words, and words it missed are interpolated.
import type { WordTiming } from '../types.ts';
import { readLevelTrack } from './audio-levels.ts';
import { interpolateMissing } from './interpolate-timings.ts';
import { spokenForm } from './script-words.ts';
import { findActivity } from './speech-activity.ts';
import type { TimedWords, TimingSource, WordTimer, WordTimingRequest } from './word-timer.ts';

export type ScriptAligner = (
  audioPath: string,
  text: string,
  opts?: { language?: string; signal?: AbortSignal },
) => Promise<WordTiming[]>;

/**
 * Longest common subsequence of two word lists (compared as spoken forms): for each script word, the index
 * of the aligned word it corresponds to, or -1.
 */
export function matchWordSequences(script: readonly string[], aligned: readonly string[]): number[] {
  const n = script.length;
  const m = aligned.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        script[i] === aligned[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const matched = new Array<number>(n).fill(-1);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (script[i] === aligned[j]) matched[i++] = j++;
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  return matched;
}

export function scriptAlignerTimer(
  align: ScriptAligner,
  supports: (language: string) => boolean,
  source: TimingSource = 'aligned',
): WordTimer {
  return {
    source,
    supports,
    async time(request: WordTimingRequest): Promise<TimedWords> {
      const script = request.segments.flatMap((s) => s.words);
      const [aligned, track] = await Promise.all([
        align(request.audioPath, script.map((w) => w.text).join(' '), {
          language: request.language,
          signal: request.signal,
        }),
        readLevelTrack(request.audioPath),
      ]);
      const matched = matchWordSequences(
        script.map((w) => w.spoken),
        aligned.map((w) => spokenForm(w.word)),
      );
      const words: WordTiming[] = [];
      let interpolated = 0;
      let index = 0;
      for (const segment of request.segments) {
        const found = segment.words.map((_, i) => {
          const hit = aligned[matched[index + i]!];
          // A word placed outside its segment was matched to the wrong occurrence; treat it as missed.
          return hit && hit.start >= segment.start && hit.end <= segment.end
            ? { start: hit.start, end: hit.end }
            : null;
        });
        const placed = interpolateMissing(
          found,
          segment.words.map((w) => [...w.spoken].length),
          findActivity(track, segment).speech ?? segment,
        );
        placed.timings.forEach((t, i) =>
          words.push({ word: segment.words[i]!.text, start: t.start, end: t.end }),
        );
        interpolated += placed.interpolated;
        index += segment.words.length;
      }
      return { words, source, interpolated };
    },
  };
}
