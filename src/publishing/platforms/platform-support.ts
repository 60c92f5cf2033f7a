// What the five platform clients share: one HTTP exchange with retry and backoff (Retry-After honoured, a wait longer
// than the policy allows reported instead of slept), the mapping of answers to PlatformError codes, OAuth refresh,
// reading the video in pieces (never the whole file into memory), waiting out platform-side processing, and captions.
//
// Platform hosts are fixed by this code or set by the operator (baseUrl), never by users, so requests go out over plain
// fetch; URLs a platform hands back (upload sessions) are pinned to that platform's own domain before use.

import { stat, open, type FileHandle } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import { PlatformError } from './platform-error.ts';
import type {
  PlatformClientsConfig,
  PlatformEndpointsConfig,
  PlatformToken,
  VideoToPost,
} from './platform.ts';

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 };
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** One upload request carries a chunk (Facebook: the rest of the file); a stall this long is an interruption to resume. */
export const UPLOAD_REQUEST_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 5_000;
const DEFAULT_PROCESSING_TIMEOUT_MS = 15 * 60_000;
/** Piece size when a file is streamed as one request body. */
const STREAM_PIECE_BYTES = 1024 * 1024;
/** Platform answers are small JSON documents; anything bigger is not an answer of the documented shape. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface ClientContext {
  endpoints: PlatformEndpointsConfig;
  retry: RetryPolicy;
  fetch: typeof fetch;
}

/** Refuses a configuration that would only fail later, at the first post. */
export function checkClientsConfig(config: PlatformClientsConfig): void {
  const retry = config.retry;
  if (
    retry &&
    !(
      Number.isInteger(retry.maxAttempts) &&
      retry.maxAttempts >= 1 &&
      retry.baseDelayMs >= 0 &&
      retry.maxDelayMs >= retry.baseDelayMs
    )
  ) {
    throw new Error(
      'platform clients: retry needs an integer maxAttempts ≥ 1 and 0 ≤ baseDelayMs ≤ maxDelayMs',
    );
  }
  for (const [id, endpoints] of Object.entries(config.platforms)) {
    if (!endpoints) continue;
    if (endpoints.baseUrl !== undefined) {
      let url: URL;
      try {
        url = new URL(endpoints.baseUrl);
      } catch {
        throw new Error(`platform clients: ${id}.baseUrl is not a URL`);
      }
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
        throw new Error(`platform clients: ${id}.baseUrl must be an http(s) origin with an optional path`);
      }
    }
    for (const key of ['chunkBytes', 'pollIntervalMs', 'processingTimeoutMs', 'requestTimeoutMs'] as const) {
      const value = endpoints[key];
      if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
        throw new Error(`platform clients: ${id}.${key} must be a positive integer`);
      }
    }
    if (endpoints.app && (!endpoints.app.clientId || !endpoints.app.clientSecret)) {
      throw new Error(`platform clients: ${id}.app needs both clientId and clientSecret`);
    }
  }
}

/** Where requests meant for `defaultOrigin` go: the configured baseUrl replaces every host of the platform. */
export function originFor(endpoints: PlatformEndpointsConfig, defaultOrigin: string): string {
  return (endpoints.baseUrl ?? defaultOrigin).replace(/\/+$/, '');
}

/**
 * A URL the platform handed back (an upload session or target). With a baseUrl it is moved onto that origin like
 * every other host; otherwise it must be https on the platform's own domain, so a bad answer cannot aim the upload
 * (and its credentials) elsewhere.
 */
export function pinReturnedUrl(
  raw: unknown,
  endpoints: PlatformEndpointsConfig,
  domain: string,
  name: string,
  what: string,
): string {
  let url: URL;
  try {
    url = new URL(typeof raw === 'string' ? raw : '');
  } catch {
    throw new PlatformError('PLATFORM_UNAVAILABLE', `${what}: ${name} did not answer with an upload URL`);
  }
  if (endpoints.baseUrl !== undefined) return `${originFor(endpoints, '')}${url.pathname}${url.search}`;
  const onDomain = url.hostname === domain || url.hostname.endsWith(`.${domain}`);
  if (url.protocol !== 'https:' || !onDomain) {
    throw new PlatformError(
      'PLATFORM_UNAVAILABLE',
      `${what}: ${name} handed back an upload URL outside ${domain} (${url.protocol}//${url.hostname}); not used`,
      { retryable: false },
    );
  }
  return url.href;
}

export interface PlatformResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  json: unknown;
}

export type RequestBody = string | Uint8Array | URLSearchParams | FormData | ReadableStream<Uint8Array>;

