// A SiteCrawl built from pages already in hand (tests, benchmarks, a site read from disk), so the
// extractors can run without a crawler or a server.
import { getDomain } from 'tldts';
import type { CrawledPage, CrawledStylesheet, PageRole, SiteCrawl } from '../crawl/site-crawl.ts';

export interface PageInput {
  url: string;
  html: string;
  role?: PageRole;
}

/** The first page is the home page unless a role says otherwise. */
export function crawlOfPages(
  pages: readonly PageInput[],
  stylesheets: readonly CrawledStylesheet[] = [],
): SiteCrawl {
  const first = pages[0];
  if (!first) throw new TypeError('a crawl needs at least one page');
  const crawled: CrawledPage[] = pages.map((p, i) => ({
    role: p.role ?? (i === 0 ? 'home' : 'about'),
    url: p.url,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    charset: 'utf-8',
    html: p.html,
    bytes: Buffer.byteLength(p.html),
  }));
  const home = crawled.find((p) => p.role === 'home') ?? crawled[0]!;
  const host = new URL(home.url).hostname;
  return {
    requestedUrl: home.url,
    homeUrl: home.url,
    domain: getDomain(host) ?? host,
    pages: crawled,
    stylesheets: [...stylesheets],
    skipped: [],
    robotsTxt: false,
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
  };
}
