// espeak-ng arguments for synthesis.
import { checkSpeed } from './speed.ts';

// espeak-ng's default rate; speed 1 speaks at it.
const BASE_WORDS_PER_MINUTE = 175;

export function speedToWordsPerMinute(speed: number): number {
  return Math.round(BASE_WORDS_PER_MINUTE * checkSpeed(speed));
}

/** Speaks the text read from stdin with `espeakVoice` at `wordsPerMinute` into a WAV file. */
export function espeakSynthesisArgs(espeakVoice: string, wordsPerMinute: number, outPath: string): string[] {
  return ['-v', espeakVoice, '-s', String(wordsPerMinute), '-w', outPath, '--stdin'];
}
