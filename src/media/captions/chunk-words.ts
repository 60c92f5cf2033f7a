// Grouping of timed words into the short phrases shown on screen together.
import type { WordTiming } from '../types.ts';
import type { CaptionChunking } from './caption-style.ts';

// Trailing closing quotes/brackets do not hide the punctuation before them: `done."` ends a sentence.
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;
const CLAUSE_END = /[,;:]["'”’)\]]*$/;

function displayLength(words: readonly WordTiming[]): number {
  return words.reduce((sum, w, i) => sum + w.word.length + (i > 0 ? 1 : 0), 0);
}

/** True when a silence of `gap` seconds exceeds `maxPauseSec`, compared in whole milliseconds. */
export function isLongPause(gap: number, maxPauseSec: number): boolean {
  // Millisecond rounding keeps float noise (1.3 - 0.7 = 0.6000000000000001) from splitting chunks.
  return Math.round(gap * 1000) > Math.round(maxPauseSec * 1000);
}

/**
 * Splits words (in time order) into chunks. A chunk ends when it is full (maxWords / maxChars), at a
 * sentence end (or clause end when asked), and before any silence longer than maxPauseSec.
 * Words that are empty after trimming are dropped.
 */
export function chunkWords(words: readonly WordTiming[], chunking: CaptionChunking): WordTiming[][] {
  const chunks: WordTiming[][] = [];
  let current: WordTiming[] = [];
  for (const raw of words) {
    const word = { ...raw, word: raw.word.trim() };
    if (word.word === '') continue;
    const previous = current[current.length - 1];
    if (previous) {
      const full =
        current.length >= chunking.maxWords || displayLength([...current, word]) > chunking.maxChars;
      const pause = isLongPause(word.start - previous.end, chunking.maxPauseSec);
      if (full || pause) {
        chunks.push(current);
        current = [];
      }
    }
    current.push(word);
    if (SENTENCE_END.test(word.word) || (chunking.breakOnClause && CLAUSE_END.test(word.word))) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
