// The HTTP exchange both hosted video-model clients share: every request goes through the URL guard, the
// answer is read as JSON, and failures become VideoProviderError kinds the shot follower knows how to treat
// (wait and retry, give up, or report a refusal).

import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import { VideoProviderError } from './video-model-provider.ts';

export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  json: unknown;
  text: string;
}

export interface ProviderRequestOptions {
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** JSON answers from these APIs are small; a bigger one is not an answer of the documented shape. */
const MAX_JSON_BYTES = 2 * 1024 * 1024;
const NETWORK_REASONS = new Set(['fetch_failed', 'timeout', 'dns_failed']);

export async function providerRequest(
  guard: Pick<UrlGuard, 'request'>,
  label: string,
  url: string,
  options: ProviderRequestOptions,
): Promise<ProviderResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  let response;
  try {
    response = await guard.request(url, {
      method: options.method,
      headers,
      body,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_JSON_BYTES,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof UrlRejectedError) || error.reason === 'aborted') throw error;
    const kind = NETWORK_REASONS.has(error.reason) ? 'unavailable' : 'bad_response';
    throw new VideoProviderError(kind, `${label} could not be reached: ${error.message}`);
  }
  const text = response.body.toString('utf8');
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSec(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.max(0, Number(raw));
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : undefined;
}

/** A non-2xx answer as an error; `detail` is the provider's own explanation when it gave one. */
export function statusError(
  label: string,
  response: ProviderResponse,
  detail: string | undefined,
  credential: string,
): VideoProviderError {
  const { status } = response;
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403) {
    return new VideoProviderError(
      'unauthorized',
      `${label} refused the credentials (HTTP ${status}); check ${credential}${suffix}`,
      status,
    );
  }
  if (status === 429) {
    const wait = retryAfterSec(response.headers);
    const when = wait === undefined ? '' : `; retry after ${wait} s`;
    return new VideoProviderError('rate_limited', `${label} rate limit reached${when}`, status, wait);
  }
  if (status >= 500 || status === 408) {
    return new VideoProviderError('unavailable', `${label} answered HTTP ${status}${suffix}`, status);
  }
  if (status === 400 || status === 404 || status === 422) {
    return new VideoProviderError(
      'invalid_input',
      `${label} rejected the request (HTTP ${status})${suffix}`,
      status,
    );
  }
  return new VideoProviderError('bad_response', `${label} answered HTTP ${status}${suffix}`, status);
}

/** Keeps provider messages short enough for logs and job errors. */
export function clip(message: string, max = 300): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
