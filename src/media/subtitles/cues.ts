// Groups timed words into subtitle cues: at most `maxLines` lines of `maxCharsPerLine` characters and
// `maxCueSec` seconds each, cut preferably at sentence ends, clauses and pauses, never inside a word.
import type { WordTiming } from '../types.ts';

export interface Cue {
  start: number;
  end: number;
  lines: string[];
}

export interface CueOptions {
  maxCharsPerLine?: number;
  maxLines?: number;
  maxCueSec?: number;
  /** A shorter cue is held on screen longer, up to the start of the next cue. */
  minCueSec?: number;
  /** A silence at least this long always starts a new cue. */
  pauseSec?: number;
}

interface Settings {
  maxCharsPerLine: number;
  maxLines: number;
  maxCueSec: number;
  minCueSec: number;
  pauseSec: number;
}

function settings(opts: CueOptions): Settings {
  return {
    maxCharsPerLine: opts.maxCharsPerLine ?? 42,
    maxLines: opts.maxLines ?? 2,
    maxCueSec: opts.maxCueSec ?? 6,
    minCueSec: opts.minCueSec ?? 0.7,
    pauseSec: opts.pauseSec ?? 1,
  };
}

const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:\u2013\u2014]["'”’)\]]*$/u;

function textLength(words: readonly string[]): number {
  return words.reduce((sum, w) => sum + w.length, 0) + Math.max(0, words.length - 1);
}

/** Fewest lines that greedy wrapping at `width` needs; a word longer than a line takes a line of its own. */
function lineCount(words: readonly string[], width: number): number {
  let lines = 0;
  let current = -1;
  for (const word of words) {
    if (current >= 0 && current + 1 + word.length <= width) current += 1 + word.length;
    else {
      lines++;
      current = word.length;
    }
  }
  return lines;
}

/**
 * Breaks one cue's words into lines: as few lines as fit `width` (at most `maxLines`), with line lengths as
 * even as possible and a preference for breaking after punctuation. Words are never split.
 */
export function breakLines(words: readonly string[], width: number, maxLines: number): string[] {
  if (words.length === 0) return [];
  const target = Math.min(Math.max(1, lineCount(words, width)), Math.max(1, maxLines), words.length);
  if (target === 1) return [words.join(' ')];
  const ideal = textLength(words) / target;
  // best[k][i]: lowest cost of putting the first i words on k lines; from[k][i]: where line k starts.
  const best: number[][] = Array.from({ length: target + 1 }, () =>
    new Array<number>(words.length + 1).fill(Infinity),
  );
  const from: number[][] = Array.from({ length: target + 1 }, () =>
    new Array<number>(words.length + 1).fill(0),
  );
  best[0]![0] = 0;
  for (let k = 1; k <= target; k++) {
    for (let i = k; i <= words.length; i++) {
      for (let j = k - 1; j < i; j++) {
        const prior = best[k - 1]![j]!;
        if (prior === Infinity) continue;
        const line = words.slice(j, i);
        const length = textLength(line);
        const overflow = length > width ? (length - width) * 1000 : 0;
        const last = line[line.length - 1] ?? '';
        const bonus =
          i < words.length && (SENTENCE_END.test(last) || CLAUSE_END.test(last)) ? ideal * ideal * 0.25 : 0;
        const cost = prior + (length - ideal) ** 2 + overflow - bonus;
        if (cost < best[k]![i]!) {
          best[k]![i] = cost;
          from[k]![i] = j;
        }
      }
    }
  }
  const lines: string[] = [];
  let end = words.length;
  for (let k = target; k >= 1; k--) {
    const start = from[k]![end]!;
    lines.unshift(words.slice(start, end).join(' '));
    end = start;
  }
  return lines;
}

function fits(group: readonly WordTiming[], s: Settings): boolean {
  const first = group[0];
  const last = group[group.length - 1];
  if (!first || !last) return true;
  return (
    lineCount(
      group.map((w) => w.word),
      s.maxCharsPerLine,
    ) <= s.maxLines && last.end - first.start <= s.maxCueSec
  );
}

/** Where to cut an overfull group: after the last sentence or clause end that keeps at least 40 % of the text. */
function cutPoint(group: readonly WordTiming[]): number {
  const total = textLength(group.map((w) => w.word));
  for (const pattern of [SENTENCE_END, CLAUSE_END]) {
    for (let k = group.length - 1; k >= 1; k--) {
      const before = textLength(group.slice(0, k).map((w) => w.word));
      if (before < total * 0.4) break;
      if (pattern.test(group[k - 1]!.word)) return k;
    }
  }
  return group.length;
}

function groupWords(words: readonly WordTiming[], s: Settings): WordTiming[][] {
  const groups: WordTiming[][] = [];
  let current: WordTiming[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous) {
      const sentenceDone =
        SENTENCE_END.test(previous.word) && textLength(current.map((w) => w.word)) >= s.maxCharsPerLine / 2;
      if (word.start - previous.end >= s.pauseSec || sentenceDone) {
        groups.push(current);
        current = [];
      } else if (!fits([...current, word], s)) {
        const cut = cutPoint(current);
        groups.push(current.slice(0, cut));
        current = current.slice(cut);
        // The carried-over clause plus this word can still overflow (e.g. a very long clause): start afresh.
        if (!fits([...current, word], s)) {
          if (current.length > 0) groups.push(current);
          current = [];
        }
      }
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * A cue of one or two short words left over after its sentence overflowed the cue before it reads badly on its
 * own: the two are merged and re-cut evenly, when an even cut that fits every limit exists.
 */
function rebalanceTinyCues(groups: WordTiming[][], s: Settings): WordTiming[][] {
  const out: WordTiming[][] = [];
  for (const group of groups) {
    const previous = out[out.length - 1];
    const tiny = group.length <= 2 && textLength(group.map((w) => w.word)) <= s.maxCharsPerLine / 3;
    const close = previous !== undefined && group[0]!.start - previous[previous.length - 1]!.end < s.pauseSec;
    const endsSentence = previous !== undefined && SENTENCE_END.test(previous[previous.length - 1]!.word);
    const split =
      previous && tiny && close && !endsSentence ? balancedSplit([...previous, ...group], s) : undefined;
    if (split) out.splice(out.length - 1, 1, ...split);
    else out.push([...group]);
  }
  return out;
}

/** Re-cuts two neighbouring groups into two that both fit, with text lengths as even as possible. */
function balancedSplit(words: readonly WordTiming[], s: Settings): [WordTiming[], WordTiming[]] | undefined {
  const total = textLength(words.map((w) => w.word));
  let best: [WordTiming[], WordTiming[]] | undefined;
  let bestCost = Infinity;
  for (let k = 1; k < words.length; k++) {
    const head = words.slice(0, k);
    const tail = words.slice(k);
    if (!fits(head, s) || !fits(tail, s)) continue;
    const headLength = textLength(head.map((w) => w.word));
    const punctuation = CLAUSE_END.test(head[head.length - 1]!.word) ? total * 0.1 : 0;
    const cost = Math.abs(headLength - (total - headLength)) - punctuation;
    if (cost < bestCost) {
      bestCost = cost;
      best = [head, tail];
    }
  }
  return best;
}

export function buildCues(words: readonly WordTiming[], opts: CueOptions = {}): Cue[] {
  const s = settings(opts);
  const spoken = words.filter((w) => w.word.trim().length > 0).map((w) => ({ ...w, word: w.word.trim() }));
  const groups = rebalanceTinyCues(groupWords(spoken, s), s);
  const cues: Cue[] = groups.map((group) => ({
    start: group[0]!.start,
    end: group[group.length - 1]!.end,
    lines: breakLines(
      group.map((w) => w.word),
      s.maxCharsPerLine,
      s.maxLines,
    ),
  }));
  cues.forEach((cue, i) => {
    const nextStart = cues[i + 1]?.start ?? Infinity;
    if (cue.end - cue.start < s.minCueSec)
      cue.end = Math.max(cue.end, Math.min(cue.start + s.minCueSec, nextStart));
    cue.end = Math.min(cue.end, nextStart);
  });
  return cues;
}

/** Cues as given, or built from timed words with `opts`. */
export function cuesOf(input: readonly WordTiming[] | readonly Cue[], opts: CueOptions = {}): Cue[] {
  const first = input[0];
  if (first === undefined) return [];
  if ('lines' in first) return (input as readonly Cue[]).map((cue) => ({ ...cue, lines: [...cue.lines] }));
  return buildCues(input as readonly WordTiming[], opts);
}