export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** What the call does, for messages ("TikTok video init"). */
  what: string;
  headers?: Record<string, string>;
  /** A stream can be sent once only: requests with a stream body must set maxAttempts to 1. */
  body?: RequestBody;
  /**
   * Repeating the request cannot publish twice, so it is sent again after a network failure or a 5xx. Requests that
   * are not idempotent are repeated only after a rate-limit refusal, which says the platform did nothing.
   */
  idempotent: boolean;
  /** Statuses that are answers rather than failures; default 2xx. */
  accept?: (status: number) => boolean;
  /** 1 for upload pieces, whose recovery is the platform's resume protocol rather than a blind resend. */
  maxAttempts?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Turns an answer the request did not accept into the PlatformError it means. */
export type ErrorClassifier = (response: PlatformResponse, what: string) => PlatformError;

export class PlatformHttp {
  constructor(
    readonly name: string,
    private readonly context: ClientContext,
    private readonly classify: ErrorClassifier,
  ) {}

  get retry(): RetryPolicy {
    return this.context.retry;
  }

  async send(request: PlatformRequest): Promise<PlatformResponse> {
    const retry = this.context.retry;
    const maxAttempts = request.maxAttempts ?? retry.maxAttempts;
    const accept = request.accept ?? isSuccess;
    for (let attempt = 1; ; attempt++) {
      let failure: PlatformError;
      try {
        const response = await this.exchange(request);
        if (accept(response.status)) return response;
        failure = this.classify(response, request.what);
      } catch (error) {
        failure = this.transportFailure(error, request);
      }
      const again =
        attempt < maxAttempts &&
        failure.retryable &&
        (request.idempotent || failure.code === 'PLATFORM_RATE_LIMITED');
      if (!again) throw failure;
      const waitMs = Math.max(failure.retryAfterMs ?? 0, backoffDelay(attempt, retry));
      // A platform asking for a longer pause than the policy allows gets it from the job queue, not from a sleep here.
      if (waitMs > retry.maxDelayMs) throw failure;
      await sleep(waitMs, request.signal);
    }
  }

  private async exchange(request: PlatformRequest): Promise<PlatformResponse> {
    const timeout = AbortSignal.timeout(
      request.timeoutMs ?? this.context.endpoints.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers: request.headers,
      body: request.body as RequestInit['body'],
      signal,
      // Platform APIs answer rather than redirect; a 308 is YouTube's "resume incomplete", not a redirect to follow.
      redirect: 'manual',
    };
    if (request.body instanceof ReadableStream) init.duplex = 'half';
    const response = await this.context.fetch(request.url, init);
    const text = await readAnswer(response, `${request.what}: ${this.name}`);
    return { status: response.status, headers: response.headers, text, json: parseJson(text) };
  }

  private transportFailure(error: unknown, request: PlatformRequest): PlatformError {
    if (error instanceof PlatformError) return error;
    if (request.signal?.aborted) throw request.signal.reason;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const reason = timedOut ? 'timed out' : describeCause(error);
    // Whether a request that never got an answer was applied is unknown: only an idempotent one may be sent again.
    return new PlatformError(
      'PLATFORM_UNAVAILABLE',
      request.idempotent
        ? `${request.what}: ${this.name} could not be reached (${reason})`
        : `${request.what}: no answer from ${this.name} (${reason}); it may or may not have been applied, so check the account before posting again`,
      { retryable: request.idempotent, cause: error },
    );
  }
}

async function readAnswer(response: Response, label: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const pieces: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new PlatformError(
        'PLATFORM_UNAVAILABLE',
        `${label} answered more than ${MAX_ANSWER_BYTES} bytes`,
      );
    }
    pieces.push(value);
  }
  return Buffer.concat(pieces).toString('utf8');
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Exponential backoff with jitter, capped at the policy's maximum; attempt counts from 1. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** Waits, unless the caller aborts first; the abort surfaces as the signal's own reason. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterHeaderMs(headers: Headers): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** The meaning of an HTTP status alone, for answers whose body says nothing more specific. */
export function statusError(
  name: string,
  what: string,
  response: PlatformResponse,
  detail: string | undefined,
  retryAfterMs: number | undefined = retryAfterHeaderMs(response.headers),
): PlatformError {
  const { status } = response;
  const suffix = detail ? `: ${clip(detail)}` : '';
  if (status === 401) {
    return new PlatformError(
      'PLATFORM_OAUTH_EXPIRED',
      `${what}: ${name} refused the access token (HTTP 401)${suffix}. Refresh it or reconnect the account.`,
      { status },
    );
  }
  if (status === 429) return rateLimited(name, what, status, detail, retryAfterMs);
  if (status >= 500 || status === 408 || status < 400) {
    return new PlatformError('PLATFORM_UNAVAILABLE', `${what}: ${name} answered HTTP ${status}${suffix}`, {
      status,
    });
  }
  return new PlatformError(
    'PLATFORM_REJECTED',
    `${what}: ${name} refused the request (HTTP ${status})${suffix}`,
    {
      status,
    },
  );
}

