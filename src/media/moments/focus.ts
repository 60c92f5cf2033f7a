// The `focus` text as a relevance test: which of its content words (by stem) a moment says, and how often.
import { FOCUS_COVERAGE_PART, FOCUS_MENTIONS_PER_30S } from './score-weights.ts';
import { normalizeToken, stem } from './text-signals.ts';

const STOPWORDS = new Set(
  (
    'a an the and or but so of to in on at for with from by about into over under is are was were be been being ' +
    'am do does did have has had i me my we our you your he she it its they them their this that these those ' +
    'what which who whom when where why how all any some no not only just very can could would should will may ' +
    'might must shall as if than then there here out up down off more most less such own same too also ' +
    'moment moments clip clips part parts video videos talk talks show shows find want'
  ).split(' '),
);

/** Distinct content-word stems of the focus text (stopwords and one-letter words dropped). */
export function focusTerms(focus: string | undefined): string[] {
  if (!focus) return [];
  const terms = focus
    .split(/\s+/)
    .map(normalizeToken)
    .filter((t) => t.length > 1 && !STOPWORDS.has(t))
    .map(stem);
  return [...new Set(terms)];
}

/**
 * 0–1: the share of focus terms the tokens contain, blended with how densely they are mentioned.
 * 0 when nothing matches (or there are no terms).
 */
export function focusRelevance(
  tokens: readonly string[],
  terms: readonly string[],
  durationSec: number,
): number {
  if (terms.length === 0 || tokens.length === 0) return 0;
  const wanted = new Set(terms);
  const said = new Set<string>();
  let mentions = 0;
  for (const token of tokens) {
    const s = stem(token);
    if (wanted.has(s)) {
      said.add(s);
      mentions++;
    }
  }
  if (mentions === 0) return 0;
  const coverage = said.size / terms.length;
  const density = Math.min(1, (mentions * 30) / Math.max(durationSec, 1) / FOCUS_MENTIONS_PER_30S);
  return FOCUS_COVERAGE_PART * coverage + (1 - FOCUS_COVERAGE_PART) * density;
}
