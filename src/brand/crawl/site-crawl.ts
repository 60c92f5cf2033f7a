// What one crawl of a brand's website yields. The crawler (crawl-site.ts) makes it; brand analysis and
// website-only brand kits read it, and the stored copy answers warm re-analyses.

/**
 * Why a page was chosen: the home page, then the pages the spec names, found from links and common paths.
 * `blog` is the blog index the one post is found on: it is fetched anyway, and its post titles feed topics.
 */
export type PageRole = 'home' | 'about' | 'pricing' | 'customers' | 'blog' | 'blog_post';

export interface CrawledPage {
  role: PageRole;
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** The charset the HTML was decoded with (from the header, else the page's <meta>, else sniffed). */
  charset: string;
  /**
   * Decoded markup, checked to parse in bounded time (markup-check.ts: at most 512 levels deep, at most
   * 1000 attributes on one element), so readers may hand it to cheerio as is.
   */
  html: string;
  bytes: number;
}

/** A same-site stylesheet linked from a crawled page (stylesheets and images do not count as pages). */
export interface CrawledStylesheet {
  url: string;
  css: string;
}

export type CrawlSkipReason =
  | 'robots'
  | 'off_domain'
  | 'url_refused'
  | 'too_large'
  | 'not_html'
  | 'http_error'
  | 'timeout'
  | 'redirect_loop'
  | 'unreadable'
  | 'unreachable'
  | 'duplicate'
  | 'page_limit';

/** A URL the crawler chose not to fetch, or fetched and dropped, with the reason (the kit's `autogen` report). */
export interface CrawlSkip {
  url: string;
  reason: CrawlSkipReason;
  detail?: string;
}

export interface SiteCrawl {
  /** The URL asked for, normalized (a bare domain becomes https://domain/). */
  requestedUrl: string;
  /** The home page's final URL. */
  homeUrl: string;
  /** Registrable domain (eTLD+1) every fetched page belongs to. */
  domain: string;
  pages: CrawledPage[];
  stylesheets: CrawledStylesheet[];
  skipped: CrawlSkip[];
  /** Whether robots.txt was found and read. */
  robotsTxt: boolean;
  startedAt: string;
  durationMs: number;
}
