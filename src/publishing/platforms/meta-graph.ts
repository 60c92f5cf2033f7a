// What Instagram and Facebook share as Meta Graph API clients: the version path and the error body
// ({"error": {"code", "error_subcode", "type", "message", "is_transient"}}), whose code — not the HTTP status — says
// whether a token expired (190) or a rate limit was hit (4, 17, 32, 613, 80000-range business use case limits).
// Docs: https://developers.facebook.com/docs/graph-api/guides/error-handling https://developers.facebook.com/docs/graph-api/overview/rate-limiting

import { PlatformError } from './platform-error.ts';
import {
  asRecord,
  rateLimited,
  retryAfterHeaderMs,
  statusError,
  str,
  type ErrorClassifier,
  type PlatformResponse,
} from './platform-support.ts';

export const DEFAULT_GRAPH_VERSION = 'v25.0';

const TOKEN_CODES = new Set([102, 190]);
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
const TRANSIENT_CODES = new Set([1, 2]);

export function graphVersion(apiVersion: string | undefined): string {
  const version = apiVersion ?? DEFAULT_GRAPH_VERSION;
  if (!/^v\d+\.\d+$/.test(version))
    throw new Error(`platform clients: apiVersion "${version}" is not like v25.0`);
  return version;
}

/**
 * Minutes until Meta lifts a business use case throttle, from X-Business-Use-Case-Usage
 * ({"<id>": [{"type", "call_count", "estimated_time_to_regain_access"}]}), as milliseconds.
 */
export function businessUseCaseWaitMs(headers: Headers): number | undefined {
  const raw = headers.get('x-business-use-case-usage');
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  let minutes: number | undefined;
  for (const entries of Object.values(asRecord(parsed))) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const value = Number(asRecord(entry).estimated_time_to_regain_access);
      if (Number.isFinite(value)) minutes = Math.max(minutes ?? 0, value);
    }
  }
  return minutes === undefined ? undefined : minutes * 60_000;
}

export function metaErrorClassifier(name: string): ErrorClassifier {
  return (response: PlatformResponse, what: string): PlatformError => {
    const error = asRecord(asRecord(response.json).error);
    const code = Number(error.code);
    const subcode = Number(error.error_subcode);
    const message = str(error.error_user_msg) ?? str(error.message);
    const codes = Number.isFinite(code)
      ? ` (code ${code}${Number.isFinite(subcode) ? `/${subcode}` : ''})`
      : '';
    const detail = message ? `${message}${codes}` : undefined;
    if (TOKEN_CODES.has(code)) {
      return new PlatformError(
        'PLATFORM_OAUTH_EXPIRED',
        `${what}: ${name} says the access token is no longer valid${detail ? `: ${detail}` : ''}. Refresh it or reconnect the account.`,
        { status: response.status },
      );
    }
    if (RATE_LIMIT_CODES.has(code) || (code >= 80000 && code < 80100)) {
      const waitMs = retryAfterHeaderMs(response.headers) ?? businessUseCaseWaitMs(response.headers);
      return rateLimited(name, what, response.status, detail, waitMs);
    }
    if (error.is_transient === true || TRANSIENT_CODES.has(code)) {
      return new PlatformError(
        'PLATFORM_UNAVAILABLE',
        `${what}: ${name} had a temporary problem: ${detail}`,
        {
          status: response.status,
        },
      );
    }
    return statusError(name, what, response, detail);
  };
}
