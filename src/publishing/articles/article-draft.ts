// What a writer (local or LLM) hands over: the article's parts, before they are laid out as Markdown and HTML
// (article-render.ts). Titles, headings and FAQ questions are plain text; paragraphs, bullets and FAQ answers are
// inline Markdown on one line. The layout is ours, so every article has the same shape: H1 title, intro, H2
// sections with optional H3 subsections, FAQ, sources.

/** What both writers write from: the caller's brief and the keywords chosen from it (keywords.ts). */
export interface ArticleBrief {
  topic?: string;
  pillar?: string;
  primaryKeyword: string;
  secondaryKeywords: string[];
}

export interface ArticleSubsection {
  heading: string;
  paragraphs: string[];
}

export interface ArticleSection {
  heading: string;
  paragraphs: string[];
  /** A bulleted list after the paragraphs. */
  bullets?: string[];
  /** Paragraphs quoted from a source, set as a blockquote after the paragraphs. */
  quote?: string[];
  subsections?: ArticleSubsection[];
}

export interface FaqEntry {
  question: string;
  answer: string;
}

/** A page the article draws on, linked in its sources section and cited in its JSON-LD. */
export interface ArticleSource {
  title: string;
  url: string;
  publisher: string;
}

export interface ArticleDraft {
  title: string;
  metaDescription: string;
  primaryKeyword: string;
  secondaryKeywords: string[];
  slug: string;
  intro: string[];
  sections: ArticleSection[];
  faq: FaqEntry[];
  sources: ArticleSource[];
  /** The pillar (content series) the article belongs to: JSON-LD articleSection. */
  pillar?: string;
}

/** Meta descriptions longer than this are cut off in search results. */
export const META_DESCRIPTION_MAX_CHARS = 160;

/** Collapses a text to one line, so a writer's text never changes the article's block structure. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A meta description of at most META_DESCRIPTION_MAX_CHARS: whole sentences while they fit, else cut at a word
 * with an ellipsis.
 */
export function fitMetaDescription(text: string): string {
  const flat = oneLine(text);
  if (flat.length <= META_DESCRIPTION_MAX_CHARS) return flat;
  const sentences = flat.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [];
  let kept = '';
  for (const sentence of sentences) {
    if ((kept + sentence).trim().length > META_DESCRIPTION_MAX_CHARS) break;
    kept += sentence;
  }
  if (kept.trim().length >= META_DESCRIPTION_MAX_CHARS / 2) return kept.trim();
  const cut = flat.slice(0, META_DESCRIPTION_MAX_CHARS - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[\s,;:.-]+$/, '')}…`;
}
