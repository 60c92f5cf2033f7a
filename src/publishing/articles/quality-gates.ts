// The quality gates every article passes before it is charged, returned or published (docs/publishing.md,
// "Quality gates"). Each gate measures the Markdown as marked reads it (article-text.ts) and reports its
// measured value next to its threshold, so a refusal says exactly what to change.
import { withStop } from '../../modes/article/markdown-strip.ts';
import { readability } from '../../signals/hooks/readability.ts';
import { articleWordCount, outlineOf, type ArticleOutline } from './article-text.ts';
import { mentions } from './keywords.ts';

export const QUALITY_THRESHOLDS = {
  /** Fewer words than this rarely rank for anything: the usual floor for an indexable article. */
  minWords: 300,
  /** One title, and enough sections to structure the page (the FAQ section counts). */
  h1Count: 1,
  minH2: 3,
  /**
   * Flesch–Kincaid grade level of the prose, at most: grade 12 is the end of secondary school; web readers skim
   * text above it. Syllables are estimated from spelling (src/signals/hooks/readability.ts).
   */
  maxGrade: 12,
  /** Paragraphs of at least this many words must not repeat (shorter ones, like "Yes.", may). */
  repeatMinWords: 4,
} as const;

export type GateName =
  'length' | 'heading_structure' | 'keyword_placement' | 'readability' | 'unique_paragraphs';

export interface GateResult {
  gate: GateName;
  passed: boolean;
  value: unknown;
  threshold: unknown;
  message: string;
}

export interface QualityReport {
  passed: boolean;
  gates: GateResult[];
  failed: GateName[];
  wordCount: number;
}

export interface GateInput {
  markdown: string;
  title: string;
  metaDescription: string;
  primaryKeyword: string;
}

function lengthGate(wordCount: number): GateResult {
  const min = QUALITY_THRESHOLDS.minWords;
  return {
    gate: 'length',
    passed: wordCount >= min,
    value: { words: wordCount },
    threshold: { min_words: min },
    message: `The article has ${wordCount} words; at least ${min} are needed.`,
  };
}

function headingGate(outline: ArticleOutline): GateResult {
  const { headings } = outline;
  const h1 = headings.filter((h) => h.depth === 1).length;
  const h2 = headings.filter((h) => h.depth === 2).length;
  const skipped: string[] = [];
  let previous = 0;
  for (const heading of headings) {
    if (heading.depth > previous + 1)
      skipped.push(`H${previous || '(start)'} → H${heading.depth} "${heading.text}"`);
    previous = heading.depth;
  }
  const titleFirst = headings[0]?.depth === 1;
  const passed =
    h1 === QUALITY_THRESHOLDS.h1Count && titleFirst && h2 >= QUALITY_THRESHOLDS.minH2 && skipped.length === 0;
  const problems = [
    h1 !== 1 && `${h1} H1 headings (exactly one, the title)`,
    h1 === 1 && !titleFirst && 'the H1 title is not the first heading',
    h2 < QUALITY_THRESHOLDS.minH2 && `${h2} H2 sections (at least ${QUALITY_THRESHOLDS.minH2})`,
    skipped.length > 0 && `skipped heading levels: ${skipped.join('; ')}`,
  ].filter((p): p is string => typeof p === 'string');
  return {
    gate: 'heading_structure',
    passed,
    value: { h1, h2, h3: headings.filter((h) => h.depth === 3).length, skipped_levels: skipped },
    threshold: { h1: QUALITY_THRESHOLDS.h1Count, min_h2: QUALITY_THRESHOLDS.minH2, skipped_levels: 0 },
    message: passed
      ? 'One H1 title, enough H2 sections, no skipped levels.'
      : `Headings: ${problems.join('; ')}.`,
  };
}

function keywordGate(input: GateInput, outline: ArticleOutline): GateResult {
  const keyword = input.primaryKeyword;
  const placed = {
    title: mentions(input.title, keyword),
    first_paragraph: mentions(outline.firstParagraph ?? '', keyword),
    h2: outline.headings.some((h) => h.depth === 2 && mentions(h.text, keyword)),
    meta_description: mentions(input.metaDescription, keyword),
  };
  const missing = Object.entries(placed)
    .filter(([, found]) => !found)
    .map(([place]) => place.replace('_', ' '));
  return {
    gate: 'keyword_placement',
    passed: missing.length === 0,
    value: { keyword, ...placed },
    threshold: { title: true, first_paragraph: true, h2: true, meta_description: true },
    message:
      missing.length === 0
        ? `"${keyword}" is in the title, the first paragraph, an H2 and the meta description.`
        : `The primary keyword "${keyword}" is missing from: ${missing.join(', ')}.`,
  };
}

/** Flesch–Kincaid grade: 0.39 × words per sentence + 11.8 × syllables per word − 15.59 (Kincaid et al. 1975). */
export function fleschKincaidGrade(text: string): number {
  const measured = readability(text);
  if (measured.words === 0) return 0;
  const grade =
    0.39 * (measured.words / measured.sentences) + 11.8 * (measured.syllables / measured.words) - 15.59;
  return Math.round(grade * 10) / 10;
}

function readabilityGate(outline: ArticleOutline): GateResult {
  // Each block ends a sentence: a list item without a full stop is not read as part of the next one.
  const grade = fleschKincaidGrade(outline.blocks.map((b) => withStop(b.text)).join('\n'));
  const max = QUALITY_THRESHOLDS.maxGrade;
  return {
    gate: 'readability',
    passed: grade <= max,
    value: { flesch_kincaid_grade: grade },
    threshold: { max_grade: max },
    message:
      grade <= max
        ? `Flesch–Kincaid grade ${grade} (at most ${max}).`
        : `Flesch–Kincaid grade ${grade}; at most ${max}: use shorter sentences and plainer words.`,
  };
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function uniqueGate(outline: ArticleOutline): GateResult {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const block of outline.blocks) {
    const key = normalized(block.text);
    if (key.split(' ').length < QUALITY_THRESHOLDS.repeatMinWords) continue;
    if (seen.has(key)) repeated.push(block.text.length > 80 ? `${block.text.slice(0, 79)}…` : block.text);
    seen.add(key);
  }
  return {
    gate: 'unique_paragraphs',
    passed: repeated.length === 0,
    value: { repeated: repeated.length, examples: repeated.slice(0, 3) },
    threshold: { max_repeated: 0 },
    message:
      repeated.length === 0
        ? 'No paragraph is repeated.'
        : `${repeated.length} paragraph${repeated.length === 1 ? ' is' : 's are'} repeated word for word.`,
  };
}

export function checkQuality(input: GateInput): QualityReport {
  const outline = outlineOf(input.markdown);
  const wordCount = articleWordCount(outline);
  const gates = [
    lengthGate(wordCount),
    headingGate(outline),
    keywordGate(input, outline),
    readabilityGate(outline),
    uniqueGate(outline),
  ];
  const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
  return { passed: failed.length === 0, gates, failed, wordCount };
}
