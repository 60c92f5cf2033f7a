// The interface every word-timing method implements, and the choice between them.
import type { WordTiming } from '../types.ts';
import type { ScriptWord } from './script-words.ts';

/**
 * How the word timings were produced: forced alignment of the script against the audio, a speech recognizer's
 * words matched onto the script, or estimates inside sentences.
 */
export type TimingSource = 'aligned' | 'recognized' | 'sentence-estimated';

export interface TimingSegment {
  /** Where this piece of the audio starts and ends, in seconds (exact when pieces were synthesized apart). */
  start: number;
  end: number;
  words: ScriptWord[];
}

export interface WordTimingRequest {
  /** WAV file holding the speech. */
  audioPath: string;
  language: string;
  segments: TimingSegment[];
  /** espeak-ng voice whose pronunciation is closest to the audio; used for phonemes. */
  espeakVoice?: string;
  signal?: AbortSignal;
}

export interface TimedWords {
  /** One entry per script word, in order, `word` being the word as written. */
  words: WordTiming[];
  source: TimingSource;
  /** Words the method could not place itself and that were interpolated between their neighbours. */
  interpolated: number;
}

export interface WordTimer {
  readonly source: TimingSource;
  supports(language: string): boolean;
  time(request: WordTimingRequest): Promise<TimedWords>;
}

export interface TimingOutcome extends TimedWords {
  /** Methods tried before the one that produced the result, and why they were not used. */
  fallbacks: { source: TimingSource; reason: string }[];
}

// An aligner that had to interpolate more than this share of the words did worse than an estimate would.
const MAX_INTERPOLATED_SHARE = 0.5;

/** Uses the first timer that supports the language and succeeds; later timers are fallbacks. */
export async function timeWords(
  request: WordTimingRequest,
  timers: readonly WordTimer[],
): Promise<TimingOutcome> {
  const usable = timers.filter((t) => t.supports(request.language));
  const fallbacks: TimingOutcome['fallbacks'] = [];
  for (const [i, timer] of usable.entries()) {
    const isLast = i === usable.length - 1;
    try {
      const result = await timer.time(request);
      if (isLast || result.interpolated <= result.words.length * MAX_INTERPOLATED_SHARE) {
        return { ...result, fallbacks };
      }
      fallbacks.push({
        source: timer.source,
        reason: `interpolated ${result.interpolated}/${result.words.length} words`,
      });
    } catch (error) {
      if (request.signal?.aborted || isLast) throw error;
      fallbacks.push({
        source: timer.source,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  throw new Error(`No word timing method supports language "${request.language}".`);
}
