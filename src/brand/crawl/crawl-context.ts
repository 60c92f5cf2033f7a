import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { CrawlSkip } from './site-crawl.ts';
import type { SiteScope } from './site-scope.ts';

/** What every step of one crawl shares: the guard, the site's scope, one deadline and the skip report. */
export interface CrawlContext {
  guard: UrlGuard;
  scope: SiteScope;
  /** Fires on the crawl's deadline or the caller's cancellation; every request listens to it. */
  signal: AbortSignal;
  /** Epoch ms when the crawl must end. */
  deadline: number;
  skipped: CrawlSkip[];
  /** Runs network work with bounded concurrency. */
  limit: <T>(task: () => Promise<T>) => Promise<T>;
}

export function skip(ctx: CrawlContext, entry: CrawlSkip): void {
  if (!ctx.skipped.some((s) => s.url === entry.url && s.reason === entry.reason)) ctx.skipped.push(entry);
}
