// One spelling per article, so the same link from two sources counts once and links a story's items: no
// scheme, no "www."/"m."/"amp." host prefix, no AMP path suffix, no tracking parameters, no fragment, no
// trailing slash; remaining query parameters sorted.

const HOST_PREFIX = /^(www|m|amp|mobile)\./;
const TRACKING_PARAM =
  /^(utm_.+|fbclid|gclid|dclid|mc_cid|mc_eid|ocid|cmpid|smid|taid|ref|ref_src|src|at_medium|at_campaign)$/i;

export function canonicalUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.toLowerCase().replace(HOST_PREFIX, '');
  const path = parsed.pathname.replace(/\/amp\/?$/i, '').replace(/\/+$/, '');
  const params = [...parsed.searchParams]
    .filter(([name]) => !TRACKING_PARAM.test(name))
    .sort(([a, av], [b, bv]) => a.localeCompare(b) || av.localeCompare(bv));
  const query = new URLSearchParams(params).toString();
  return `${host}${path}${query ? `?${query}` : ''}`;
}
