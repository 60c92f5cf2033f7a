// espeak-ng arguments for synthesis.

export const MIN_SPEED = 0.7;
export const MAX_SPEED = 1.3;
// espeak-ng's default rate; speed 1 speaks at it.
const BASE_WORDS_PER_MINUTE = 175;

export function speedToWordsPerMinute(speed: number): number {
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
    throw new RangeError(`speed must be between ${MIN_SPEED} and ${MAX_SPEED}, got ${speed}`);
  }
  return Math.round(BASE_WORDS_PER_MINUTE * speed);
}

/** Speaks the text read from stdin with `espeakVoice` at `wordsPerMinute` into a WAV file. */
export function espeakSynthesisArgs(espeakVoice: string, wordsPerMinute: number, outPath: string): string[] {
  return ['-v', espeakVoice, '-s', String(wordsPerMinute), '-w', outPath, '--stdin'];
}
