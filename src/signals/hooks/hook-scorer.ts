// The one scoring model for hooks, whoever wrote them (the local generator or an LLM): five signals, each
// 0-1, weighted by hook-score-weights.ts. `reasons` names every signal that scored, strongest first.
import nlp from 'compromise';
import { isStopWord } from '../../media/script/english.ts';
import { LENGTH_PROFILES, type HookPlatform } from './hook-platforms.ts';
import {
  CURIOSITY,
  HOOK_SIGNAL_WEIGHTS,
  LENGTH,
  SECOND_PERSON,
  SPECIFICITY,
  type HookSignal,
} from './hook-score-weights.ts';
import { readability, wordsIn } from './readability.ts';

export interface ScoringContext {
  platform: HookPlatform;
  keyPhrase: string;
}

export interface SignalValue {
  value: number;
  /** Why it scored, when it did. */
  reason?: string;
}

export interface HookScore {
  score: number;
  reasons: string[];
  signals: Record<HookSignal, number>;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const round = (x: number, places: number): number => Math.round(x * 10 ** places) / 10 ** places;

/** Lower-case words with the possessive "'s" and curly apostrophes normalized: what the cues are matched on. */
export function normalizedWords(text: string): string[] {
  return wordsIn(
    text
      .normalize('NFKC')
      .replace(/\u2019/g, "'")
      .toLowerCase(),
  ).map((w) => w.replace(/'s$/, ''));
}

function containsCue(words: readonly string[], cue: string): boolean {
  const parts = cue.split(' ');
  return words.some((_, i) => parts.every((p, j) => words[i + j] === p));
}

export function lengthSignal(text: string, platform: HookPlatform): SignalValue {
  const { minWords, maxWords, maxChars } = LENGTH_PROFILES[platform];
  const words = wordsIn(text).length;
  const span = `${words} words (ideal ${minWords}-${maxWords})`;
  if (text.length > maxChars) return { value: 0 };
  if (words >= minWords && words <= maxWords) return { value: 1, reason: `fits ${platform}: ${span}` };
  const value =
    words < minWords
      ? words / minWords
      : 1 - (words - maxWords) / (maxWords * LENGTH.zeroAtMaxWordsTimes - maxWords);
  const clamped = clamp01(value);
  return clamped > 0
    ? { value: clamped, reason: `${words < minWords ? 'short' : 'long'} for ${platform}: ${span}` }
    : { value: 0 };
}

export function curiositySignal(text: string): SignalValue {
  const words = normalizedWords(text);
  const parts: string[] = [];
  let value = 0;
  if (text.includes('?')) {
    value += CURIOSITY.question;
    parts.push('asks a question');
  }
  const loop = CURIOSITY.openLoopCues.find((cue) => containsCue(words, cue));
  if (loop) {
    value += CURIOSITY.openLoop;
    parts.push(`opens a loop ("${loop}")`);
  }
  const tension = CURIOSITY.tensionCues.find((cue) => containsCue(words, cue));
  if (tension) {
    value += CURIOSITY.tension;
    parts.push(`adds tension ("${tension}")`);
  }
  return value > 0 ? { value: clamp01(value), reason: `curiosity gap: ${parts.join(', ')}` } : { value: 0 };
}

/** A compromise reading of a hook, shared by the signals that need part-of-speech tags (one parse a hook). */
type Doc = ReturnType<typeof nlp>;

export function specificitySignal(text: string, keyPhrase: string, doc: Doc = nlp(text)): SignalValue {
  const words = normalizedWords(text);
  const parts: string[] = [];
  let value = 0;
  if (doc.has('#Cardinal')) {
    value += SPECIFICITY.number;
    parts.push('names a number');
  }
  const keyWords = [...new Set(normalizedWords(keyPhrase).filter((w) => !isStopWord(w)))];
  if (keyWords.length > 0) {
    const have = new Set(words);
    const share = keyWords.filter((w) => have.has(w)).length / keyWords.length;
    value += SPECIFICITY.keyPhrase * share;
    if (share === 1) parts.push('names the topic');
    else if (share > 0) parts.push(`names ${Math.round(share * 100)}% of the topic`);
  }
  const content = words.filter((w) => !isStopWord(w)).length;
  if (words.length > 0 && content > 0) {
    value += SPECIFICITY.contentDensity * (content / words.length);
    parts.push(`${content} of ${words.length} words carry content`);
  }
  const vague = words.filter((w) => (SPECIFICITY.vagueWords as readonly string[]).includes(w));
  value -= SPECIFICITY.vaguePenalty * vague.length;
  const clamped = clamp01(value);
  return clamped > 0 ? { value: clamped, reason: `specific: ${parts.join('; ')}` } : { value: 0 };
}

export function secondPersonSignal(text: string, doc: Doc = nlp(text)): SignalValue {
  const words = normalizedWords(text);
  const you = words.find((w) => /^(you|your|yours|yourself|you're|you've|you'll|you'd)$/.test(w));
  if (you) return { value: SECOND_PERSON.you, reason: `speaks to the viewer ("${you}")` };
  const first = doc.terms().first();
  if (first.has('#Imperative') || first.has('#Infinitive') || first.has("(don't|do not)"))
    return {
      value: SECOND_PERSON.imperative,
      reason: `addresses the viewer with an imperative ("${first.text()}")`,
    };
  return { value: 0 };
}

export function readingEaseSignal(text: string): SignalValue {
  const ease = readability(text).fleschReadingEase;
  const value = clamp01(ease / 100);
  return value > 0
    ? { value, reason: `reading ease: Flesch ${Math.round(ease)} (${value >= 0.6 ? 'plain' : 'harder'})` }
    : { value: 0 };
}

export function scoreHook(text: string, context: ScoringContext): HookScore {
  const doc = nlp(text);
  const signals: Record<HookSignal, SignalValue> = {
    length: lengthSignal(text, context.platform),
    curiosity: curiositySignal(text),
    specificity: specificitySignal(text, context.keyPhrase, doc),
    second_person: secondPersonSignal(text, doc),
    reading_ease: readingEaseSignal(text),
  };
  const entries = Object.entries(signals) as [HookSignal, SignalValue][];
  const contribution = ([name, s]: [HookSignal, SignalValue]) => HOOK_SIGNAL_WEIGHTS[name] * s.value;
  const score = entries.reduce((sum, entry) => sum + contribution(entry), 0);
  const reasons = entries
    .filter(([, s]) => s.value > 0 && s.reason)
    .sort((a, b) => contribution(b) - contribution(a))
    .map(([, s]) => s.reason!);
  return {
    score: round(score, 3),
    reasons,
    signals: Object.fromEntries(entries.map(([name, s]) => [name, round(s.value, 3)])) as Record<
      HookSignal,
      number
    >,
  };
}
