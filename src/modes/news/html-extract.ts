import { Readability } from '@mozilla/readability';
import { Tokenizer } from 'htmlparser2';
import { collapseWhitespace, parseDocument, textBlocks, type DomNode, type TextBlock } from './html-text.ts';

// The article of a fetched page. Mozilla's Readability (Firefox's Reader View) finds the article body among the
// page's chrome and reads its metadata (JSON-LD, Open Graph, bylines); what is kept of the body is what can be
// narrated: its paragraphs as plain text, without headings, captions, link lists, labels and bylines.

export interface ExtractedArticle {
  title?: string;
  /** The author line as the page gives it ("By Dana Reyes"). */
  byline?: string;
  siteName?: string;
  /** When the page says the article was published, as the page writes it (ISO 8601 on most news sites). */
  publishedTime?: string;
  /** Language of the page (<html lang>, primary subtag), when declared. */
  language?: string;
  paragraphs: string[];
}

/** Fewer words than this is a label ("Advertisement", "Read more"), not a paragraph. */
const MIN_WORDS = 4;
/** A block this long is prose even without a closing full stop. */
const UNPUNCTUATED_MIN_WORDS = 12;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const COPYRIGHT = /^(?:copyright|\u00a9)\s|all rights reserved/i;
/** Class or id names of captions, photo credits, author boxes, sign-up and paywall prompts. */
const LOOSE_CHROME =
  /caption|credit|author[-_]?(?:bio|box|card|info|description)|about[-_]?the[-_]?author|newsletter|sign[-_]?up|subscribe(?!r)|subscription|paywall/i;
const LOOSE_CHROME_MAX_CHARS = 600;
/**
 * Parsing and Readability grow faster than the page: with the square of its nesting depth (the parser's own
 * stack), and more than linearly with its elements (about 5 s for 50,000 link elements on one core). News
 * pages have a few thousand elements nested a few dozen deep; a page past either bound is refused rather than
 * hold a worker for minutes (a hostile 5 MB page nested 400,000 deep took four minutes to parse).
 */
export const MAX_PAGE_DEPTH = 256;
export const MAX_PAGE_ELEMENTS = 50_000;
/** Elements that never hold others (void) or that the next sibling closes (optional end tags). */
const NON_NESTING = new Set(
  'area base br col embed hr img input link meta source track wbr p li dt dd option tr td th'.split(' '),
);

/** A page too deep or too large to read within the bounds above. */
export class PageTooComplexError extends Error {}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/**
 * A block worth narrating: mostly its own words (not links), a sentence rather than a label, a byline or a
 * timestamp line, not a copyright notice, and no e-mail address (the mark of a contact box: "Do you have a
 * story? Email …").
 */
