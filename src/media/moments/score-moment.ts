// The viral score of one candidate moment: ten measurable signals (0–1 each) weighted into 0–100 points.
import type { WordTiming } from '../types.ts';
import { focusRelevance } from './focus.ts';
import {
  blocksIn,
  integratedLufs,
  loudnessSpread,
  SILENT_LUFS,
  type LoudnessBlock,
} from './loudness-track.ts';
import { FOCUS_SHARE, MOMENT_LENGTH, SIGNAL_RULES, SIGNALS, type Signal } from './score-weights.ts';
import type { SpeechUnit } from './speech-units.ts';
import {
  countEmotion,
  countNumbers,
  countPhrases,
  CLAIM_PHRASES,
  firstPhrase,
  HOOK_PHRASES,
} from './text-signals.ts';

export interface ScoreContext {
  words: readonly WordTiming[];
  loudness: readonly LoudnessBlock[];
  /** Integrated loudness of the whole source, LUFS. */
  sourceLufs: number;
  weights: Readonly<Record<Signal, number>>;
  focusTerms: readonly string[];
}

export interface MomentScore {
  signals: Record<Signal, number>;
  /** 0–1; 0 without focus terms. */
  relevance: number;
  viralScore: number;
  /** The score before rounding, for ordering moments. */
  exactScore: number;
  /** Points each signal (and `focus`) contributed; they add up to the score (before rounding). */
  breakdown: Record<string, number>;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** 1 − exp(−density ÷ scale): near-linear for sparse mentions, saturating for dense ones. */
function saturate(density: number, scale: number): number {
  return 1 - Math.exp(-density / scale);
}

/** Linear ramp: 0 at `from`, 1 at `to` (either direction). */
function ramp(x: number, from: number, to: number): number {
  return clamp01((x - from) / (to - from));
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** 0–1 strength of the opening line (first words of the moment). */
export function hookSignal(
  opening: readonly string[],
  openingIsQuestion: boolean,
  startsOnConnective: boolean,
): number {
  if (startsOnConnective || opening.length === 0) return 0;
  const r = SIGNAL_RULES.hook;
  let s = 0;
  if (openingIsQuestion) s += r.question;
  const phraseAt = firstPhrase(opening, HOOK_PHRASES);
  if (phraseAt >= 0) s += phraseAt < 3 ? r.phraseAtStart : r.phraseLater;
  if (opening.includes('you') || opening.includes('your')) s += r.youAddress;
  if (countNumbers(opening) > 0) s += r.number;
  if (countEmotion(opening) > 0) s += r.emotion;
  if (countPhrases(opening, CLAIM_PHRASES) > 0) s += r.claim;
  return clamp01(s);
}

export function speechRateSignal(wordsPerSec: number): number {
  const r = SIGNAL_RULES.speechRate;
  if (wordsPerSec <= r.idealMaxWps) return ramp(wordsPerSec, r.slowWps, r.idealMinWps);
  return 1 - (1 - r.fastScore) * ramp(wordsPerSec, r.idealMaxWps, r.fastWps);
}

export function lengthSignal(durationSec: number): number {
  const m = MOMENT_LENGTH;
  if (durationSec < m.idealMinSec)
    return m.edgeScore + (1 - m.edgeScore) * ramp(durationSec, m.minSec, m.idealMinSec);
  if (durationSec > m.idealMaxSec)
    return m.edgeScore + (1 - m.edgeScore) * ramp(durationSec, m.maxSec, m.idealMaxSec);
  return 1;
}

/** Level against the whole source plus the spread of momentary loudness (expressive delivery). */
export function energySignal(segmentLufs: number, sourceLufs: number, spreadLu: number): number {
  if (segmentLufs <= SILENT_LUFS || sourceLufs <= SILENT_LUFS) return 0;
  const r = SIGNAL_RULES.energy;
  const level = ramp(segmentLufs - sourceLufs, r.quietLu, r.loudLu);
  return r.levelPart * level + (1 - r.levelPart) * clamp01(spreadLu / r.spreadFullLu);
}

/** 1 − the share of the moment spent in dull runs (units saying nothing measurable) beyond the tolerated length. */
export function consistencySignal(span: readonly SpeechUnit[], durationSec: number): number {
  const tolerated = SIGNAL_RULES.consistency.toleratedSec;
  let dull = 0;
  let runStart: number | null = null;
  let runEnd = 0;
  const close = () => {
    if (runStart !== null) dull += Math.max(0, runEnd - runStart - tolerated);
    runStart = null;
  };
  for (const unit of span) {
    if (unit.question || unit.numbers > 0 || unit.emotion > 0 || unit.claims > 0) close();
    else {
      runStart ??= unit.start;
      runEnd = unit.end;
    }
  }
  close();
  return clamp01(1 - dull / durationSec);
}

function boundarySignal(first: SpeechUnit, last: SpeechUnit, atSourceStart: boolean): number {
  const r = SIGNAL_RULES.boundaries;
  const cleanBefore = atSourceStart || first.gapBefore >= r.cleanGapSec;
  let start = cleanBefore ? 1 : r.shortGapScore;
  if (first.startsOnConnective) start = r.connectiveStartScore;
  let end = last.endsSentence || last.gapAfter >= r.cleanGapSec ? 1 : r.shortGapScore;
  if (last.endsDangling) end = r.danglingEndScore;
  return (start + end) / 2;
}

/** Scores the moment made of units[i..j]. */
export function scoreMoment(
  units: readonly SpeechUnit[],
  i: number,
  j: number,
  ctx: ScoreContext,
): MomentScore {
  const first = units[i]!;
  const last = units[j]!;
  const span = units.slice(i, j + 1);
  const durationSec = Math.max(0.1, last.end - first.start);
  const per30 = 30 / durationSec;
  const tokens = span.flatMap((u) => u.tokens);
  const sum = (pick: (u: SpeechUnit) => number) => span.reduce((s, u) => s + pick(u), 0);
  const rules = SIGNAL_RULES;

  let deadAir = 0;
  let topicBreaks = 0;
  for (let k = first.first; k < last.last; k++) {
    const gap = ctx.words[k + 1]!.start - ctx.words[k]!.end;
    deadAir += Math.max(0, gap - rules.pauses.deadAirSec);
    if (gap >= rules.pauses.topicBreakSec) topicBreaks++;
  }
  const blocks = blocksIn(ctx.loudness, first.start, last.end);

  const signals: Record<Signal, number> = {
    hook: hookSignal(tokens.slice(0, rules.openingWords), first.question, first.startsOnConnective),
    questions: saturate(sum((u) => (u.question ? 1 : 0)) * per30, rules.densityScale.questions),
    claims: saturate(sum((u) => u.claims) * per30, rules.densityScale.claims),
    numbers: saturate(sum((u) => u.numbers) * per30, rules.densityScale.numbers),
    emotion: saturate(sum((u) => u.emotion) * per30, rules.densityScale.emotion),
    speechRate: speechRateSignal(tokens.length / durationSec),
    energy: energySignal(integratedLufs(blocks), ctx.sourceLufs, loudnessSpread(blocks)),
    pauses: clamp01(
      1 -
        (deadAir / durationSec) * rules.pauses.deadAirCost -
        (sum((u) => u.fillers) / Math.max(1, tokens.length)) * rules.pauses.fillerCost -
        topicBreaks * rules.pauses.topicBreakCost,
    ),
    boundaries: boundarySignal(first, last, first.first === 0),
    length: lengthSignal(durationSec),
    consistency: consistencySignal(span, durationSec),
  };

  const relevance = focusRelevance(tokens, ctx.focusTerms, durationSec);
  const signalShare = ctx.focusTerms.length > 0 ? 1 - FOCUS_SHARE : 1;
  const breakdown: Record<string, number> = {};
  let total = 0;
  for (const s of SIGNALS) {
    const points = ctx.weights[s] * signals[s] * signalShare;
    breakdown[s] = round1(points);
    total += points;
  }
  if (ctx.focusTerms.length > 0) {
    const points = FOCUS_SHARE * 100 * relevance;
    breakdown.focus = round1(points);
    total += points;
  }
  return { signals, relevance, viralScore: Math.round(total), exactScore: total, breakdown };
}
