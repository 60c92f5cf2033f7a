// Lays an article's parts out as Markdown and renders it with marked: the HTML body a CMS takes (no H1: the
// CMS prints the title), a standalone HTML page with its meta tags, and the JSON-LD (schema.org Article and
// FAQPage) in that page's head. Headings print literally; paragraphs may carry inline Markdown (emphasis,
// links), but raw HTML is shown as text and only http(s) and mailto links are kept, so nothing a model writes
// runs in a reader's browser.
import { Marked } from 'marked';
import { oneLine, type ArticleDraft, type ArticleSection } from './article-draft.ts';
import { plainInline } from './article-text.ts';

export interface RenderedArticle {
  /** The whole article, H1 title first. */
  markdown: string;
  /** The body as HTML, without the H1: what a CMS (WordPress) takes as its content. */
  contentHtml: string;
  /** A standalone page: title, meta description, keywords and JSON-LD in its head, the article in its body. */
  html: string;
  /** `{ "@context": "https://schema.org", "@graph": [Article, FAQPage] }`. */
  jsonLd: Record<string, unknown>;
}

const SAFE_LINK = /^(https?:|mailto:)/i;
/** Google shows at most 110 characters of an Article headline. */
const HEADLINE_MAX_CHARS = 110;

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    link(token) {
      // false: marked's own rendering (escaped href and title) for links that are safe to follow.
      return SAFE_LINK.test(token.href) ? false : this.parser.parseInline(token.tokens);
    },
    image: ({ text }) => escapeHtml(text),
  },
});

/**
 * Text that must print literally (a headline, a quoted sentence, a publisher's name): its inline Markdown marks
 * escaped. Marks that only count at the start of a line are escaped where a paragraph or heading is laid out.
 */
export function literal(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|~&]/g, '\\$&');
}

/** A link whose text prints literally and whose target survives any character in the URL. */
export function markdownLink(text: string, url: string): string {
  return `[${literal(text)}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** A writer's paragraph as one Markdown paragraph: a leading block marker ("# ", "- ", "1. ", "> ") is escaped. */
function paragraph(text: string): string {
  return oneLine(text)
    .replace(/^(#{1,6}|[-+*])(\s|$)/, '\\$1$2')
    .replace(/^(>|`{3}|~{3})/, '\\$1')
    .replace(/^([-*_=])((?:\s*\1){2,}\s*)$/, '\\$1$2')
    .replace(/^(\d+)([.)])(\s|$)/, '$1\\$2$3');
}

/** Headings are plain text: printed literally, whatever marks they hold. */
function heading(depth: number, text: string): string {
  return `${'#'.repeat(depth)} ${paragraph(literal(text.replace(/^\s*#+\s*|\s*#+\s*$/g, '')))}`;
}

function sectionMarkdown(section: ArticleSection): string[] {
  const out = [heading(2, section.heading), ...section.paragraphs.map(paragraph)];
  if (section.quote?.length) out.push(section.quote.map((p) => `> ${paragraph(p)}`).join('\n>\n'));
  if (section.bullets?.length) out.push(section.bullets.map((b) => `- ${paragraph(b)}`).join('\n'));
  for (const sub of section.subsections ?? [])
    out.push(heading(3, sub.heading), ...sub.paragraphs.map(paragraph));
  return out;
}

/** The FAQ section's heading; the FAQPage JSON-LD holds the same questions and answers. */
function faqHeading(keyword: string): string {
  return `Frequently asked questions about ${keyword}`;
}

export function articleMarkdown(draft: ArticleDraft): string {
  const blocks = [heading(1, draft.title), ...draft.intro.map(paragraph)];
  for (const section of draft.sections) blocks.push(...sectionMarkdown(section));
  if (draft.faq.length > 0) {
    blocks.push(heading(2, faqHeading(draft.primaryKeyword)));
    for (const entry of draft.faq) blocks.push(heading(3, entry.question), paragraph(entry.answer));
  }
  if (draft.sources.length > 0) {
    blocks.push(
      heading(2, 'Sources'),
      draft.sources.map((s) => `- ${markdownLink(s.title, s.url)}, ${literal(s.publisher)}`).join('\n'),
    );
  }
  return `${blocks.join('\n\n')}\n`;
}

function render(source: string): string {
  return markdown.parse(source, { async: false });
}

function articleJsonLd(
  draft: ArticleDraft,
  meta: { wordCount: number; publishedAt: Date },
): Record<string, unknown> {
  const date = meta.publishedAt.toISOString();
  const headline =
    draft.title.length > HEADLINE_MAX_CHARS
      ? `${draft.title.slice(0, HEADLINE_MAX_CHARS - 1)}…`
      : draft.title;
  const article: Record<string, unknown> = {
    '@type': 'Article',
    headline,
    description: draft.metaDescription,
    keywords: [draft.primaryKeyword, ...draft.secondaryKeywords].join(', '),
    inLanguage: 'en',
    wordCount: meta.wordCount,
    datePublished: date,
    dateModified: date,
    ...(draft.pillar ? { articleSection: draft.pillar } : {}),
    ...(draft.sources.length > 0
      ? {
          citation: draft.sources.map((s) => ({
            '@type': 'CreativeWork',
            name: s.title,
            url: s.url,
            publisher: { '@type': 'Organization', name: s.publisher },
          })),
        }
      : {}),
  };
  const graph: Record<string, unknown>[] = [article];
  if (draft.faq.length > 0) {
    graph.push({
      '@type': 'FAQPage',
      mainEntity: draft.faq.map((entry) => ({
        '@type': 'Question',
        name: oneLine(entry.question),
        acceptedAnswer: { '@type': 'Answer', text: plainInline(entry.answer) },
      })),
    });
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/** JSON inside <script>: "<" is escaped so no text in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function renderArticle(
  draft: ArticleDraft,
  meta: { wordCount: number; publishedAt: Date },
): RenderedArticle {
  const source = articleMarkdown(draft);
  const body = source.slice(source.indexOf('\n\n') + 2);
  const jsonLd = articleJsonLd(draft, meta);
  const keywords = [draft.primaryKeyword, ...draft.secondaryKeywords].join(', ');
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(draft.title)}</title>`,
    `<meta name="description" content="${escapeHtml(draft.metaDescription)}">`,
    `<meta name="keywords" content="${escapeHtml(keywords)}">`,
    `<script type="application/ld+json">${scriptJson(jsonLd)}</script>`,
    '</head>',
    '<body>',
    '<article>',
    render(source).trim(),
    '</article>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { markdown: source, contentHtml: render(body), html, jsonLd };
}
