// A logo named by URL is fetched exactly once, through the URL guard (https, public addresses only, redirects
// re-checked, size and time bounded), and only kept when its bytes are an image normalizeLogo accepts.
import { UrlRejectedError, type UrlGuard, type UrlRejectReason } from '../../platform/net/url-guard.ts';
import { logoErrors } from './logo-errors.ts';
import { describeUnsupported, detectLogoFormat } from './logo-format.ts';
import { MAX_LOGO_BYTES } from './normalize-logo.ts';

export const LOGO_FETCH_TIMEOUT_MS = 15_000;

const ACCEPT = 'image/png,image/webp,image/jpeg,image/svg+xml;q=0.9,*/*;q=0.1';

export interface FetchedLogo {
  bytes: Buffer;
  /** As the server declared it; the bytes decide the format. */
  contentType: string | null;
  /** The URL after redirects. */
  finalUrl: string;
}

/** Guard reasons that refuse the address itself (not a fetch that failed); a caller may answer these as a bad field. */
export const ADDRESS_REFUSALS: ReadonlySet<UrlRejectReason> = new Set<UrlRejectReason>([
  'invalid_url',
  'url_too_long',
  'scheme_not_allowed',
  'userinfo_not_allowed',
  'ip_literal',
  'internal_host',
  'private_address',
]);

function fetchProblem(err: UrlRejectedError): string {
  if (ADDRESS_REFUSALS.has(err.reason))
    return `its URL was refused (${err.message}); use a public https address`;
  if (err.reason === 'too_large') return `the file is larger than ${MAX_LOGO_BYTES / 1024 / 1024} MB`;
  if (err.reason === 'timeout')
    return `its server did not deliver it within ${LOGO_FETCH_TIMEOUT_MS / 1000} s`;
  return `it could not be fetched (${err.message})`;
}

/**
 * Throws ApiError 422 LOGO_UNREADABLE for a refused URL, a failed or non-2xx fetch, or bytes that are not PNG,
 * JPEG, WebP or SVG; `details.reason` is the guard's reason when the guard refused. Cancellation (the caller's
 * signal) is rethrown as it came.
 */
export async function fetchLogo(url: string, guard: UrlGuard, signal?: AbortSignal): Promise<FetchedLogo> {
  let response;
  try {
    response = await guard.request(url, {
      method: 'GET',
      headers: { accept: ACCEPT },
      maxBytes: MAX_LOGO_BYTES,
      timeoutMs: LOGO_FETCH_TIMEOUT_MS,
      signal,
    });
  } catch (err) {
    if (!(err instanceof UrlRejectedError) || err.reason === 'aborted') throw err;
    throw logoErrors.unreadable(fetchProblem(err), { reason: err.reason });
  }
  if (response.status < 200 || response.status > 299)
    throw logoErrors.unreadable(`its server answered HTTP ${response.status}`, { reason: 'http_status' });
  const contentType = response.headers['content-type'] ?? null;
  if (!detectLogoFormat(response.body))
    throw logoErrors.unreadable(describeUnsupported(response.body, contentType));
  return { bytes: response.body, contentType, finalUrl: response.url };
}
