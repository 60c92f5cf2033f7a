// Word error rate: Levenshtein distance over normalized words, with the word-to-word alignment kept so
// timings of correctly recognized words can be compared with the truth.

/** Lower-case words with punctuation removed (apostrophes inside words kept: "don't"). */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0);
}

export interface WordErrors {
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceLength: number;
  /** Pairs [referenceIndex, hypothesisIndex] of words recognized correctly. */
  matches: [number, number][];
}

export function wordErrors(reference: readonly string[], hypothesis: readonly string[]): WordErrors {
  const n = reference.length;
  const m = hypothesis.length;
  const cost: number[][] = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + same);
    }
  }
  const result: WordErrors = {
    substitutions: 0,
    deletions: 0,
    insertions: 0,
    referenceLength: n,
    matches: [],
  };
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (
      i > 0 &&
      j > 0 &&
      cost[i]![j] === cost[i - 1]![j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)
    ) {
      if (reference[i - 1] === hypothesis[j - 1]) result.matches.push([i - 1, j - 1]);
      else result.substitutions++;
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      result.deletions++;
      i--;
    } else {
      result.insertions++;
      j--;
    }
  }
  result.matches.reverse();
  return result;
}

/** Word error rate 0–1 (can exceed 1 with many insertions); 0 for an empty reference and hypothesis. */
export function wordErrorRate(errors: WordErrors): number {
  const wrong = errors.substitutions + errors.deletions + errors.insertions;
  if (errors.referenceLength === 0) return wrong === 0 ? 0 : 1;
  return wrong / errors.referenceLength;
}
