import { parse as parseDomain } from 'tldts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { UrlRejectedError } from '../../platform/net/url-rejected-error.ts';
import { CrawlError } from './crawl-error.ts';

/**
 * Which URLs belong to the site being crawled: the same registrable domain (eTLD+1, with the private
 * section of the public suffix list, so `shop.github.io` is not `blog.github.io`), or for an IP address or
 * `localhost` the same host and port.
 */
export class SiteScope {
  private constructor(
    /** eTLD+1, or the host (with port) of an IP or localhost site. */
    readonly domain: string,
    private readonly byHost: boolean,
  ) {}

  static of(url: URL): SiteScope {
    const registrable = registrableDomain(url);
    return registrable === null ? new SiteScope(url.host, true) : new SiteScope(registrable, false);
  }

  contains(url: URL): boolean {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    return this.byHost ? url.host === this.domain : registrableDomain(url) === this.domain;
  }
}

function registrableDomain(url: URL): string | null {
  const parsed = parseDomain(url.hostname, { allowPrivateDomains: true });
  return parsed.isIp ? null : parsed.domain;
}

/**
 * The URL a customer typed, as the crawl's start: a bare domain becomes https://domain/, a fragment is
 * dropped, and plain http is upgraded to https wherever the guard would refuse http (it only allows http
 * to loopback test servers). Throws CrawlError('url_refused') for anything else the guard refuses.
 */
export function normalizeSiteUrl(raw: string, guard: UrlGuard): URL {
  const trimmed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new CrawlError('url_refused', 'the website address is not a valid domain or URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CrawlError('url_refused', 'the website address must be a domain or an http(s) URL');
  }
  const fetchable = fetchableUrl(url, guard);
  if (fetchable instanceof UrlRejectedError) {
    throw new CrawlError('url_refused', `the website address is refused: ${fetchable.message}`, {
      cause: fetchable,
    });
  }
  return fetchable;
}

/**
 * A link as the crawler may request it: without fragment, upgraded from http to https when the guard would
 * refuse http, or the guard's syntax refusal (no DNS here; every request is checked again in full).
 */
export function fetchableUrl(url: URL, guard: UrlGuard): URL | UrlRejectedError {
  const target = new URL(url.href);
  target.hash = '';
  try {
    return guard.checkUrlSyntax(target.href);
  } catch (err) {
    if (!(err instanceof UrlRejectedError)) throw err;
    if (err.reason !== 'scheme_not_allowed' || target.protocol !== 'http:') return err;
  }
  target.protocol = 'https:';
  try {
    return guard.checkUrlSyntax(target.href);
  } catch (err) {
    if (err instanceof UrlRejectedError) return err;
    throw err;
  }
}
