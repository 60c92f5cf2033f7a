// From a timed transcript to the best non-overlapping moments: candidates are runs of whole speech units
// 15–60 s long, each scored (score-moment.ts), filtered by focus, and picked greedily from the top.
import type { WordTiming } from '../types.ts';
import { focusTerms } from './focus.ts';
import { integratedLufs, type LoudnessBlock } from './loudness-track.ts';
import { momentTitle } from './moment-title.ts';
import { scoreMoment, type MomentScore, type ScoreContext } from './score-moment.ts';
import { MIN_EXTRA_CLIP_SCORE, MOMENT_LENGTH, weightsFor, type Signal } from './score-weights.ts';
import { splitSpeechUnits, type SpeechUnit } from './speech-units.ts';

export interface FindMomentsInput {
  words: readonly WordTiming[];
  /** Length of the source audio, s. */
  durationSec: number;
  /** ebur128 momentary blocks of the source audio (may be empty: the energy signal is then 0). */
  loudness: readonly LoudnessBlock[];
  clipCount: number;
  focus?: string;
  contentPurpose?: string;
}

export interface Moment {
  /** First word's start and last word's end, s in the source. */
  startSec: number;
  endSec: number;
  durationSec: number;
  /** Silence around the moment (s): how far a clip may be padded without reaching another word. */
  gapBefore: number;
  gapAfter: number;
  /** Index of the first and last word in the transcript. */
  firstWord: number;
  lastWord: number;
  words: WordTiming[];
  title: string;
  transcript: string;
  viralScore: number;
  scoreBreakdown: Record<string, number>;
  signals: Record<Signal, number>;
  /** 0–1 relevance to the focus; 0 without one. */
  relevance: number;
}

interface Candidate {
  i: number;
  j: number;
  score: MomentScore;
}

function candidates(units: readonly SpeechUnit[], minSec: number, ctx: ScoreContext): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i < units.length; i++) {
    for (let j = i; j < units.length; j++) {
      const span = units[j]!.end - units[i]!.start;
      if (span > MOMENT_LENGTH.maxSec) break;
      if (span >= minSec) out.push({ i, j, score: scoreMoment(units, i, j, ctx) });
    }
  }
  return out;
}

/** Best first; equal scores prefer the earlier moment, then the shorter one. */
function byScore(a: Candidate, b: Candidate): number {
  return b.score.exactScore - a.score.exactScore || a.i - b.i || a.j - b.j;
}

function toMoment(units: readonly SpeechUnit[], c: Candidate, words: readonly WordTiming[]): Moment {
  const first = units[c.i]!;
  const last = units[c.j]!;
  const momentWords = words.slice(first.first, last.last + 1).map((w) => ({ ...w }));
  return {
    startSec: first.start,
    endSec: last.end,
    durationSec: last.end - first.start,
    gapBefore: first.gapBefore,
    gapAfter: last.gapAfter,
    firstWord: first.first,
    lastWord: last.last,
    words: momentWords,
    title: momentTitle(units.slice(c.i, c.j + 1), words, c.score.signals.hook),
    transcript: momentWords
      .map((w) => w.word.trim())
      .filter(Boolean)
      .join(' '),
    viralScore: c.score.viralScore,
    scoreBreakdown: c.score.breakdown,
    signals: c.score.signals,
    relevance: c.score.relevance,
  };
}

/**
 * The top `clipCount` non-overlapping moments, best first. Empty when the transcript has no stretch of speech
 * of at least MOMENT_LENGTH.fallbackMinSec. With a focus, only moments that mention it are kept, unless none
 * does (the focus is then ignored rather than returning nothing).
 */
export function findMoments(input: FindMomentsInput): Moment[] {
  const words = input.words.filter((w) => w.word.trim() !== '' && w.end >= w.start);
  const units = splitSpeechUnits(words, input.durationSec);
  if (units.length === 0 || input.clipCount < 1) return [];

  let terms = focusTerms(input.focus);
  const context = (): ScoreContext => ({
    words,
    loudness: input.loudness,
    sourceLufs: integratedLufs(input.loudness),
    weights: weightsFor(input.contentPurpose),
    focusTerms: terms,
  });
  const build = () => {
    const found = candidates(units, MOMENT_LENGTH.minSec, context());
    return found.length > 0 ? found : candidates(units, MOMENT_LENGTH.fallbackMinSec, context());
  };
  let pool = build();
  if (terms.length > 0) {
    const relevant = pool.filter((c) => c.score.relevance > 0);
    if (relevant.length > 0) pool = relevant;
    else {
      terms = [];
      pool = build();
    }
  }

  pool.sort(byScore);
  const picked: Candidate[] = [];
  for (const c of pool) {
    if (picked.length >= input.clipCount) break;
    if (picked.length > 0 && c.score.viralScore < MIN_EXTRA_CLIP_SCORE) break;
    if (picked.some((p) => c.i <= p.j && p.i <= c.j)) continue;
    picked.push(c);
  }
  return picked.map((c) => toMoment(units, c, words));
}
