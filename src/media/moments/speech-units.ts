// Speech units: the sentence-like pieces a transcript is cut into, at sentence punctuation (when the
// recognizer gives it) and at pauses (always). Moments are built from whole units, so a clip never starts or
// ends inside one.
import type { WordTiming } from '../types.ts';
import {
  CONNECTIVES,
  DANGLING_ENDS,
  countEmotion,
  countFillers,
  countNumbers,
  countPhrases,
  CLAIM_PHRASES,
  isQuestion,
  normalizeToken,
} from './text-signals.ts';
import { UNIT_RULES } from './score-weights.ts';

export interface SpeechUnit {
  /** Index of the unit's first and last word in the transcript. */
  first: number;
  last: number;
  start: number;
  end: number;
  /** Silence before the first word (from the previous word's end, or from 0) and after the last one. */
  gapBefore: number;
  gapAfter: number;
  /** Normalized tokens, one per word. */
  tokens: string[];
  /** Ends with . ! ? (as written by the recognizer). */
  endsSentence: boolean;
  question: boolean;
  numbers: number;
  emotion: number;
  claims: number;
  fillers: number;
  /** Opens on a connective or filler ("and", "so", "um"): starting a clip here leaves it dangling. */
  startsOnConnective: boolean;
  /** Ends on an article, preposition or conjunction. */
  endsDangling: boolean;
}

const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

/** Word indexes after which a unit ends: sentence punctuation or a pause of at least `pauseSec`. */
function breakPoints(words: readonly WordTiming[], pauseSec: number): number[] {
  const breaks: number[] = [];
  for (let i = 0; i < words.length - 1; i++) {
    const gap = words[i + 1]!.start - words[i]!.end;
    if (SENTENCE_END.test(words[i]!.word.trim()) || gap >= pauseSec) breaks.push(i);
  }
  breaks.push(words.length - 1);
  return breaks;
}

/** Splits [first, last] at its longest inner gaps until no piece lasts longer than `maxSec`. */
function splitLong(
  words: readonly WordTiming[],
  first: number,
  last: number,
  maxSec: number,
): [number, number][] {
  if (last <= first || words[last]!.end - words[first]!.start <= maxSec) return [[first, last]];
  let cut = first;
  let widest = -Infinity;
  for (let i = first; i < last; i++) {
    const gap = words[i + 1]!.start - words[i]!.end;
    // Ties go to the cut nearest the middle, so pieces stay balanced.
    const middle = Math.abs(i - (first + last) / 2);
    if (
      gap > widest + 1e-9 ||
      (Math.abs(gap - widest) <= 1e-9 && middle < Math.abs(cut - (first + last) / 2))
    ) {
      widest = gap;
      cut = i;
    }
  }
  return [...splitLong(words, first, cut, maxSec), ...splitLong(words, cut + 1, last, maxSec)];
}

function describeUnit(
  words: readonly WordTiming[],
  first: number,
  last: number,
  durationSec: number,
): SpeechUnit {
  const slice = words.slice(first, last + 1);
  const tokens = slice.map((w) => normalizeToken(w.word));
  const rawLast = slice[slice.length - 1]!.word.trim();
  const endsSentence = SENTENCE_END.test(rawLast);
  const previousEnd = first > 0 ? words[first - 1]!.end : 0;
  const nextStart =
    last < words.length - 1 ? words[last + 1]!.start : Math.max(durationSec, words[last]!.end);
  const lastToken = tokens[tokens.length - 1] ?? '';
  return {
    first,
    last,
    start: words[first]!.start,
    end: words[last]!.end,
    gapBefore: Math.max(0, words[first]!.start - previousEnd),
    gapAfter: Math.max(0, nextStart - words[last]!.end),
    tokens,
    endsSentence,
    question: isQuestion(rawLast, tokens, endsSentence),
    numbers: countNumbers(tokens),
    emotion: countEmotion(tokens),
    claims: countPhrases(tokens, CLAIM_PHRASES),
    fillers: countFillers(tokens),
    startsOnConnective: CONNECTIVES.has(tokens[0] ?? ''),
    endsDangling: !endsSentence && DANGLING_ENDS.has(lastToken),
  };
}

/**
 * Cuts a transcript into units. Words with nothing left after normalization (stray punctuation) stay inside
 * the unit they fall in. `durationSec` is the length of the audio, for the silence after the last word.
 */
export function splitSpeechUnits(words: readonly WordTiming[], durationSec: number): SpeechUnit[] {
  if (words.length === 0) return [];
  const units: SpeechUnit[] = [];
  let first = 0;
  for (const end of breakPoints(words, UNIT_RULES.pauseSec)) {
    for (const [a, b] of splitLong(words, first, end, UNIT_RULES.maxUnitSec)) {
      units.push(describeUnit(words, a, b, durationSec));
    }
    first = end + 1;
  }
  return units;
}
