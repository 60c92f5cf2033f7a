// How well a library clip fits a narrated sentence, as a score from 0 to 1 (docs/footage.md defines it), and
// which sentences no clip of a library can match by their words. The score describes a choice selectFootage
// made; it never makes one.

import { contentStems, contentTerms } from './text-match.ts';

/** A shot whose sentence shares a word with its clip scores at least this; any other shot scores less. */
export const WORD_MATCH_FLOOR = 0.4;
/** Matching this many of a sentence's words is a full match: a shot shows a few things, not a paragraph. */
export const FULL_MATCH_TERMS = 3;

/** Where the clip of a shot without a shared word stands in the video's closest-niches list. */
export type NicheFit = 'requested' | 'closest' | 'abstract' | 'none';

const NICHE_SCORE: Record<NicheFit, number> = { requested: 0.3, closest: 0.2, abstract: 0.1, none: 0 };
const KEYWORD_SCORE = 0.05;

export interface MatchScoreInput {
  /** How many distinct content stems the sentence has. */
  sentenceTerms: number;
  /** How many of them the clip's title or tags contain. */
  matchedTerms: number;
  nicheFit: NicheFit;
  /** The clip's title or tags share a content stem with the request's footage_keywords. */
  keywordHit: boolean;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * With shared words: 0.4 + 0.6 × min(1, matched / min(sentence terms, 3)). Without: the niche fallback,
 * 0.3 / 0.2 / 0.1 / 0 by niche fit, plus 0.05 for a footage-keyword hit — at most 0.35, below every word match.
 */
export function matchScore(input: MatchScoreInput): number {
  if (input.matchedTerms > 0) {
    const coverage = Math.min(1, input.matchedTerms / Math.min(input.sentenceTerms, FULL_MATCH_TERMS));
    return round2(WORD_MATCH_FLOOR + (1 - WORD_MATCH_FLOOR) * coverage);
  }
  return round2(NICHE_SCORE[input.nicheFit] + (input.keywordHit ? KEYWORD_SCORE : 0));
}

/** The sentence's content words whose stems are among `stems`: lower case, the first spelling of each stem. */
export function wordsOfStems(sentence: string, stems: ReadonlySet<string>): string[] {
  const words = new Map<string, string>();
  for (const term of contentTerms(sentence)) {
    if (stems.has(term.stem) && !words.has(term.stem)) words.set(term.stem, term.word);
  }
  return [...words.values()];
}

/** A sentence that shares no word with any clip of a library. */
export interface UnmatchedSentence {
  /** Position among the sentences given (0-based). */
  index: number;
  sentence: string;
  /** Its content words, distinct by stem, in order: the tags a clip would need. */
  words: string[];
}

/**
 * The sentences whose content words appear in no clip's title or tags. A sentence without content words
 * ("So here it is.") is not listed: no clip could match it.
 */
export function unmatchedSentences(
  sentences: readonly string[],
  clips: readonly { title: string; tags: readonly string[] }[],
): UnmatchedSentence[] {
  const library = new Set(clips.flatMap((clip) => contentStems([clip.title, ...clip.tags].join(' '))));
  return sentences.flatMap((sentence, index) => {
    const stems = new Set(contentStems(sentence));
    if (stems.size === 0 || [...stems].some((s) => library.has(s))) return [];
    return [{ index, sentence, words: wordsOfStems(sentence, stems) }];
  });
}
