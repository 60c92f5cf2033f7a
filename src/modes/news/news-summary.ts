import { countWords } from '../../media/script/budget.ts';
import { contentTerms, REDUNDANT_OVERLAP, termOverlap } from '../../media/script/key-sentences.ts';
import { splitSentences } from '../../media/script/sentences.ts';
import { withStop } from '../article/markdown-strip.ts';

// Extractive summary of a fetched article into a narration: every sentence is scored by how many of the
// article's frequent content words it carries, its position (news leads with the facts), overlap with the
// headline and the caller's keywords; the best ones that fit the word budget are read in the shape of the
// chosen format. Sentences are taken whole, never rewritten, so everything said comes from the page.

export const NEWS_FORMATS = ['digest', 'single', 'headlines', 'weekly', 'breaking'] as const;
export type NewsFormat = (typeof NEWS_FORMATS)[number];

export interface ScoredSentence {
  text: string;
  paragraph: number;
  /** Position in the whole article. */
  index: number;
  words: number;
  score: number;
  terms: Set<string>;
}

export interface NewsNarrationInput {
  title?: string;
  siteName?: string;
  paragraphs: string[];
  format: NewsFormat;
  /** Words the narration may have in total (openers and closers included). */
  budgetWords: number;
  keywords: string[];
  /** Language of the article, for the sentence rules. */
  language?: string;
}

export interface NewsNarration {
  script: string;
  words: number;
  /** The article sentences read, in the order they are said. */
  sentences: string[];
}

const BOILERPLATE =
  /\b(cookies?|subscribe|subscription|newsletter|sign up|log in|all rights reserved|click here|advertisement|read more|share this|follow us|terms of use|privacy policy)\b/i;
/** Headlines are a short list: no more items, and each item short when the article allows. */
const HEADLINE_ITEMS = 5;
export const HEADLINE_MAX_WORDS = 25;

export function scoreSentences(
  paragraphs: string[],
  options: { title?: string; keywords?: string[]; language?: string } = {},
): ScoredSentence[] {
  const raw = paragraphs.flatMap((p, paragraph) =>
    splitSentences(p, options.language).map((text, inParagraph) => ({ text, paragraph, inParagraph })),
  );
  const termLists = raw.map((s) => contentTerms(s.text));
  const frequency = new Map<string, number>();
  for (const terms of termLists) for (const t of terms) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const top = Math.max(1, ...frequency.values());
  const titleTerms = new Set(contentTerms(options.title ?? ''));
  const keywords = (options.keywords ?? []).map((k) => k.toLowerCase().trim()).filter(Boolean);

  return raw.map((s, index) => {
    const terms = termLists[index]!;
    const words = countWords(s.text);
    let score =
      terms.length === 0 ? 0 : terms.reduce((sum, t) => sum + frequency.get(t)! / top, 0) / terms.length;
    // Very short sentences carry little; very long ones are hard to follow when heard.
    score *= Math.min(1, words / 10) * (words > 35 ? 35 / words : 1);
    score += 0.25 * (1 - index / raw.length) + (s.inParagraph === 0 ? 0.1 : 0) + (index === 0 ? 0.2 : 0);
    if (titleTerms.size > 0) score += (0.3 * terms.filter((t) => titleTerms.has(t)).length) / titleTerms.size;
    const lower = s.text.toLowerCase();
    score += Math.min(0.5, 0.25 * keywords.filter((k) => lower.includes(k)).length);
    if (BOILERPLATE.test(s.text) || words < 4) score = -1;
    return { text: s.text, paragraph: s.paragraph, index, words, score, terms: new Set(terms) };
  });
}

