// Word timing for any language: words placed inside each exactly known segment by phoneme-weighted estimates,
// with the segment's pauses matched to its punctuation.
import type { WordTiming } from '../types.ts';
import { readLevelTrack } from './audio-levels.ts';
import { estimateWordTimings } from './estimate-timings.ts';
import { phonemeWeight, phonemizeWords } from './phoneme-weights.ts';
import { findActivity } from './speech-activity.ts';
import type { WordTimer, WordTimingRequest, TimedWords } from './word-timer.ts';

// Shortest silence treated as a pause: espeak's stop closures stay under ~70 ms, its clause pauses above ~80 ms.
const MIN_PAUSE_SEC = 0.075;

export function sentenceEstimateTimer(): WordTimer {
  return {
    source: 'sentence-estimated',
    supports: () => true,
    time: estimateTimings,
  };
}

async function estimateTimings(request: WordTimingRequest): Promise<TimedWords> {
  const track = await readLevelTrack(request.audioPath);
  const all = request.segments.flatMap((s) => s.words);
  const phonemes = request.espeakVoice
    ? await phonemizeWords(
        // As written, so espeak reads "$5" or "20%" the way it spoke them.
        all.map((w) => w.text),
        request.espeakVoice,
        request.signal,
      )
    : null;
  const charWeight = (spoken: string) => [...spoken].length;
  const words: WordTiming[] = [];
  let index = 0;
  for (const segment of request.segments) {
    const activity = findActivity(track, segment, { minPauseSec: MIN_PAUSE_SEC });
    const weighted = segment.words.map((w) => {
      const fromPhonemes = phonemes ? phonemeWeight(phonemes[index]!) : 0;
      index++;
      return { weight: fromPhonemes > 0 ? fromPhonemes : charWeight(w.spoken), breakAfter: w.breakAfter };
    });
    const timings = estimateWordTimings({
      speech: activity.speech ?? { start: segment.start, end: segment.end },
      pauses: activity.pauses,
      words: weighted,
    });
    timings.forEach((t, i) => words.push({ word: segment.words[i]!.text, start: t.start, end: t.end }));
  }
  return { words, source: 'sentence-estimated', interpolated: 0 };
}
