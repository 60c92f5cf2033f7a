import type { GuardedResponse } from '../../platform/net/url-guard.ts';
import { UrlRejectedError, type UrlRejectReason } from '../../platform/net/url-rejected-error.ts';
import type { CrawlContext } from './crawl-context.ts';
import { MAX_REDIRECTS, REQUEST_TIMEOUT_MS } from './crawl-limits.ts';
import { CRAWLER_USER_AGENT } from './crawler-agent.ts';
import type { CrawlSkipReason } from './site-crawl.ts';

export interface FetchedDocument {
  /** Final URL after redirects. */
  url: URL;
  status: number;
  contentType: string | null;
  body: Buffer;
}

/** A request that produced nothing usable, as the crawl report states it. */
export class FetchFailure extends Error {
  constructor(
    readonly reason: CrawlSkipReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FetchFailure';
  }
}

/**
 * One GET through the URL guard, following redirects here rather than in the guard, so that a hop leaving
 * the site is never requested and a loop is named as one; the guard still checks every hop (scheme,
 * address, DNS at connect). The body is capped at `maxBytes` while streaming, and the time is the smaller of
 * the per-request bound and what is left of the crawl. Throws FetchFailure; a cancelled crawl surfaces as
 * reason 'timeout' and the caller tells timeout from cancellation by the crawl's signal.
 */
export async function fetchDocument(
  ctx: CrawlContext,
  url: URL,
  options: { maxBytes: number; accept: string },
): Promise<FetchedDocument> {
  const visited = new Set<string>();
  let current = url;
  for (;;) {
    visited.add(current.href);
    const res = await fetchOnce(ctx, current, options);
    const location = REDIRECT_STATUSES.has(res.status) ? res.headers.location : undefined;
    if (location === undefined) {
      return {
        url: current,
        status: res.status,
        contentType: res.headers['content-type'] ?? null,
        body: res.body,
      };
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new FetchFailure('http_error', 'redirected to an address that is not a URL');
    }
    try {
      ctx.guard.checkUrlSyntax(next.href);
    } catch (err) {
      if (!(err instanceof UrlRejectedError)) throw err;
      throw new FetchFailure(SKIP_REASONS[err.reason], `redirect refused: ${err.message}`, { cause: err });
    }
    if (!ctx.scope.contains(next))
      throw new FetchFailure('off_domain', `redirected to another site (${next.host})`);
    if (visited.has(next.href)) throw new FetchFailure('redirect_loop', `redirect loop at ${next.href}`);
    if (visited.size > MAX_REDIRECTS)
      throw new FetchFailure('redirect_loop', `more than ${MAX_REDIRECTS} redirects`);
    current = next;
  }
}

async function fetchOnce(
  ctx: CrawlContext,
  url: URL,
  options: { maxBytes: number; accept: string },
): Promise<GuardedResponse> {
  const remaining = ctx.deadline - Date.now();
  if (remaining <= 0 || ctx.signal.aborted) throw new FetchFailure('timeout', 'the crawl ran out of time');
  try {
    return await ctx.guard.request(url.href, {
      headers: { 'user-agent': CRAWLER_USER_AGENT, accept: options.accept },
      maxBytes: options.maxBytes,
      redirect: 'manual',
      timeoutMs: Math.min(REQUEST_TIMEOUT_MS, remaining),
      signal: ctx.signal,
    });
  } catch (err) {
    if (!(err instanceof UrlRejectedError)) throw err;
    throw new FetchFailure(SKIP_REASONS[err.reason], err.message, { cause: err });
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const SKIP_REASONS: Record<UrlRejectReason, CrawlSkipReason> = {
  invalid_url: 'url_refused',
  url_too_long: 'url_refused',
  scheme_not_allowed: 'url_refused',
  userinfo_not_allowed: 'url_refused',
  ip_literal: 'url_refused',
  internal_host: 'url_refused',
  private_address: 'url_refused',
  dns_failed: 'unreachable',
  fetch_failed: 'unreachable',
  too_many_redirects: 'redirect_loop',
  too_large: 'too_large',
  timeout: 'timeout',
  aborted: 'timeout',
  http_status: 'http_error',
};
