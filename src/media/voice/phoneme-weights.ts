// Per-word phoneme strings from espeak-ng, and a duration weight for each word derived from them.
import { runProcess } from '../process/run-process.ts';

/** espeak-ng arguments that read stdin as a file and print each paragraph's phonemes (`-x`, joined by "_"), without audio. */
export function espeakPhonemeArgs(espeakVoice: string): string[] {
  return ['-v', espeakVoice, '-q', '-x', '--sep=_'];
}

/** One word per paragraph, so espeak translates each word on its own and prints it as its own paragraph. */
export function phonemeInput(words: readonly string[]): string {
  return words.map((w) => `${w}\n\n`).join('');
}

/** Splits espeak's output back into one phoneme string per word; null when the paragraphs don't line up. */
export function parseWordPhonemes(stdout: string, count: number): string[] | null {
  const paragraphs = stdout
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return paragraphs.length === count ? paragraphs : null;
}

// First characters of espeak vowel mnemonics across languages (e.g. "@", "3:", "0", "2:" for German ö, "aI").
const VOWEL_START = /^[aeiouyAEIOUVYW@0236789&]/;
// Language switches such as "(en)", boundaries "|", and the "**" marker carry no duration.
const NOT_A_PHONEME = /^\(.*\)$|^[|*;:#=-]*$/;

export interface PhonemeCounts {
  vowels: number;
  longVowels: number;
  stressed: number;
  consonants: number;
}

export function countPhonemes(phonemes: string): PhonemeCounts {
  const counts: PhonemeCounts = { vowels: 0, longVowels: 0, stressed: 0, consonants: 0 };
  for (const raw of phonemes.split(/[_\s]+/)) {
    const token = raw.replace(/^[',%=]+/, '');
    if (!token || NOT_A_PHONEME.test(token)) continue;
    if (VOWEL_START.test(token)) {
      counts.vowels++;
      if (token.includes(':') || /^[a-zA-Z@03][IUi@3]/.test(token)) counts.longVowels++;
      if (raw.startsWith("'")) counts.stressed++;
    } else {
      counts.consonants++;
    }
  }
  return counts;
}

// Relative durations, least-squares fitted to espeak-ng's own word events (libespeak-ng) for ~1000 words of
// English, Spanish, German and French at 0.7–1.3× speed.
const WEIGHTS = { vowel: 0.9, longVowel: 0.25, stressed: 0.6, consonant: 1 };

export function phonemeWeight(phonemes: string): number {
  const c = countPhonemes(phonemes);
  return (
    c.vowels * WEIGHTS.vowel +
    c.longVowels * WEIGHTS.longVowel +
    c.stressed * WEIGHTS.stressed +
    c.consonants * WEIGHTS.consonant
  );
}

/** Phonemes of each word as espeak-ng would say it in `espeakVoice`; null when espeak's output can't be split per word. */
export async function phonemizeWords(
  words: readonly string[],
  espeakVoice: string,
  signal?: AbortSignal,
): Promise<string[] | null> {
  if (words.length === 0) return [];
  const { stdout } = await runProcess('espeak-ng', espeakPhonemeArgs(espeakVoice), {
    input: phonemeInput(words),
    signal,
  });
  return parseWordPhonemes(stdout, words.length);
}
