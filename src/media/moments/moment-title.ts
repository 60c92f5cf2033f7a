// A clip title made of the clip's own words: its opening line when that is a hook, else its most telling
// sentence, trimmed to a short line that does not end on a dangling word.
import type { WordTiming } from '../types.ts';
import type { SpeechUnit } from './speech-units.ts';
import { CONNECTIVES, DANGLING_ENDS, normalizeToken } from './text-signals.ts';

const MAX_TITLE_WORDS = 10;
const MAX_TITLE_CHARS = 90;
/** Opening lines at least this strong as hooks become the title. */
const HOOK_TITLE_MIN = 0.45;
const FILLER_TOKENS = new Set(['um', 'uh', 'er', 'erm', 'hmm', 'ah']);

/** How much a unit says: questions, numbers, emotion and claims, per word of it. */
function salience(unit: SpeechUnit): number {
  return (unit.question ? 2 : 0) + unit.numbers + unit.emotion + unit.claims;
}

function titleUnit(units: readonly SpeechUnit[], hook: number): SpeechUnit {
  const opening = units[0]!;
  if (hook >= HOOK_TITLE_MIN && opening.tokens.length >= 3) return opening;
  let best = opening;
  for (const unit of units) {
    // Very short units ("Wow.") make poor titles on their own.
    if (unit.tokens.length < 3) continue;
    if (best.tokens.length < 3 || salience(unit) > salience(best)) best = unit;
  }
  return best;
}

function capitalize(text: string): string {
  const fixed = text.replace(/\bi\b/g, 'I').replace(/\bi'(m|ve|ll|d)\b/g, "I'$1");
  return fixed.charAt(0).toUpperCase() + fixed.slice(1);
}

/** The title for a moment made of `units` (in order) over `words`. */
export function momentTitle(
  units: readonly SpeechUnit[],
  words: readonly WordTiming[],
  hook: number,
): string {
  const unit = titleUnit(units, hook);
  let picked = words.slice(unit.first, unit.last + 1).map((w) => w.word.trim());
  picked = picked.filter((w) => !FILLER_TOKENS.has(normalizeToken(w)) && normalizeToken(w) !== '');
  while (picked.length > 1 && CONNECTIVES.has(normalizeToken(picked[0]!))) picked.shift();
  const truncated = picked.length > MAX_TITLE_WORDS;
  if (truncated) picked = picked.slice(0, MAX_TITLE_WORDS);
  while (picked.length > 1 && DANGLING_ENDS.has(normalizeToken(picked[picked.length - 1]!))) picked.pop();
  let title = picked.join(' ');
  while (title.length > MAX_TITLE_CHARS && picked.length > 1) {
    picked.pop();
    title = picked.join(' ');
  }
  // Titles carry no closing period; a question keeps (or gains) its question mark.
  title = title.replace(/[\s,;:.…]+$/u, '');
  if (unit.question && !truncated && !title.endsWith('?')) title += '?';
  if (truncated) title += '…';
  return capitalize(title);
}
