// Where a site's logo may be, best first: the header's logo image or inline SVG, then the
// apple-touch-icon, then the other icons, and the og:image (a share picture, rarely the logo) last.
import type { CheerioAPI } from 'cheerio';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import { absoluteUrl, baseUrlOf, homeDocument, siteDocuments, type SiteDocument } from './site-documents.ts';

export type LogoCandidate =
  | { kind: 'url'; url: string; source: 'header_img' | 'apple_touch_icon' | 'og_image' | 'icon' }
  | { kind: 'svg'; svg: string; source: 'inline_svg' };

const HEADER_REGION =
  'header, [role="banner"], nav, [class*="header"], [id*="header"], [class*="navbar"], [class*="masthead"]';
const LOGO_HINT = /logo|brand|wordmark/i;
const SVG_SHAPES = 'path, rect, circle, ellipse, polygon, polyline, line, text, image';

type Node = Parameters<CheerioAPI>[0];

interface Scored {
  candidate: LogoCandidate;
  score: number;
  order: number;
}

/** Whether a link points at the site's home page (the usual target of a header logo). */
function isHomeLink(href: string | undefined, base: string, home: URL): boolean {
  const url = absoluteUrl(href, base);
  if (!url) return false;
  const target = new URL(url);
  const bare = (host: string): string => host.replace(/^www\./, '');
  return (
    bare(target.hostname) === bare(home.hostname) &&
    /^\/(?:index\.[a-z]+|[a-z]{2}(?:-[a-z]{2})?\/?)?$/i.test(target.pathname)
  );
}

/** The attributes of an element and its two nearest ancestors that name what it is. */
function describes($: CheerioAPI, el: Node): string {
  const node = $(el);
  const own = ['alt', 'class', 'id', 'title', 'aria-label', 'src', 'data-src']
    .map((a) => node.attr(a) ?? '')
    .join(' ');
  const around = node
    .parents()
    .slice(0, 2)
    .toArray()
    .map((p) => `${$(p).attr('class') ?? ''} ${$(p).attr('id') ?? ''} ${$(p).attr('aria-label') ?? ''}`)
    .join(' ');
  return `${own} ${around} ${node.find('title').first().text()}`;
}

/** The largest picture a srcset offers (by width, else by density); src when there is none. */
export function largestSource(src: string | undefined, srcset: string | undefined): string | undefined {
  let best: { url: string; size: number } | undefined;
  for (const entry of (srcset ?? '').split(/,\s+/)) {
    const [url, descriptor = '1x'] = entry.trim().split(/\s+/);
    if (!url) continue;
    const size = Number.parseFloat(descriptor) * (descriptor.endsWith('w') ? 1 : 1000);
    if (Number.isFinite(size) && (!best || size > best.size)) best = { url, size };
  }
  return best?.url ?? src;
}

function imageSource($: CheerioAPI, el: Node): string | undefined {
  const img = $(el);
  const src = [img.attr('src'), img.attr('data-src'), img.attr('data-lazy-src')].find(
    (s) => s !== undefined && s.trim() !== '' && !s.trim().startsWith('data:'),
  );
  return largestSource(src, img.attr('srcset') ?? img.attr('data-srcset'));
}

/** The SVG as a standalone document: a namespace added when the page relied on HTML parsing to omit it. */
function standaloneSvg($: CheerioAPI, el: Node): string | undefined {
  const svg = $(el).clone();
  if (svg.find(SVG_SHAPES).length === 0) return undefined;
  if (!svg.attr('xmlns')) svg.attr('xmlns', 'http://www.w3.org/2000/svg');
  return $.html(svg);
}

function headerCandidates(doc: SiteDocument, home: URL): Scored[] {
  const { $ } = doc;
  const base = baseUrlOf(doc);
  const out: Scored[] = [];
  $('img, svg').each((order, el) => {
    const node = $(el);
    if (node.parents('svg').length > 0) return;
    const inHeader = node.closest(HEADER_REGION).length > 0;
    const hinted = LOGO_HINT.test(describes($, el));
    const linkedHome = isHomeLink(node.closest('a').attr('href'), base, home);
    // A header image that is neither called a logo nor linked home is more likely an avatar, a flag or an icon.
    if (!hinted && !(inHeader && linkedHome)) return;
    if (el.tagName === 'svg' && !inHeader) return;
    const score = (hinted ? 4 : 0) + (inHeader ? 3 : 0) + (linkedHome ? 3 : 0);
    if (el.tagName === 'img') {
      const url = absoluteUrl(imageSource($, el), base);
      if (url) out.push({ candidate: { kind: 'url', url, source: 'header_img' }, score, order });
    } else {
      const svg = standaloneSvg($, el);
      if (svg) out.push({ candidate: { kind: 'svg', svg, source: 'inline_svg' }, score, order });
    }
  });
  return out.sort((a, b) => b.score - a.score || a.order - b.order);
}

/** Largest side declared in `sizes` ("180x180", "any" for a scalable icon). */
function declaredSize(sizes: string | undefined): number {
  if (!sizes) return 0;
  if (/\bany\b/i.test(sizes)) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, ...sizes.split(/\s+/).map((s) => Number.parseInt(s.split(/x/i)[0] ?? '', 10) || 0));
}

function linkIcons(doc: SiteDocument, rel: RegExp, source: 'apple_touch_icon' | 'icon'): LogoCandidate[] {
  const { $ } = doc;
  const base = baseUrlOf(doc);
  const found: { url: string; size: number; ico: boolean; order: number }[] = [];
  $('link[rel][href]').each((order, el) => {
    const link = $(el);
    const rels = (link.attr('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rels.some((r) => rel.test(r))) return;
    const url = absoluteUrl(link.attr('href'), base);
    if (!url) return;
    // Icon files (.ico) are rarely decodable by image libraries; they go after every other format.
    const ico = /\.ico$/i.test(new URL(url).pathname) || link.attr('type') === 'image/x-icon';
    found.push({ url, size: declaredSize(link.attr('sizes')), ico, order });
  });
  found.sort((a, b) => Number(a.ico) - Number(b.ico) || b.size - a.size || a.order - b.order);
  return found.map((f) => ({ kind: 'url', url: f.url, source }));
}

function ogImages(doc: SiteDocument): LogoCandidate[] {
  const { $ } = doc;
  const base = baseUrlOf(doc);
  return $('meta[property="og:image"], meta[property="og:image:secure_url"], meta[name="og:image"]')
    .toArray()
    .map((el) => absoluteUrl($(el).attr('content'), base))
    .filter((url): url is string => url !== undefined)
    .map((url) => ({ kind: 'url', url, source: 'og_image' }));
}

/** Every place the site's logo may be, best first, without duplicates. */
export function logoCandidates(crawl: SiteCrawl): LogoCandidate[] {
  const home = homeDocument(crawl);
  if (!home) return [];
  const homeUrl = new URL(crawl.homeUrl || home.page.url);
  // The header is the same on every page; another page is read only when the home page shows no logo.
  let header: Scored[] = [];
  for (const doc of siteDocuments(crawl)) {
    header = headerCandidates(doc, homeUrl);
    if (header.length > 0) break;
  }
  const all = [
    ...header.map((h) => h.candidate),
    ...linkIcons(home, /^apple-touch-icon(-precomposed)?$/, 'apple_touch_icon'),
    ...linkIcons(home, /^icon$/, 'icon'),
    ...ogImages(home),
  ];
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = c.kind === 'url' ? c.url : c.svg;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
