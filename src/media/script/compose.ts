// Picks one line per beat (or leaves optional beats out) so the script lands on its word budget:
// a small dynamic program over the running word count, trading distance from the target against
// wording preferences and the importance of each beat.
import { countWords } from './budget.ts';

export interface Candidate {
  text: string;
  words: number;
  /** Lower is preferred: seeded order and style fit. */
  penalty: number;
}

export interface BeatOptions {
  id: string;
  candidates: Candidate[];
  /** Cost of leaving the beat out; absent when the beat must be said. */
  omitPenalty?: number;
}

export function candidate(text: string, penalty: number): Candidate {
  return { text, words: countWords(text), penalty };
}

/** Off by up to 3% costs little; up to 8% costs more; beyond that only as a last resort. */
function distanceCost(sum: number, target: number): number {
  const d = Math.abs(sum - target);
  const rel = d / Math.max(target, 1);
  if (rel <= 0.03) return d * 0.3;
  if (rel <= 0.08) return 5 + d * 2;
  return 1000 + d * 10;
}

/**
 * A small automaton over the lines said so far, for rules a word count cannot see ("name the subject at
 * least once", "never say the claim twice in a row"). States are 0 … size-1.
 */
export interface LineRule {
  size: number;
  initial: number;
  /** The state after saying `text`, or -1 when the line may not be said here. */
  step(state: number, text: string): number;
  accepts(state: number): boolean;
}

/**
 * The chosen candidate index per beat (-1 = left out) that best fits `target` words while following `rule`
 * (when no choice can follow it, the best choice by words alone).
 */
export function fitToBudget(beats: readonly BeatOptions[], target: number, rule?: LineRule): number[] {
  const maxSum = beats.reduce((s, b) => s + Math.max(0, ...b.candidates.map((c) => c.words)), 0);
  const width = maxSum + 1;
  const size = rule?.size ?? 1;
  // A DP state is sum + width × rule state.
  let cost = new Float64Array(size * width).fill(Infinity);
  let active = [width * (rule?.initial ?? 0)];
  cost[active[0]!] = 0;
  const picks: Int16Array[] = [];
  const froms: Int32Array[] = [];
  for (const beat of beats) {
    const next = new Float64Array(size * width).fill(Infinity);
    const pick = new Int16Array(size * width).fill(-2);
    const from = new Int32Array(size * width).fill(-1);
    const reached: number[] = [];
    const relax = (to: number, value: number, k: number, state: number): void => {
      if (next[to] === Infinity) reached.push(to);
      if (value < next[to]!) {
        next[to] = value;
        pick[to] = k;
        from[to] = state;
      }
    };
    for (const state of active) {
      const base = cost[state]!;
      const sum = state % width;
      const ruleState = Math.floor(state / width);
      if (beat.omitPenalty !== undefined) relax(state, base + beat.omitPenalty, -1, state);
      beat.candidates.forEach((c, k) => {
        const nextRule = rule ? rule.step(ruleState, c.text) : 0;
        if (nextRule >= 0) relax(sum + c.words + width * nextRule, base + c.penalty, k, state);
      });
    }
    picks.push(pick);
    froms.push(from);
    cost = next;
    active = reached;
  }
  const best = (acceptOnly: boolean): number => {
    let at = -1;
    let bestCost = Infinity;
    for (let state = 0; state < size * width; state++) {
      if (acceptOnly && rule && !rule.accepts(Math.floor(state / width))) continue;
      const c = cost[state]! + distanceCost(state % width, target);
      if (c < bestCost) {
        bestCost = c;
        at = state;
      }
    }
    return at;
  };
  let state = best(true);
  if (state < 0) state = best(false);
  const chosen = new Array<number>(beats.length).fill(-1);
  for (let i = beats.length - 1; i >= 0 && state >= 0; i--) {
    chosen[i] = picks[i]![state]!;
    state = froms[i]![state]!;
  }
  return chosen;
}

function opener(text: string): string {
  return (text.match(/^[\p{L}'’]+/u)?.[0] ?? '').toLowerCase();
}

/** Total words of a choice. */
export function totalWords(beats: readonly BeatOptions[], chosen: readonly number[]): number {
  return chosen.reduce((sum, k, i) => sum + (k >= 0 ? beats[i]!.candidates[k]!.words : 0), 0);
}

/**
 * Swaps lines so that no line is said twice, neighbouring lines do not open with the same word and no
 * opener is used more than twice. The total stays within 5% of the target (or where it already was, if
 * that is further). `keep` says whether a swap keeps the other rules (such as those of a LineRule).
 */
export function diversify(
  beats: readonly BeatOptions[],
  chosen: number[],
  target: number,
  keep: (texts: string[]) => boolean = () => true,
): number[] {
  const out = [...chosen];
  const start = totalWords(beats, chosen);
  const band = Math.max(Math.abs(start - target), Math.floor(target * 0.05));
  let drift = 0;
  const used = new Map<string, number>();
  const said = new Set<string>();
  let previous = '';
  const texts = (): string[] => out.flatMap((k, i) => (k >= 0 ? [beats[i]!.candidates[k]!.text] : []));
  const fits = (text: string): boolean => {
    if (said.has(text)) return false;
    const word = opener(text);
    return word === '' || (word !== previous && (used.get(word) ?? 0) < 2);
  };
  beats.forEach((beat, i) => {
    const k = out[i]!;
    if (k < 0) return;
    const current = beat.candidates[k]!;
    if (!fits(current.text)) {
      const alternatives = beat.candidates
        .map((c, j) => ({ c, j }))
        .filter(({ c, j }) => j !== k && fits(c.text))
        .filter(({ c }) => Math.abs(start + drift + c.words - current.words - target) <= band)
        .sort(
          (a, b) =>
            Math.abs(a.c.words - current.words) - Math.abs(b.c.words - current.words) ||
            a.c.penalty - b.c.penalty,
        );
      for (const alt of alternatives) {
        out[i] = alt.j;
        if (keep(texts())) {
          drift += alt.c.words - current.words;
          break;
        }
        out[i] = k;
      }
    }
    const text = beat.candidates[out[i]!]!.text;
    said.add(text);
    const word = opener(text);
    if (word) used.set(word, (used.get(word) ?? 0) + 1);
    previous = word;
  });
  return out;
}
