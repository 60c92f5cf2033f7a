// Flesch Reading Ease (Flesch 1948): 206.835 - 1.015 × words per sentence - 84.6 × syllables per word;
// 60-70 is plain English, above 80 easy. No syllable library is installed, so syllables are estimated from
// the spelling: groups of vowels (a e i o u y), after dropping a silent ending: "-ed" after a consonant
// other than t, d, l ("jumped", not "needed"), "-es" after one other than s, x, z, c, g, l ("makes", not
// "boxes"), "-e" after one other than l ("make", not "table"), and a leading "y"; at least one a word. A digit group is read as one syllable a digit; a word in a script without Latin letters is one.
// Words and sentences are cut by the Unicode rules (Intl.Segmenter).
import { splitSentences } from '../../media/script/sentences.ts';

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

export function wordsIn(text: string): string[] {
  return [...wordSegmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

export function syllableCount(word: string): number {
  if (/^\p{N}+$/u.test(word)) return word.length;
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (letters === '') return 1;
  if (letters.length <= 3) return 1;
  let stem = letters;
  if (/[^aeiouytdl]ed$/.test(stem) || /[^aeiouysxzcgl]es$/.test(stem)) stem = stem.slice(0, -2);
  else if (/[^aeiouyl]e$/.test(stem)) stem = stem.slice(0, -1);
  return Math.max(1, stem.replace(/^y/, '').match(/[aeiouy]+/g)?.length ?? 0);
}

export interface Readability {
  words: number;
  sentences: number;
  syllables: number;
  /** Flesch Reading Ease, unclamped (short, plain hooks can pass 100). */
  fleschReadingEase: number;
}

export function readability(text: string): Readability {
  const words = wordsIn(text);
  const sentences = Math.max(1, splitSentences(text).length);
  const syllables = words.reduce((sum, w) => sum + syllableCount(w), 0);
  const n = Math.max(1, words.length);
  return {
    words: words.length,
    sentences,
    syllables,
    fleschReadingEase: 206.835 - 1.015 * (n / sentences) - 84.6 * (syllables / n),
  };
}
