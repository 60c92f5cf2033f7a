import type { CheerioAPI } from 'cheerio';
import type { SiteScope } from './site-scope.ts';

/** The pages looked for after the home page, in the order the page budget is spent on them. */
export type SearchedRole = 'about' | 'pricing' | 'customers' | 'blog';

export interface PageLink {
  /** Absolute, without fragment. */
  url: URL;
  /** What a reader sees: the link text, else its aria-label, title or image alt. */
  text: string;
}

interface RoleWords {
  /** Path segments that name the page. */
  paths: string[];
  /** Link texts that name it. */
  texts: string[];
}

const ROLE_WORDS: Record<SearchedRole, RoleWords> = {
  about: {
    paths: [
      'about',
      'about-us',
      'aboutus',
      'company',
      'our-story',
      'story',
      'who-we-are',
      'team',
      'our-team',
      'mission',
    ],
    texts: [
      'about',
      'about us',
      'company',
      'our company',
      'our story',
      'who we are',
      'our team',
      'our mission',
    ],
  },
  pricing: {
    paths: ['pricing', 'plans', 'prices', 'price', 'plans-and-pricing', 'pricing-plans'],
    texts: ['pricing', 'plans', 'prices', 'plans and pricing', 'plans pricing', 'pricing plans'],
  },
  customers: {
    paths: ['customers', 'customer-stories', 'case-studies', 'clients', 'success-stories', 'testimonials'],
    texts: [
      'customers',
      'our customers',
      'customer stories',
      'case studies',
      'clients',
      'success stories',
      'testimonials',
    ],
  },
  blog: {
    paths: ['blog', 'news', 'articles', 'insights', 'journal'],
    texts: ['blog', 'our blog', 'news', 'articles', 'insights', 'journal'],
  },
};

const MIN_ROLE_SCORE = 2;

/** Where sites usually keep these pages, tried in order when the home page links none that works. */
export const COMMON_PATHS: Record<SearchedRole, string[]> = {
  about: ['/about', '/about-us', '/company'],
  pricing: ['/pricing', '/plans'],
  customers: ['/customers', '/case-studies', '/clients'],
  blog: ['/blog', '/news', '/articles'],
};

// Segments of blog index links that are lists, not posts.
const LIST_SEGMENTS = new Set([
  'page',
  'tag',
  'tags',
  'category',
  'categories',
  'author',
  'authors',
  'feed',
  'rss',
  'archive',
  'archives',
  'search',
  'topic',
  'topics',
]);

/** Every http(s) link of a page in document order, resolved against its <base href> and deduplicated. */
export function pageLinks($: CheerioAPI, pageUrl: URL): PageLink[] {
  const base = documentBase($, pageUrl);
  const seen = new Set<string>();
  const links: PageLink[] = [];
  $('a[href], area[href]').each((_, el) => {
    const anchor = $(el);
    const url = resolveLink(anchor.attr('href'), base);
    if (!url || seen.has(url.href)) return;
    seen.add(url.href);
    const text =
      normalizeText(anchor.text()) ||
      normalizeText(
        anchor.attr('aria-label') ?? anchor.attr('title') ?? anchor.find('img[alt]').attr('alt') ?? '',
      );
    links.push({ url, text });
  });
  return links;
}

/**
 * How strongly a link names a role's page: its last path segment (3) or another segment (1), its whole
 * text (2) or a word of it (1). A candidate needs 2: one weak hint (a LinkedIn /company/… link, "Read our
 * engineering blog") is not enough.
 */
export function roleScore(link: PageLink, role: SearchedRole): number {
  const words = ROLE_WORDS[role];
  const segments = pathSegments(link.url);
  const last = segments[segments.length - 1];
  let score = 0;
  if (last !== undefined && words.paths.includes(last)) score += 3;
  else if (segments.some((segment) => words.paths.includes(segment))) score += 1;
  const text = link.text
    .replace(/[^\p{L}\p{N} ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (words.texts.includes(text)) score += 2;
  else if (words.texts.some((word) => ` ${text} `.includes(` ${word} `))) score += 1;
  return score;
}

/** Links naming a role's page, best first (ties keep document order). */
export function rankRoleLinks(links: PageLink[], role: SearchedRole): PageLink[] {
  return links
    .map((link) => ({ link, score: roleScore(link, role) }))
    .filter((entry) => entry.score >= MIN_ROLE_SCORE)
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.link);
}

/**
 * Post links on a blog index, newest-first as the index lists them: same-site links below the index's
 * path, preferring those inside an <article> or a heading; never navigation, pagination or tag lists.
 */
export function blogPostLinks($: CheerioAPI, indexUrl: URL, scope: SiteScope): URL[] {
  const base = documentBase($, indexUrl);
  const prefix = indexUrl.pathname.endsWith('/') ? indexUrl.pathname : `${indexUrl.pathname}/`;
  const ranked: Array<{ url: URL; rank: number }> = [];
  const seen = new Set<string>([stripQuery(indexUrl)]);
  $('a[href]').each((_, el) => {
    const anchor = $(el);
    if (anchor.closest('nav, header, footer, aside').length > 0) return;
    const url = resolveLink(anchor.attr('href'), base);
    if (!url || !scope.contains(url) || url.pathname === '/' || seen.has(stripQuery(url))) return;
    if (pathSegments(url).some((segment) => LIST_SEGMENTS.has(segment))) return;
    seen.add(stripQuery(url));
    const below = url.pathname.startsWith(prefix) && url.pathname.length > prefix.length;
    const inEntry = anchor.closest('article, h1, h2, h3, h4').length > 0;
    if (below || inEntry) ranked.push({ url, rank: (below ? 0 : 2) + (inEntry ? 0 : 1) });
  });
  return ranked.sort((a, b) => a.rank - b.rank).map((entry) => entry.url);
}

/** Post links straight from the home page (used when there is no blog index): /blog/<slug> and the like. */
export function homePostLinks(links: PageLink[], scope: SiteScope): URL[] {
  const blogWords = ROLE_WORDS.blog.paths;
  return links
    .map((link) => link.url)
    .filter((url) => {
      const segments = pathSegments(url);
      return (
        scope.contains(url) &&
        segments.length >= 2 &&
        blogWords.includes(segments[0] as string) &&
        !segments.some((segment) => LIST_SEGMENTS.has(segment))
      );
    });
}

/** The URL a page's relative links resolve against: its http(s) <base href>, else its own URL. */
export function documentBase($: CheerioAPI, pageUrl: URL): URL {
  return resolveLink($('base[href]').first().attr('href'), pageUrl) ?? pageUrl;
}

function resolveLink(href: string | undefined, base: URL): URL | null {
  if (href === undefined) return null;
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.hash = '';
  return url;
}

function pathSegments(url: URL): string[] {
  return url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).toLowerCase();
      } catch {
        return segment.toLowerCase();
      }
    })
    .map((segment) => segment.replace(/\.(html?|php|aspx?)$/, ''));
}

function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function stripQuery(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
