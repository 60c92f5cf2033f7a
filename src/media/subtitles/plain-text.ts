// Plain-text transcript: words joined into paragraphs, a new paragraph after a long pause or after a group of
// sentences, so a long transcript reads as prose rather than one block.
import type { WordTiming } from '../types.ts';

export interface TextOptions {
  /** A silence at least this long starts a new paragraph. */
  paragraphPauseSec?: number;
  /** A paragraph ends after this many sentences (sentences are told by their end punctuation). */
  sentencesPerParagraph?: number;
}

const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;

export function toText(words: readonly WordTiming[], opts: TextOptions = {}): string {
  const pause = opts.paragraphPauseSec ?? 1.5;
  const perParagraph = Math.max(1, opts.sentencesPerParagraph ?? 4);
  const paragraphs: string[][] = [];
  let current: string[] = [];
  let sentences = 0;
  let previous: WordTiming | undefined;
  for (const word of words) {
    const text = word.word.trim();
    if (!text) continue;
    if (previous && current.length > 0 && word.start - previous.end >= pause) {
      paragraphs.push(current);
      current = [];
      sentences = 0;
    }
    current.push(text);
    previous = word;
    if (SENTENCE_END.test(text) && ++sentences >= perParagraph) {
      paragraphs.push(current);
      current = [];
      sentences = 0;
    }
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs.map((p) => p.join(' ')).join('\n\n') + (paragraphs.length > 0 ? '\n' : '');
}