export function isArticleText(block: Pick<TextBlock, 'text' | 'linkText' | 'timeText'>): boolean {
  const { text } = block;
  const words = wordCount(text);
  if (words - wordCount(block.timeText) < MIN_WORDS) return false;
  if (block.linkText.length > text.length * 0.5) return false;
  if (EMAIL.test(text) || COPYRIGHT.test(text)) return false;
  return words >= UNPUNCTUATED_MIN_WORDS || /[.!?\u2026]["'\u201d\u2019)]*$/.test(text);
}

/**
 * Prose that Readability keeps but nobody reads as the article goes before it runs: captions and credits
 * outside <figure> (tabloids caption in a plain <p class="imageCaption">), author boxes, paywall prompts, and
 * sign-up boxes, named so or known by their e-mail field. Only short elements go, so a container whose name
 * merely mentions one ("subscriber-content") stays.
 */
function removeLooseChrome(document: any): void {
  const short = (element: any) => (element.textContent ?? '').length <= LOOSE_CHROME_MAX_CHARS;
  // A sign-up box is the e-mail field with the nearest paragraph that says what it is for.
  for (const field of Array.from<any>(document.querySelectorAll('input[type="email"]'))) {
    let box = field;
    while (!box.querySelector('p') && box.parentElement && short(box.parentElement)) box = box.parentElement;
    if (box.nodeName !== 'BODY') box.remove();
  }
  for (const element of Array.from<any>(document.querySelectorAll('[class], [id]'))) {
    const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (LOOSE_CHROME.test(names) && short(element)) element.remove();
  }
}

/** Scripts (JSON-LD metadata aside), styles, SVG drawings and templates are never text: they go before counting. */
function removeNonText(document: any): void {
  for (const element of Array.from<any>(
    document.querySelectorAll('script:not([type="application/ld+json"]), style, svg, template'),
  ))
    element.remove();
}

/**
 * How deep the page nests, estimated from its tags alone with htmlparser2's tokenizer (one linear pass, script
 * and style text skipped) before the parser builds anything. An element left unclosed counts as open, so a
 * sloppy page reads deeper than it is rather than shallower.
 */
function checkNesting(html: string): void {
  let depth = 0;
  let tag = '';
  // Inside <svg> and <math> "<path/>" closes itself; elsewhere a "/>" is ignored, as the parser does.
  let foreign = 0;
  const open = () => {
    if (NON_NESTING.has(tag)) return;
    if (tag === 'svg' || tag === 'math') foreign++;
    if (++depth > MAX_PAGE_DEPTH)
      throw new PageTooComplexError(`the page nests its elements more than ${MAX_PAGE_DEPTH} deep`);
  };
  const ignore = () => undefined;
  const tokenizer = new Tokenizer(
    {},
    {
      onopentagname: (start, end) => {
        tag = html.slice(start, end).toLowerCase();
      },
      onopentagend: open,
      onselfclosingtag: () => {
        if (foreign === 0) open();
      },
      onclosetag: (start, end) => {
        const name = html.slice(start, end).toLowerCase();
        if (NON_NESTING.has(name)) return;
        if ((name === 'svg' || name === 'math') && foreign > 0) foreign--;
        depth = Math.max(0, depth - 1);
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onprocessinginstruction: ignore,
      ontext: ignore,
      ontextentity: ignore,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}

/** The parsed page within both bounds (the estimate above aside, the parser may nest differently). */
function checkSize(document: any): void {
  let elements = 0;
  const stack: Array<[any, number]> = [[document.documentElement, 1]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [element, depth] = entry;
    if (depth > MAX_PAGE_DEPTH)
      throw new PageTooComplexError(`the page nests its elements more than ${MAX_PAGE_DEPTH} deep`);
    if (++elements > MAX_PAGE_ELEMENTS)
      throw new PageTooComplexError(`the page has more than ${MAX_PAGE_ELEMENTS} elements`);
    for (const child of Array.from<any>(element.children)) stack.push([child, depth + 1]);
  }
}

/** "Headline | Site" or "Site - Headline" → "Headline", when the other part is the site's name. */
function withoutSiteName(title: string, siteName: string | undefined): string {
  if (!siteName) return title;
  const parts = title.split(/\s+[|\u2013\u2014\u00b7\u2022-]\s+/);
  const rest = parts.filter((p) => p.trim().toLowerCase() !== siteName.toLowerCase());
  return rest.length > 0 && rest.length < parts.length ? rest.join(' - ').trim() : title;
}

function present(value: string | null | undefined): string | undefined {
  const text = value ? collapseWhitespace(value) : '';
  return text || undefined;
}

/** The article of a page; throws PageTooComplexError for a page past MAX_PAGE_DEPTH or MAX_PAGE_ELEMENTS. */
export function extractArticle(html: string): ExtractedArticle {
  checkNesting(html);
  const document = parseDocument(html);
  removeNonText(document);
  checkSize(document);
  const language = present(document.querySelector('html[lang]')?.getAttribute('lang'))
    ?.split(/[-_]/)[0]
    ?.toLowerCase();
  removeLooseChrome(document);
  const article = new Readability<DomNode>(document, { serializer: (node) => node as DomNode }).parse();
  const siteName = present(article?.siteName);
  const title = present(article?.title);
  const publishedTime = present(article?.publishedTime);

  const paragraphs: string[] = [];
  for (const block of article?.content ? textBlocks(article.content) : []) {
    if (!block.heading && isArticleText(block) && !paragraphs.includes(block.text))
      paragraphs.push(block.text);
  }
  return {
    ...(title ? { title: withoutSiteName(title, siteName) } : {}),
    ...(present(article?.byline) ? { byline: present(article?.byline) } : {}),
    ...(siteName ? { siteName } : {}),
    ...(publishedTime && !Number.isNaN(Date.parse(publishedTime)) ? { publishedTime } : {}),
    ...(language ? { language } : {}),
    paragraphs,
  };
}
