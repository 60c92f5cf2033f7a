// Every bound of one website crawl, in one place (docs cite them; tests and benchmarks import them).

/** Pages kept: home, about, pricing, customers, the blog index and one post (spec: at most 6). */
export const MAX_PAGES = 6;
/** Whole crawl, robots.txt to the last stylesheet (spec: about 40 s). */
export const CRAWL_TIMEOUT_MS = 40_000;
/** One page or stylesheet exchange, redirects included, so one slow host cannot eat the whole budget. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** One HTML page; larger pages are dropped (a home page that large fails the crawl). */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
/** robots.txt larger than this (RFC 9309 asks parsers to read at least 500 KiB) is treated as absent. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** Same-site stylesheets fetched across all pages, and the size of each. */
export const MAX_STYLESHEETS = 8;
export const STYLESHEET_MAX_BYTES = 1024 * 1024;
/** Redirect hops per request, each re-checked by the URL guard. */
export const MAX_REDIRECTS = 5;
/** Requests made to find one page (linked candidates first, then common paths). */
export const MAX_ATTEMPTS_PER_PAGE = 3;
/** Requests in flight at once. */
export const CONCURRENCY = 3;
/**
 * Markup deeper than this, or an element with more attributes than that, is refused before it is parsed:
 * the spec-compliant parser's work grows with the square of both, and browsers stop nesting at 512 too.
 */
export const MAX_NESTING_DEPTH = 512;
export const MAX_ATTRIBUTES_PER_ELEMENT = 1000;
