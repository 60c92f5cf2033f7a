// The one way a trend source talks HTTP: through the URL guard (time and size bounded, redirects re-checked),
// with a descriptive User-Agent (Reddit and Wikimedia ask for one), and every failure turned into a
// SourceError that names the source and the host, never the full URL (YouTube's key travels in the query).
import type { z } from 'zod';
import {
  UrlRejectedError,
  type GuardedResponse,
  type UrlGuard,
  type UrlRejectReason,
} from '../../platform/net/url-guard.ts';
import { SourceError, type SourceErrorReason } from './source-error.ts';
import type { SourceName } from './source-item.ts';

export type SourceGuard = Pick<UrlGuard, 'request'>;

export const TRENDS_USER_AGENT = 'server:reelsmith-trend-radar:1.0 (self-hosted Reelsmith trends radar)';
/** Per request; the radar's overall deadline (gather-items.ts) bounds the whole gathering as well. */
export const SOURCE_TIMEOUT_MS = 8_000;
/** The largest API answer any source needs (a 100-post Reddit listing is well under 1 MB). */
export const SOURCE_MAX_BYTES = 4 * 1024 * 1024;

export interface SourceRequestOptions {
  signal: AbortSignal;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

const REJECTION_REASONS: Partial<Record<UrlRejectReason, SourceErrorReason>> = {
  timeout: 'timeout',
  aborted: 'timeout',
  too_large: 'too_large',
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured host';
  }
}

/** Sends one request; answers whatever status came back, and throws SourceError when none did. */
export async function sourceRequest(
  guard: SourceGuard,
  source: SourceName,
  url: string,
  options: SourceRequestOptions,
): Promise<GuardedResponse> {
  try {
    return await guard.request(url, {
      method: options.method,
      headers: { 'user-agent': TRENDS_USER_AGENT, ...options.headers },
      body: options.body,
      timeoutMs: options.timeoutMs ?? SOURCE_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? SOURCE_MAX_BYTES,
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof UrlRejectedError) {
      throw new SourceError(source, REJECTION_REASONS[err.reason] ?? 'unreachable', err.message, {
        cause: err,
      });
    }
    throw new SourceError(source, 'unreachable', `request to ${hostOf(url)} failed`, { cause: err });
  }
}

export function statusError(source: SourceName, response: GuardedResponse): SourceError {
  const reason = response.status === 429 ? 'rate_limited' : 'http_status';
  return new SourceError(source, reason, `${hostOf(response.url)} answered HTTP ${response.status}`);
}

export function isOk(response: GuardedResponse): boolean {
  return response.status >= 200 && response.status <= 299;
}

/** The body as JSON of the documented shape, or a bad_response SourceError. */
export function parseJsonBody<T>(source: SourceName, response: GuardedResponse, schema: z.ZodType<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new SourceError(
      source,
      'bad_response',
      `${hostOf(response.url)} answered something other than JSON`,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || 'the top level';
    throw new SourceError(
      source,
      'bad_response',
      `${hostOf(response.url)} answered JSON of another shape (at ${where})`,
    );
  }
  return parsed.data;
}

/** GET (by default) a 2xx JSON answer of the documented shape. */
export async function fetchJson<T>(
  guard: SourceGuard,
  source: SourceName,
  url: string,
  schema: z.ZodType<T>,
  options: SourceRequestOptions,
): Promise<T> {
  const response = await sourceRequest(guard, source, url, {
    ...options,
    headers: { accept: 'application/json', ...options.headers },
  });
  if (!isOk(response)) throw statusError(source, response);
  return parseJsonBody(source, response, schema);
}

/** Runs `work` over `inputs` with at most `limit` in flight, keeping the input order in the results. */
export async function mapLimited<T, R>(
  inputs: readonly T[],
  limit: number,
  work: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await work(inputs[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, lane));
  return results;
}

/** Drops the trailing slashes of a configured base URL so paths join with exactly one. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
