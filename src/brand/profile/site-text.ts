// The words a site says about itself, by where they stand: title and descriptions, headings, blog post
// titles and body text. Industry, audience, tone and topics are all read from this.
import type { PageRole, SiteCrawl } from '../crawl/site-crawl.ts';
import { normalizeLanguageTag } from '../../media/voice/language-codes.ts';
import { absoluteUrl, baseUrlOf, cleanText, homeDocument, siteDocuments } from './site-documents.ts';
import { countWords } from './word-count.ts';

export interface Heading {
  level: number;
  text: string;
  role: PageRole;
}

export interface SiteText {
  /** BCP 47 tag of the home page (<html lang>, Content-Language, og:locale), lower case; "en" when none. */
  language: string;
  title: string;
  description: string;
  headings: Heading[];
  /** Titles of blog posts: the crawled post's heading and the post links the pages list. */
  blogTitles: string[];
  /** Paragraph and list text of the pages' content (navigation, footers and forms left out). */
  paragraphs: string[];
}

/** Never read more than this much body text per page: a huge page must not slow the analysis. */
const MAX_PAGE_CHARS = 60_000;
const BLOG_PATH = /\/(blog|news|articles?|posts?|insights|stories|journal|resources|guides?)\/[^/]+/i;
const NOT_CONTENT =
  'script, style, noscript, template, svg, nav, footer, form, [aria-hidden="true"], [hidden]';

function pageLanguage(crawl: SiteCrawl): string {
  const home = homeDocument(crawl);
  if (!home) return 'en';
  const { $ } = home;
  const tag =
    $('html').attr('lang') ||
    $('meta[http-equiv="content-language" i]').attr('content') ||
    $('meta[property="og:locale"]').attr('content') ||
    '';
  const first = tag.split(',')[0]?.trim().replace(/_/g, '-');
  return first ? normalizeLanguageTag(first) : 'en';
}

/** Everything the extractors read from the pages' text, parsed once per crawl. */
export function siteText(crawl: SiteCrawl): SiteText {
  const docs = siteDocuments(crawl);
  const home = docs[0];
  const headings: Heading[] = [];
  const blogTitles: string[] = [];
  const paragraphs: string[] = [];
  for (const doc of docs) {
    const { $, page } = doc;
    $('h1, h2, h3').each((_, el) => {
      const text = cleanText($(el).text());
      if (text) headings.push({ level: Number(el.tagName.slice(1)), text, role: page.role });
    });
    if (page.role === 'blog_post') {
      const title = cleanText($('article h1').first().text() || $('h1').first().text());
      if (title) blogTitles.push(title);
    }
    const base = baseUrlOf(doc);
    $('a[href]').each((_, el) => {
      const url = absoluteUrl($(el).attr('href'), base);
      const text = cleanText($(el).text());
      const words = countWords(text);
      if (url && BLOG_PATH.test(new URL(url).pathname) && words >= 3 && words <= 16) blogTitles.push(text);
    });
    let budget = MAX_PAGE_CHARS;
    $('body')
      .find('p, li, blockquote, dd, figcaption')
      .each((_, el) => {
        if (budget <= 0) return false;
        // Navigation, footers and forms are not content; a list item that wraps paragraphs would repeat them.
        if ($(el).closest(NOT_CONTENT).length > 0 || $(el).find('p, li').length > 0) return undefined;
        const text = cleanText($(el).text());
        if (countWords(text) >= 3) {
          paragraphs.push(text.slice(0, budget));
          budget -= text.length;
        }
        return undefined;
      });
  }
  const meta = (key: string): string =>
    home
      ? cleanText(home.$(`meta[name="${key}"], meta[property="${key}"]`).first().attr('content') ?? '')
      : '';
  return {
    language: pageLanguage(crawl),
    title: home ? cleanText(home.$('title').first().text()) : '',
    description: meta('description') || meta('og:description'),
    headings,
    blogTitles: [...new Set(blogTitles)],
    paragraphs,
  };
}

/**
 * The site's text as one weighted document: the title, description and top headings say what a site is
 * about more surely than body text, so they count three times (h2/h3 and blog titles twice).
 */
export function weightedDocument(text: SiteText): string {
  const parts: string[] = [];
  const repeat = (s: string, n: number): void => {
    for (let i = 0; i < n; i++) parts.push(s);
  };
  repeat(text.title, 3);
  repeat(text.description, 3);
  for (const h of text.headings) repeat(h.text, h.level === 1 ? 3 : 2);
  for (const t of text.blogTitles) repeat(t, 2);
  parts.push(...text.paragraphs);
  return parts.filter(Boolean).join('\n');
}
