// Every number of the hook scoring model (hook-scorer.ts), in one place and in docs/signals.md.
// A hook's score is the weighted sum of five signals, each 0-1; the weights add up to 1.

export const HOOK_SIGNAL_WEIGHTS = {
  /** Fits the platform's first glance (hook-platforms.ts). */
  length: 0.25,
  /** Leaves something unanswered: a question, an open loop, tension. */
  curiosity: 0.25,
  /** Names the topic, a number, words that carry content. */
  specificity: 0.2,
  /** Talks to the viewer: "you", or an imperative. */
  second_person: 0.15,
  /** Flesch Reading Ease (readability.ts) divided by 100, capped to 0-1. */
  reading_ease: 0.15,
} as const;
export type HookSignal = keyof typeof HOOK_SIGNAL_WEIGHTS;

/**
 * Length: 1 inside the platform's ideal word range; outside it, falling linearly to 0 at no words and at this
 * many times the maximum; 0 past the platform's character limit.
 */
export const LENGTH = { zeroAtMaxWordsTimes: 2 } as const;

/** Curiosity: the parts add up, capped at 1. */
export const CURIOSITY = {
  question: 0.4,
  /** Promises what comes next without giving it away. */
  openLoop: 0.35,
  openLoopCues: [
    // "here's" is matched as "here": a possessive or contracted "'s" is dropped before matching.
    'here',
    'this',
    'these',
    'the other side',
    'find out',
    'until',
    'what if',
    'the story',
    'it all starts',
    'what it takes',
    'after this',
  ],
  /** Says something is at stake. */
  tension: 0.25,
  tensionCues: [
    'wrong',
    'mistake',
    'mistakes',
    'missing',
    'stop',
    "don't",
    'forget',
    'never',
    'secret',
    'nobody',
    'hard way',
    'confused',
  ],
} as const;

/** Specificity: the parts add up, less the vague words, within 0-1. */
export const SPECIFICITY = {
  /** A number, in digits or words. */
  number: 0.35,
  /** The share of the topic's key-phrase words the hook contains, times this. */
  keyPhrase: 0.35,
  /** The share of the hook's words that are not stop words, times this. */
  contentDensity: 0.3,
  /** Taken off for each word that stands for nothing in particular. */
  vaguePenalty: 0.1,
  vagueWords: ['thing', 'things', 'stuff', 'something', 'everything', 'anything'],
} as const;

/** Second person: "you" and its forms score full; an opening imperative ("Stop…", "Don't…") this much. */
export const SECOND_PERSON = {
  you: 1,
  imperative: 0.6,
} as const;

/**
 * Two hooks are alike when their content words (stop words and the topic's own words left out, a plural
 * "-s" dropped) overlap this much (Jaccard: shared ÷ all); the lower-scoring one is dropped.
 */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;
