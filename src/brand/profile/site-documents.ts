// The crawled pages parsed once (cheerio over parse5) and shared by every extractor of one profile.
import { load, type Cheerio, type CheerioAPI } from 'cheerio';
import type { CrawledPage, SiteCrawl } from '../crawl/site-crawl.ts';

export interface SiteDocument {
  page: CrawledPage;
  $: CheerioAPI;
}

/** One element of a parsed page, wrapped by cheerio. */
export type PageNode = Cheerio<any>;

/** The element's tag name in lower case. */
export function tagOf(node: PageNode): string {
  return String(node.prop('tagName') ?? '').toLowerCase();
}

const parsed = new WeakMap<SiteCrawl, SiteDocument[]>();

/** Every crawled page parsed, home page first (the crawler's order otherwise). */
export function siteDocuments(crawl: SiteCrawl): SiteDocument[] {
  let docs = parsed.get(crawl);
  if (!docs) {
    const pages = [...crawl.pages].sort((a, b) => Number(b.role === 'home') - Number(a.role === 'home'));
    docs = pages.map((page) => ({ page, $: load(page.html) }));
    parsed.set(crawl, docs);
  }
  return docs;
}

/** The home page, or the first page when the crawl kept no page marked home. */
export function homeDocument(crawl: SiteCrawl): SiteDocument | undefined {
  return siteDocuments(crawl)[0];
}

/** The URL relative links of a page resolve against: its <base href> when it has one. */
export function baseUrlOf(doc: SiteDocument): string {
  return absoluteUrl(doc.$('base[href]').first().attr('href'), doc.page.url) ?? doc.page.url;
}

/** An attribute value resolved against the page URL; undefined when absent or not http(s). */
export function absoluteUrl(value: string | undefined, base: string): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Collapses whitespace; markup text often carries newlines and indentation. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
