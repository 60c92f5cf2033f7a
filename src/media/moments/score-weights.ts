// Every number that decides which moments of a long video become clips, in one place. docs/clip-scoring.md
// explains each signal; change a weight here and the documentation there together.

/** The measured signals of a moment, each 0–1. */
export const SIGNALS = [
  'hook',
  'questions',
  'claims',
  'numbers',
  'emotion',
  'speechRate',
  'energy',
  'pauses',
  'boundaries',
  'length',
  'consistency',
] as const;
export type Signal = (typeof SIGNALS)[number];

/** Points each signal is worth at 1.0; they add up to 100, so the viral score is 0–100. */
export const BASE_WEIGHTS: Readonly<Record<Signal, number>> = {
  hook: 18,
  questions: 8,
  claims: 10,
  numbers: 9,
  emotion: 11,
  speechRate: 7,
  energy: 8,
  pauses: 8,
  boundaries: 9,
  length: 4,
  consistency: 8,
};

/**
 * How `content_purpose` steers the pick: multipliers on the base weights, after which the weights are scaled
 * back to a sum of 100. An unknown or absent purpose uses the base weights.
 */
export const PURPOSE_MULTIPLIERS: Readonly<Record<string, Partial<Record<Signal, number>>>> = {
  education: { questions: 1.4, numbers: 1.3, claims: 1.2, emotion: 0.7 },
  sales: { hook: 1.2, claims: 1.3, numbers: 1.2 },
  awareness: { emotion: 1.3, claims: 1.2, questions: 1.1 },
  product_demo: { numbers: 1.2, claims: 1.2, questions: 1.1, emotion: 0.7, energy: 0.8 },
  case_study: { numbers: 1.5, claims: 1.2, emotion: 0.8 },
  news: { numbers: 1.4, claims: 1.3, emotion: 0.8, questions: 0.8 },
  entertainment: { emotion: 1.5, energy: 1.4, speechRate: 1.2, numbers: 0.6, claims: 0.8 },
};

/**
 * With a `focus`, the final score is (1 − FOCUS_SHARE) × the signal score + FOCUS_SHARE × 100 × relevance,
 * and moments that share no word with the focus are dropped (unless none shares one).
 */
export const FOCUS_SHARE = 0.3;
/** Relevance = COVERAGE × share of focus terms said + (1 − COVERAGE) × mention density (saturating). */
export const FOCUS_COVERAGE_PART = 0.7;
/** Focus-term mentions per 30 s that count as fully dense. */
export const FOCUS_MENTIONS_PER_30S = 3;

/** Where the transcript is cut into units (sentence-like pieces). */
export const UNIT_RULES = {
  /** A silence at least this long (s) ends a unit even without punctuation. */
  pauseSec: 0.25,
  /** A unit longer than this (s) is split at its longest inner silences. */
  maxUnitSec: 15,
} as const;

/** Length of a moment, first word to last word (s). */
export const MOMENT_LENGTH = {
  minSec: 15,
  maxSec: 60,
  /** Length signal is 1 inside this range and falls to `edgeScore` at min and max. */
  idealMinSec: 20,
  idealMaxSec: 45,
  edgeScore: 0.6,
  /** When no 15 s moment exists (little speech), moments down to this length are allowed. */
  fallbackMinSec: 6,
} as const;

/**
 * Picking clips: the best moment is always delivered; later ones only when they score at least this. Fluent
 * speech that says nothing measurable scores about 35–42 from its structure alone (rate, pauses, clean cuts).
 */
export const MIN_EXTRA_CLIP_SCORE = 45;

/** Signal shapes. Densities are per 30 s of moment, so a long moment is not favoured for being long. */
export const SIGNAL_RULES = {
  /** Words of the opening line that the hook signal reads. */
  openingWords: 12,
  hook: {
    question: 0.45,
    /** A hook phrase among the first three words, or later in the opening line. */
    phraseAtStart: 0.45,
    phraseLater: 0.25,
    youAddress: 0.15,
    number: 0.2,
    emotion: 0.2,
    claim: 0.1,
  },
  /**
   * Mention densities saturate: signal = 1 − exp(−mentions per 30 s ÷ scale), so one mention in 30 s gives
   * about 0.2–0.3 and the signal nears 1 only for dense talk, and padding a strong passage with filler lowers it.
   */
  densityScale: { questions: 1.5, claims: 3, numbers: 3, emotion: 3 },
  /** Words per second: 0 below `slowWps`, rising to 1 at `idealMinWps`, 1 up to `idealMaxWps`, then down to `fastScore` at `fastWps`. */
  speechRate: { slowWps: 1.5, idealMinWps: 2.5, idealMaxWps: 3.8, fastWps: 5, fastScore: 0.6 },
  /** Loudness relative to the whole source (LU): `quietLu` → 0, `loudLu` → 1; and the spread of momentary loudness. */
  energy: { quietLu: -4, loudLu: 2, levelPart: 0.7, spreadFullLu: 6 },
  /**
   * Silence beyond `deadAirSec` in one gap is dead air; its share of the moment and the filler rate cost. A
   * silence of `topicBreakSec` or more inside the moment usually starts another thought: each costs `topicBreakCost`.
   */
  pauses: { deadAirSec: 0.7, deadAirCost: 4, fillerCost: 8, topicBreakSec: 1, topicBreakCost: 0.3 },
  /** Time in runs of units without any question, number, claim or emotion word, beyond `toleratedSec` per run, costs its share of the moment. */
  consistency: { toleratedSec: 5 },
  /** A cut in a silence at least this long (s) counts as fully clean. */
  boundaries: { cleanGapSec: 0.5, shortGapScore: 0.6, connectiveStartScore: 0, danglingEndScore: 0.3 },
} as const;

/** Weights for a content purpose, scaled to sum to 100. */
export function weightsFor(contentPurpose?: string): Record<Signal, number> {
  const multipliers = (contentPurpose && PURPOSE_MULTIPLIERS[contentPurpose]) || {};
  const raw = SIGNALS.map((s) => BASE_WEIGHTS[s] * (multipliers[s] ?? 1));
  const total = raw.reduce((a, b) => a + b, 0);
  return Object.fromEntries(SIGNALS.map((s, i) => [s, (raw[i]! * 100) / total])) as Record<Signal, number>;
}