export function rateLimited(
  name: string,
  what: string,
  status: number,
  detail: string | undefined,
  retryAfterMs: number | undefined,
): PlatformError {
  const when = retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
  const suffix = detail ? ` (${clip(detail)})` : '';
  return new PlatformError('PLATFORM_RATE_LIMITED', `${what}: ${name} rate limit reached${suffix}${when}`, {
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Counts consecutive interruptions of an upload (network drops, timeouts, 5xx, a short rate-limit pause) for a resume
 * loop: anything else is rethrown, and too many in a row without progress becomes PLATFORM_UPLOAD_FAILED; otherwise
 * it backs off (at least as long as the platform asked).
 */
export class Interruptions {
  private count = 0;

  constructor(
    private readonly http: PlatformHttp,
    private readonly what: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async absorb(error: unknown): Promise<void> {
    if (!(error instanceof PlatformError) || !error.retryable) throw error;
    const retry = this.http.retry;
    const shortPause =
      error.code === 'PLATFORM_RATE_LIMITED' && (error.retryAfterMs ?? 0) <= retry.maxDelayMs;
    if (error.code !== 'PLATFORM_UNAVAILABLE' && !shortPause) throw error;
    this.count++;
    if (this.count >= retry.maxAttempts) {
      throw new PlatformError(
        'PLATFORM_UPLOAD_FAILED',
        `${this.what}: ${this.count} interruptions in a row without progress; last: ${error.message}`,
        { cause: error },
      );
    }
    await sleep(Math.max(error.retryAfterMs ?? 0, backoffDelay(this.count, retry)), this.signal);
  }

  progressed(): void {
    this.count = 0;
  }
}

/** Polls until `step` is done; past the deadline, the error `onTimeout` makes. */
export async function pollUntil<T>(
  options: { timeoutMs: number; signal?: AbortSignal; onTimeout: () => PlatformError },
  step: () => Promise<{ done: true; value: T } | { done: false; waitMs: number }>,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const result = await step();
    if (result.done) return result.value;
    if (Date.now() + result.waitMs > deadline) throw options.onTimeout();
    await sleep(result.waitMs, options.signal);
  }
}

export function pollSettings(endpoints: PlatformEndpointsConfig): { intervalMs: number; timeoutMs: number } {
  return {
    intervalMs: endpoints.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    timeoutMs: endpoints.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS,
  };
}

/** The file's real size, which must match what the caller says: platforms are told the size before any byte. */
export async function checkedVideoSize(video: VideoToPost, name: string): Promise<number> {
  let size: number;
  try {
    size = (await stat(video.filePath)).size;
  } catch (error) {
    throw new PlatformError(
      'PLATFORM_UPLOAD_FAILED',
      `${name}: the video file cannot be read (${describeCause(error)})`,
      {
        retryable: false,
        cause: error,
      },
    );
  }
  if (size === 0 || size !== video.sizeBytes) {
    throw new PlatformError(
      'PLATFORM_UPLOAD_FAILED',
      `${name}: the video file is ${size} bytes but the post says ${video.sizeBytes}`,
      { retryable: false },
    );
  }
  return size;
}

/** Refuses, before any upload, a video whose length the platform would not take as this kind of post. */
export function checkDuration(
  video: VideoToPost,
  name: string,
  minSec: number,
  maxSec: number,
  hint = '',
): void {
  if (!(video.durationSec >= minSec && video.durationSec <= maxSec)) {
    throw new PlatformError(
      'PLATFORM_REJECTED',
      `${name} takes videos of ${minSec}-${maxSec} s; this one is ${video.durationSec} s${hint}`,
    );
  }
}

/** Bytes [start, start + length) of the file: one upload piece, read on its own. */
export async function readChunk(path: string, start: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
      if (bytesRead === 0) {
        throw new PlatformError('PLATFORM_UPLOAD_FAILED', `the video file ended at byte ${start + filled}`, {
          retryable: false,
        });
      }
      filled += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

/** The file from `start` to its end as a request body, read piece by piece as it is sent. Call close() after. */
export function fileBody(
  path: string,
  start: number,
  onBytes?: (bytes: number) => void,
): { body: ReadableStream<Uint8Array>; close: () => Promise<void> } {
  let handle: FileHandle | undefined;
  let position = start;
  let closed = false;
  const close = async (): Promise<void> => {
    closed = true;
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (closed) return controller.close();
      handle ??= await open(path, 'r');
      const buffer = Buffer.allocUnsafe(STREAM_PIECE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, STREAM_PIECE_BYTES, position);
      if (bytesRead === 0) {
        await close();
        controller.close();
        return;
      }
      position += bytesRead;
      onBytes?.(bytesRead);
      controller.enqueue(buffer.subarray(0, bytesRead));
    },
    cancel: close,
  });
  return { body, close };
}

export interface CaptionRules {
  name: string;
  maxLength: number;
  /** How the platform counts characters. */
  length: (text: string) => number;
  maxHashtags?: number;
}

/** Characters as Unicode code points (Instagram, Facebook). */
export const codePointLength = (text: string): number => [...text].length;
/** Characters as UTF-16 code units (TikTok's "UTF-16 runes", YouTube). */
export const utf16Length = (text: string): number => text.length;

/**
 * The caption with the hashtags it does not already carry appended, as many as fit the platform's limits. The
 * caption itself is never cut: one too long for the platform is refused before any upload.
 */
export function composeCaption(caption: string, hashtags: readonly string[], rules: CaptionRules): string {
  let text = caption.trim();
  if (rules.length(text) > rules.maxLength) {
    throw new PlatformError(
      'PLATFORM_REJECTED',
      `${rules.name} allows ${rules.maxLength} characters of text; this caption has ${rules.length(text)}`,
    );
  }
  const present = new Set([...text.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((m) => (m[1] ?? '').toLowerCase()));
  for (const raw of hashtags) {
    const tag = raw.trim().replace(/^#+/, '').replace(/\s+/g, '');
    if (!tag || present.has(tag.toLowerCase())) continue;
    if (rules.maxHashtags !== undefined && present.size >= rules.maxHashtags) break;
    const next = text ? `${text} #${tag}` : `#${tag}`;
    if (rules.length(next) > rules.maxLength) continue;
    text = next;
    present.add(tag.toLowerCase());
  }
  return text;
}

/** A per-platform options object parsed with its schema, so defaults are filled in. */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown, name: string): z.output<S> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`);
  throw new PlatformError('PLATFORM_REJECTED', `${name} options are invalid: ${issues.join('; ')}`);
}

export function requireApp(
  endpoints: PlatformEndpointsConfig,
  name: string,
): { clientId: string; clientSecret: string } {
  if (!endpoints.app) {
    throw new PlatformError(
      'PLATFORM_NOT_CONFIGURED',
      `${name}: refreshing a token needs the app's client id and secret, which are not configured`,
    );
  }
  return endpoints.app;
}

