// Word budgets for narration: how many words fit a target duration at a given voice speed, and
// whether a script the user sent fits the longest video we render.

/** Words a narrator reads at speed 1.0, measured at these durations (seconds → words). */
const ANCHORS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [15, 25],
  [30, 65],
  [45, 100],
  [60, 135],
];
/** Past the last anchor, narration runs at the steady reading rate. */
const WORDS_PER_SEC_AFTER_LAST_ANCHOR = 2.2;

export const MIN_DURATION_SEC = 15;
export const MAX_DURATION_SEC = 120;
export const DEFAULT_DURATION_SEC = 30;
export const MIN_VOICE_SPEED = 0.7;
export const MAX_VOICE_SPEED = 1.3;
/** A generated script may land this far (as a fraction) either side of its target word count. */
export const BUDGET_TOLERANCE = 0.1;

export interface ScriptBudget {
  durationSec: number;
  voiceSpeed: number;
  targetWords: number;
  minWords: number;
  maxWords: number;
}

export interface SentScriptCheck {
  ok: boolean;
  words: number;
  estimatedSec: number;
  /** Most words a sent script may have at this voice speed (the budget of a 120 s video). */
  maxWords: number;
}

/** Counts spoken words: whitespace- or dash-separated tokens holding at least one letter or digit. */
export function countWords(text: string): number {
  let n = 0;
  for (const token of text.split(/[\s\u2013\u2014]+/)) if (/[\p{L}\p{N}]/u.test(token)) n++;
  return n;
}

function wordsAtSpeedOne(durationSec: number): number {
  for (let i = 1; i < ANCHORS.length; i++) {
    const [d1, w1] = ANCHORS[i]!;
    if (durationSec <= d1) {
      const [d0, w0] = ANCHORS[i - 1]!;
      return w0 + ((durationSec - d0) * (w1 - w0)) / (d1 - d0);
    }
  }
  const [dl, wl] = ANCHORS[ANCHORS.length - 1]!;
  return wl + (durationSec - dl) * WORDS_PER_SEC_AFTER_LAST_ANCHOR;
}

function secondsAtSpeedOne(words: number): number {
  for (let i = 1; i < ANCHORS.length; i++) {
    const [d1, w1] = ANCHORS[i]!;
    if (words <= w1) {
      const [d0, w0] = ANCHORS[i - 1]!;
      return d0 + ((words - w0) * (d1 - d0)) / (w1 - w0);
    }
  }
  const [dl, wl] = ANCHORS[ANCHORS.length - 1]!;
  return dl + (words - wl) / WORDS_PER_SEC_AFTER_LAST_ANCHOR;
}

function checkSpeed(voiceSpeed: number): void {
  if (!(voiceSpeed >= MIN_VOICE_SPEED && voiceSpeed <= MAX_VOICE_SPEED)) {
    throw new RangeError(
      `voiceSpeed must be between ${MIN_VOICE_SPEED} and ${MAX_VOICE_SPEED}, got ${voiceSpeed}`,
    );
  }
}

/** The word budget of a generated script: faster voices fit proportionally more words. */
export function scriptBudget(opts: { durationSec?: number; voiceSpeed?: number }): ScriptBudget {
  const durationSec = opts.durationSec ?? DEFAULT_DURATION_SEC;
  const voiceSpeed = opts.voiceSpeed ?? 1;
  if (!(durationSec >= MIN_DURATION_SEC && durationSec <= MAX_DURATION_SEC)) {
    throw new RangeError(
      `durationSec must be between ${MIN_DURATION_SEC} and ${MAX_DURATION_SEC}, got ${durationSec}`,
    );
  }
  checkSpeed(voiceSpeed);
  const targetWords = Math.round(wordsAtSpeedOne(durationSec) * voiceSpeed);
  return {
    durationSec,
    voiceSpeed,
    targetWords,
    minWords: Math.ceil(targetWords * (1 - BUDGET_TOLERANCE)),
    maxWords: Math.floor(targetWords * (1 + BUDGET_TOLERANCE)),
  };
}

/** Seconds a narrator needs for this many words at this voice speed. */
export function estimateSeconds(words: number, voiceSpeed = 1): number {
  checkSpeed(voiceSpeed);
  return Math.round(secondsAtSpeedOne(words / voiceSpeed) * 10) / 10;
}

/** A sent script is never cut: it fits when its narration lasts at most MAX_DURATION_SEC. */
export function checkSentScript(script: string, voiceSpeed = 1): SentScriptCheck {
  checkSpeed(voiceSpeed);
  const words = countWords(script);
  const maxWords = Math.floor(wordsAtSpeedOne(MAX_DURATION_SEC) * voiceSpeed);
  return {
    ok: words > 0 && words <= maxWords,
    words,
    estimatedSec: estimateSeconds(words, voiceSpeed),
    maxWords,
  };
}

/** A sent script longer than the longest video; carries the numbers the API reports back. */
export class ScriptTooLongError extends Error {
  readonly words: number;
  readonly maxWords: number;
  readonly estimatedSec: number;
  constructor(check: SentScriptCheck) {
    super(
      `The script has ${check.words} words (about ${check.estimatedSec} s of narration); ` +
        `at this voice speed at most ${check.maxWords} words fit the ${MAX_DURATION_SEC} s limit.`,
    );
    this.name = 'ScriptTooLongError';
    this.words = check.words;
    this.maxWords = check.maxWords;
    this.estimatedSec = check.estimatedSec;
  }
}
