import { classifyAddress } from './blocked-addresses.ts';
import { UrlRejectedError } from './url-rejected-error.ts';

export const MAX_URL_LENGTH = 2048;

// Names that only mean something inside a private network (RFC 6761/6762/8375 and common intranet TLDs).
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'svc',
  'arpa',
  'test',
  'invalid',
  'example',
  'onion',
];

/** Host of a URL without IPv6 brackets or a trailing root dot, lower-case as WHATWG URL leaves it. */
export function bareHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.replace(/\.+$/, '');
}

/** WHATWG URL has already rewritten decimal/octal/hex/short IPv4 spellings to dotted quads. */
export function isIpLiteral(url: URL): boolean {
  return url.hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname);
}

export function isInternalName(host: string): boolean {
  if (!host.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/** True when the URL names a loopback server directly: 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopbackTarget(url: URL): boolean {
  const host = bareHost(url);
  if (host === 'localhost') return true;
  return isIpLiteral(url) && classifyAddress(host) === 'loopback';
}

/**
 * Syntax-only check (no DNS): parses `raw` and refuses anything the guard would never fetch.
 * With `allowLoopback`, http/https to loopback literals and `localhost` are also accepted.
 */
export function checkUrlSyntax(raw: string, allowLoopback: boolean): URL {
  if (typeof raw !== 'string' || raw.length === 0) throw new UrlRejectedError('invalid_url', 'URL is empty');
  if (raw.length > MAX_URL_LENGTH) {
    throw new UrlRejectedError('url_too_long', `URL is longer than ${MAX_URL_LENGTH} characters`);
  }
  // WHATWG URL silently drops tabs/newlines and trims spaces; refuse them so what is checked is what was sent.
  if (/[\u0000-\u0020\u007f]/.test(raw)) {
    throw new UrlRejectedError('invalid_url', 'URL contains whitespace or control characters');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRejectedError('invalid_url', 'URL is not a valid absolute URL');
  }
  const loopbackTarget = allowLoopback && isLoopbackTarget(url);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackTarget)) {
    throw new UrlRejectedError(
      'scheme_not_allowed',
      `URL scheme "${url.protocol.slice(0, -1)}" is not allowed; use https`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UrlRejectedError('userinfo_not_allowed', 'URL must not contain a user name or password');
  }
  if (url.port === '0') throw new UrlRejectedError('invalid_url', 'URL port 0 is not valid');
  if (loopbackTarget) return url;
  const host = bareHost(url);
  if (host === '') throw new UrlRejectedError('invalid_url', 'URL has no host');
  if (isIpLiteral(url)) {
    const category = classifyAddress(host);
    const range = category === 'public' ? '' : ` in the ${category} range`;
    throw new UrlRejectedError(
      'ip_literal',
      `URL host ${host} is an IP address${range}; use a public host name`,
    );
  }
  if (isInternalName(host)) {
    throw new UrlRejectedError('internal_host', `URL host "${host}" is an internal or single-label name`);
  }
  return url;
}