/**
 * An OAuth 2.0 refresh_token grant (RFC 6749 §6) as Google, TikTok and X run it. A refusal of the grant means the
 * user must reconnect (PLATFORM_OAUTH_EXPIRED); a refusal of the client means the app credentials are wrong.
 */
export async function refreshOAuthToken(
  http: PlatformHttp,
  request: { url: string; what: string; form: Record<string, string>; headers?: Record<string, string> },
  previous: PlatformToken,
): Promise<PlatformToken> {
  const response = await http.send({
    method: 'POST',
    url: request.url,
    what: request.what,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...request.headers,
    },
    body: new URLSearchParams(request.form).toString(),
    idempotent: true,
    // 4xx answers carry the OAuth verdict read below; 429 and 5xx go through the usual retry.
    accept: (status) => status < 500 && status !== 429,
  });
  const body = asRecord(response.json);
  const error = str(body.error);
  const accessToken = str(body.access_token);
  if (response.status >= 200 && response.status < 300 && !error && accessToken) {
    const expiresIn = Number(body.expires_in);
    const token: PlatformToken = { accessToken };
    const refreshToken = str(body.refresh_token) ?? previous.refreshToken;
    if (refreshToken) token.refreshToken = refreshToken;
    if (Number.isFinite(expiresIn) && expiresIn > 0)
      token.expiresAt = new Date(Date.now() + expiresIn * 1000);
    const scope = str(body.scope) ?? previous.scope;
    if (scope) token.scope = scope;
    return token;
  }
  const detail = [error, str(body.error_description)].filter(Boolean).join(': ') || `HTTP ${response.status}`;
  if (error === 'invalid_client' || error === 'unauthorized_client') {
    throw new PlatformError(
      'PLATFORM_NOT_CONFIGURED',
      `${request.what}: ${http.name} refused the app credentials (${clip(detail)}); check the client id and secret`,
      { status: response.status },
    );
  }
  if (error || (response.status >= 400 && response.status < 500)) {
    throw new PlatformError(
      'PLATFORM_OAUTH_EXPIRED',
      `${request.what}: ${http.name} refused to refresh the token (${clip(detail)}); the user must reconnect the account`,
      { status: response.status },
    );
  }
  throw new PlatformError(
    'PLATFORM_UNAVAILABLE',
    `${request.what}: ${http.name} answered without an access token`,
    {
      status: response.status,
    },
  );
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Keeps platform messages short enough for logs and job errors. */
export function clip(message: string, max = 300): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