/** Best sentences first, skipping repeats, until the budget is spent (a sentence that does not fit is passed over). */
export function pick(
  candidates: ScoredSentence[],
  budget: number,
  rule: { onePerParagraph?: boolean; maxItems?: number } = {},
): ScoredSentence[] {
  const chosen: ScoredSentence[] = [];
  let words = 0;
  for (const s of [...candidates].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (s.score < 0 || words + s.words > budget) continue;
    if (rule.maxItems !== undefined && chosen.length >= rule.maxItems) break;
    if (rule.onePerParagraph && chosen.some((c) => c.paragraph === s.paragraph)) continue;
    if (chosen.some((c) => termOverlap(c.terms, s.terms) >= REDUNDANT_OVERLAP)) continue;
    chosen.push(s);
    words += s.words;
  }
  return chosen;
}

export const byPosition = (a: ScoredSentence, b: ScoredSentence) => a.index - b.index;

/** Sentences of the same paragraph stay on one line; each paragraph gets its own line. */
export function asLines(sentences: ScoredSentence[]): string[] {
  const lines: string[] = [];
  let paragraph = -1;
  for (const s of sentences) {
    if (s.paragraph === paragraph) lines[lines.length - 1] += ` ${s.text}`;
    else lines.push(s.text);
    paragraph = s.paragraph;
  }
  return lines;
}

interface Shape {
  opener: string[];
  closer: string[];
  arrange(scored: ScoredSentence[], budget: number): { lines: string[]; sentences: ScoredSentence[] };
}

function shapeOf(format: NewsFormat, title: string | undefined, site: string | undefined): Shape {
  const headline = title ? [withStop(title)] : [];
  const source = site ? [`Source: ${site}.`] : [];
  const inOrder =
    (rule: Parameters<typeof pick>[2] = {}) =>
    (scored: ScoredSentence[], budget: number) => {
      const sentences = pick(scored, budget, rule).sort(byPosition);
      return { lines: asLines(sentences), sentences };
    };
  switch (format) {
    case 'single':
      return { opener: headline, closer: source, arrange: inOrder() };
    case 'breaking':
      return {
        opener: [title ? `Breaking news: ${withStop(title)}` : 'Breaking news.'],
        closer: ['More as this story develops.', ...source],
        // The lead fact comes straight after the opener; the rest follows in the article's order.
        arrange: (scored, budget) => {
          const chosen = pick(scored, budget);
          const [lead, ...rest] = chosen;
          const sentences = lead ? [lead, ...rest.sort(byPosition)] : [];
          return { lines: sentences.map((s) => s.text), sentences };
        },
      };
    case 'headlines':
      return {
        opener: [site ? `Here are the headlines from ${site}.` : 'Here are the headlines.'],
        closer: [],
        arrange: (scored, budget) => {
          const short = scored.filter((s) => s.words <= HEADLINE_MAX_WORDS);
          const sentences = pick(short.length > 0 ? short : scored, budget, {
            onePerParagraph: true,
            maxItems: HEADLINE_ITEMS,
          });
          return { lines: sentences.map((s) => s.text), sentences };
        },
      };
    case 'digest':
      return {
        opener: ['Here is your news digest.', ...headline],
        closer: source,
        arrange: inOrder({ onePerParagraph: true }),
      };
    case 'weekly':
      return {
        opener: ['Here is your weekly roundup.', ...headline],
        closer: ["That's the week.", ...source],
        arrange: inOrder({ onePerParagraph: true }),
      };
  }
}

export function newsNarration(input: NewsNarrationInput): NewsNarration {
  const scored = scoreSentences(input.paragraphs, {
    title: input.title,
    keywords: input.keywords,
    language: input.language,
  });
  const shape = shapeOf(input.format, input.title, input.siteName);
  const fixed = [...shape.opener, ...shape.closer].reduce((n, line) => n + countWords(line), 0);
  let { lines, sentences } = shape.arrange(scored, input.budgetWords - fixed);
  // A budget smaller than every sentence still says the single best one.
  if (sentences.length === 0) {
    const best = [...scored].sort((a, b) => b.score - a.score || a.index - b.index).find((s) => s.score >= 0);
    if (best) ({ lines, sentences } = { lines: [best.text], sentences: [best] });
  }
  const script = [...shape.opener, ...lines, ...shape.closer].join('\n');
  return { script, words: countWords(script), sentences: sentences.map((s) => s.text) };
}
