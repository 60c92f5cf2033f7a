import type { CrawlSkipReason } from './site-crawl.ts';

/** Why a whole crawl failed: the home page's skip reason, or the caller's cancellation. */
export type CrawlErrorReason = Exclude<CrawlSkipReason, 'page_limit' | 'duplicate'> | 'aborted';

/**
 * The site could not be crawled at all (its home page was refused, unreachable, not HTML, too large, too
 * slow, …). `message` is one sentence a customer can act on; it names at most the host, never the full URL.
 */
export class CrawlError extends Error {
  readonly reason: CrawlErrorReason;

  constructor(reason: CrawlErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CrawlError';
    this.reason = reason;
  }
}
