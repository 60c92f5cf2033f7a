// The sentences of a text that carry most of what it says, taken whole: what a description of a script quotes.
import { countWords } from './budget.ts';
import { isStopWord } from './english.ts';
import { splitSentences } from './sentences.ts';

/** Content words of a text: lower-cased, stop words and short words out, simple plurals folded. */
export function contentTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [])
    .map((w) => w.replace(/'s$/, ''))
    .filter((w) => w.length > 2 && !isStopWord(w))
    .map((w) =>
      w.length > 4 && w.endsWith('ies')
        ? `${w.slice(0, -3)}y`
        : w.length > 3 && w.endsWith('s') && !w.endsWith('ss')
          ? w.slice(0, -1)
          : w,
    );
}

/** Two sentences sharing at least this share of their content words (termOverlap) say the same thing. */
export const REDUNDANT_OVERLAP = 0.6;
/** Letters from which a word counts as fully specific. */
const SPECIFIC_LENGTH = 8;

/** Shared terms as a share of the smaller set of two. */
export function termOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / Math.min(a.size, b.size);
}

export interface KeySentenceOptions {
  /** Words of what the text is about (a brief, a headline): sentences that carry them rank higher. */
  focus?: string;
  /** Sentences to leave out (a title already shown, a sign-off the caller adds itself). */
  skip?: (sentence: string) => boolean;
  maxSentences: number;
  /** Characters the chosen sentences may take together (one sentence is always allowed). */
  maxChars: number;
}

interface Candidate {
  text: string;
  index: number;
  terms: Set<string>;
  score: number;
}

/**
 * The sentences that carry the most of the text's weighty words: a word weighs by how often the text says it
 * and how specific it is, and a sentence by the weight it carries per square root of its words (six at least,
 * so a three-word line does not win by brevity): a crisp sentence beats a long one that says the same. Focus
 * words multiply the score by up to two. A sentence that repeats a chosen one is passed over. Returned in the
 * text's order; empty when no sentence has a content word.
 */
export function keySentences(text: string, options: KeySentenceOptions): string[] {
  const sentences = splitSentences(text);
  const termLists = sentences.map((s) => contentTerms(s));
  const count = new Map<string, number>();
  for (const terms of termLists) for (const t of terms) count.set(t, (count.get(t) ?? 0) + 1);
  // Longer words are rarer and more specific (Zipf): "photosynthesis" says more than "thing".
  const weight = (t: string): number => count.get(t)! * Math.min(1, t.length / SPECIFIC_LENGTH);
  const focus = new Set(contentTerms(options.focus ?? ''));

  const candidates: Candidate[] = [];
  sentences.forEach((sentence, index) => {
    const terms = new Set(termLists[index]);
    if (terms.size === 0 || options.skip?.(sentence)) return;
    const words = countWords(sentence);
    let carried = 0;
    for (const t of terms) carried += weight(t);
    let score = carried / Math.sqrt(Math.max(words, 6));
    if (focus.size > 0) {
      const shared = [...terms].filter((t) => focus.has(t)).length;
      score *= 1 + shared / focus.size;
    }
    candidates.push({ text: sentence, index, terms, score });
  });

  const chosen: Candidate[] = [];
  let chars = 0;
  for (const c of [...candidates].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (chosen.length >= options.maxSentences) break;
    if (chosen.length > 0 && chars + 1 + c.text.length > options.maxChars) continue;
    if (chosen.some((d) => termOverlap(d.terms, c.terms) >= REDUNDANT_OVERLAP)) continue;
    chosen.push(c);
    chars += c.text.length + (chosen.length > 1 ? 1 : 0);
  }
  return chosen.sort((a, b) => a.index - b.index).map((c) => c.text);
}
