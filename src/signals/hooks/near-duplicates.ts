// "No two hooks alike": hooks are compared on their content words, with the topic's own words left out (every
// hook names the topic, so those words say nothing about how alike two hooks are).
import { isStopWord } from '../../media/script/english.ts';
import { normalizedWords } from './hook-scorer.ts';
import { NEAR_DUPLICATE_SIMILARITY } from './hook-score-weights.ts';

/** Lower-case content words, a plural "-s" dropped, less the given words. */
export function contentTokens(text: string, leaveOut: ReadonlySet<string> = new Set()): Set<string> {
  const stem = (w: string): string => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w);
  return new Set(
    normalizedWords(text)
      .filter((w) => !isStopWord(w))
      .map(stem)
      .filter((w) => !leaveOut.has(w)),
  );
}

/** Jaccard similarity of two token sets; two empty sets are alike only when the texts match. */
export function tokenSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const union = new Set([...a, ...b]).size;
  if (union === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / union;
}

/** Decides which hooks are too alike to keep both, for one topic. */
export class NearDuplicateFilter {
  private readonly leaveOut: Set<string>;
  private readonly kept: { tokens: Set<string>; normalized: string }[] = [];

  constructor(topic: string) {
    this.leaveOut = contentTokens(topic);
  }

  /** Keeps the hook unless it is like one already kept; says whether it was kept. */
  admit(text: string): boolean {
    const normalized = normalizedWords(text).join(' ');
    const tokens = contentTokens(text, this.leaveOut);
    const alike = this.kept.some(
      (k) =>
        k.normalized === normalized ||
        ((tokens.size > 0 || k.tokens.size > 0) &&
          tokenSimilarity(tokens, k.tokens) >= NEAR_DUPLICATE_SIMILARITY),
    );
    if (!alike) this.kept.push({ tokens, normalized });
    return !alike;
  }
}
