// Pronunciations for the words of a script: CMU dictionary first, then espeak-ng, then spelling rules.
import type { PronunciationDict } from './cmudict.ts';
import { espeakPronunciations } from './espeak-phonemes.ts';
import { letterToSound } from './letter-to-sound.ts';
import { dictionaryKey } from './tokenize.ts';

/** Every pronunciation the dictionary has for a word, else the parts of a compound ("well-known") joined. */
export function dictionaryPronunciations(dict: PronunciationDict, word: string): string[][] | undefined {
  const key = dictionaryKey(word);
  const entries = dict.get(key);
  if (entries) return entries.map((phones) => [...phones]);
  const parts = key.split(/[-/&_]+/).filter(Boolean);
  if (parts.length < 2) return undefined;
  const joined: string[] = [];
  for (const part of parts) {
    const first = dict.get(part)?.[0];
    if (!first) return undefined;
    joined.push(...first);
  }
  return [joined];
}

/**
 * One or more pronunciations (lists of CMU phones) for each word, in input order. Words outside the dictionary
 * are pronounced by espeak-ng; if espeak-ng is missing or gives nothing, by spelling rules.
 */
export async function pronounceWords(
  words: readonly string[],
  dict: PronunciationDict,
  opts: { signal?: AbortSignal } = {},
): Promise<string[][][]> {
  const result = words.map((word) => dictionaryPronunciations(dict, word));
  const missing = [...new Set(words.filter((_, i) => !result[i]))];
  const spoken = new Map<string, string[]>();
  if (missing.length > 0) {
    let phones: string[][] = [];
    try {
      phones = await espeakPronunciations(missing, { signal: opts.signal });
    } catch (error) {
      if (opts.signal?.aborted) throw error;
    }
    missing.forEach((word, i) => {
      const fromEspeak = phones[i] ?? [];
      spoken.set(word, fromEspeak.length > 0 ? fromEspeak : letterToSound(word));
    });
  }
  return words.map((word, i) => {
    const known = result[i];
    if (known) return known;
    const guessed = spoken.get(word) ?? [];
    // A word with no letters or digits to go on (e.g. a lone symbol) is given a neutral vowel so it still exists.
    return [guessed.length > 0 ? guessed : ['AH']];
  });
}
