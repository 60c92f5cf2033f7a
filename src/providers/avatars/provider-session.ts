// The HTTP exchange of one talking-photo render with its provider. Every call goes through the URL guard with the
// provider's auth headers, inside the render's time budget and the caller's AbortSignal, and is retried where that
// is safe:
// - 429 is always waited out (Retry-After when given, else an exponential backoff): the provider refused the call
//   without doing anything.
// - Outages (5xx, 408) and network failures are retried a few times on calls that may run twice without harm
//   (reads, uploads, deletes), never on the call that starts a paid render, which may have been accepted.
// Anything else becomes a TalkingPhotoError at once, its kind read from the status and the provider's error body.

import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import type { PreparedUpload } from './render-inputs.ts';
import { TalkingPhotoError } from './talking-photo.ts';

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  json: unknown;
}

/** The provider's own explanation of a non-2xx answer, and whether it is a moderation refusal. */
export type ErrorReader = (answer: ProviderAnswer) => { message?: string; refused: boolean };

export interface ProviderSessionOptions {
  guard: Pick<UrlGuard, 'request'>;
  /** The provider's name in messages. */
  label: string;
  /** The setting holding the key, named when the key is refused. */
  credential: string;
  authHeaders: Record<string, string>;
  signal: AbortSignal;
  /** Epoch ms by which the render must be finished. */
  deadline: number;
  /** First backoff step; doubled on each retry, at most a minute. */
  backoffMs: number;
  readError: ErrorReader;
}

type Retry = 'safe' | 'rate_limit_only';

interface Body {
  bytes: string | Uint8Array;
  contentType: string;
}

const MAX_JSON_BYTES = 2 * 1024 * 1024;
const CALL_TIMEOUT_MS = 30_000;
const UPLOAD_TIMEOUT_MS = 120_000;
const MAX_BACKOFF_MS = 60_000;
const MAX_TRANSIENT_RETRIES = 3;
const NETWORK_REASONS = new Set(['fetch_failed', 'timeout', 'dns_failed']);

/** Sleeps, waking early with the abort reason when the signal fires. */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(Math.max(0, ms), undefined, { signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSec(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.max(0, Number(raw));
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : undefined;
}

/** Keeps provider messages short enough for logs and job errors. */
export function clip(message: string, max = 300): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export class ProviderSession {
  /** The render this session follows, once it exists; named by timeout errors. */
  renderId: string | undefined;
  private readonly started = Date.now();

  constructor(private readonly o: ProviderSessionOptions) {}

  get timedOut(): boolean {
    return Date.now() >= this.o.deadline;
  }

  deadlineRemainingMs(): number {
    return this.o.deadline - Date.now();
  }

  /** A JSON call; `retry: 'rate_limit_only'` for the call that starts a paid render. */
  async json(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    retry: Retry,
    body?: unknown,
  ): Promise<ProviderAnswer> {
    const sent =
      body === undefined ? undefined : { bytes: JSON.stringify(body), contentType: 'application/json' };
    return this.send(method, url, sent, retry, CALL_TIMEOUT_MS);
  }

  /** A multipart/form-data upload of one prepared file under `field`; a repeated upload costs nothing. */
  async upload(url: string, field: string, file: PreparedUpload): Promise<ProviderAnswer> {
    const form = new FormData();
    form.append(field, new Blob([await readFile(file.path)], { type: file.contentType }), file.fileName);
    // The platform's own encoder writes the parts and picks the boundary.
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    return this.send('POST', url, { bytes, contentType }, 'safe', UPLOAD_TIMEOUT_MS);
  }

  /** The error for a render that outlived the budget. */
  timeoutError(): TalkingPhotoError {
    const waited = Math.round((Date.now() - this.started) / 1000);
    const which = this.renderId ? ` ${this.renderId}` : '';
    return new TalkingPhotoError(
      'timeout',
      this.o.label,
      `The ${this.o.label} render${which} did not finish within ${waited} s.`,
      { ...(this.renderId ? { providerJobId: this.renderId } : {}), retryable: false },
    );
  }

  private async send(
    method: string,
    url: string,
    body: Body | undefined,
    retry: Retry,
    callTimeoutMs: number,
  ): Promise<ProviderAnswer> {
    const { guard, label, signal } = this.o;
    const headers: Record<string, string> = { accept: 'application/json', ...this.o.authHeaders };
    if (body) headers['content-type'] = body.contentType;
    let transient = 0;
    let limited = 0;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const remaining = this.o.deadline - Date.now();
      if (remaining <= 0) throw this.timeoutError();
      let answer: ProviderAnswer;
      try {
        const response = await guard.request(url, {
          method,
          headers,
          ...(body ? { body: body.bytes } : {}),
          timeoutMs: Math.min(callTimeoutMs, remaining),
          maxBytes: MAX_JSON_BYTES,
          signal,
        });
        answer = { status: response.status, headers: response.headers, json: parseJson(response.body) };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!(error instanceof UrlRejectedError)) throw error;
        if (this.timedOut) throw this.timeoutError();
        const network = NETWORK_REASONS.has(error.reason);
        if (network && retry === 'safe' && transient < MAX_TRANSIENT_RETRIES) {
          await this.backoff(++transient);
          continue;
        }
        throw new TalkingPhotoError(
          network ? 'unavailable' : 'bad_response',
          label,
          `${label} could not be reached: ${error.message}`,
          { ...(this.renderId ? { providerJobId: this.renderId } : {}), cause: error },
        );
      }
      if (answer.status >= 200 && answer.status <= 299) return answer;
      if (answer.status === 429) {
        // Retry-After when given, but never less than the backoff: "0" must not turn into a busy loop.
        const backoff = Math.min(MAX_BACKOFF_MS, this.o.backoffMs * 2 ** ++limited);
        const wait = Math.max(backoff, (retryAfterSec(answer.headers) ?? 0) * 1000);
        if (Date.now() + wait >= this.o.deadline) throw this.statusError(answer);
        await sleep(wait, signal);
        continue;
      }
      const outage = answer.status >= 500 || answer.status === 408;
      if (outage && retry === 'safe' && transient < MAX_TRANSIENT_RETRIES) {
        await this.backoff(++transient);
        continue;
      }
      throw this.statusError(answer);
    }
  }

  private async backoff(attempt: number): Promise<void> {
    const wait = Math.min(this.o.backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    await sleep(Math.min(wait, Math.max(0, this.o.deadline - Date.now())), this.o.signal);
  }

  /** A non-2xx answer as an error; the provider's explanation is kept when it gave one. */
  statusError(answer: ProviderAnswer): TalkingPhotoError {
    const { label, credential } = this.o;
    const { status } = answer;
    const read = this.o.readError(answer);
    const suffix = read.message ? `: ${clip(read.message)}` : '';
    const details = { status, ...(this.renderId ? { providerJobId: this.renderId } : {}) };
    if (read.refused) {
      return new TalkingPhotoError('refused', label, `${label} refused the content${suffix}`, {
        ...details,
        retryable: false,
      });
    }
    if (status === 401) {
      return new TalkingPhotoError(
        'unauthorized',
        label,
        `${label} refused the API key (HTTP 401); check ${credential}${suffix}`,
        { ...details, retryable: false },
      );
    }
    if (status === 403) {
      return new TalkingPhotoError(
        'forbidden',
        label,
        `${label} does not allow this account to do this (HTTP 403)${suffix}`,
        { ...details, retryable: false },
      );
    }
    if (status === 402) {
      return new TalkingPhotoError(
        'payment_required',
        label,
        `The ${label} account has run out of credits (HTTP 402)${suffix}`,
        { ...details, retryable: false },
      );
    }
    if (status === 429) {
      const after = retryAfterSec(answer.headers);
      return new TalkingPhotoError(
        'rate_limited',
        label,
        `${label} kept answering "too many requests" until the time budget ran out${suffix}`,
        { ...details, ...(after === undefined ? {} : { retryAfterSec: after }) },
      );
    }
    if (status >= 500 || status === 408) {
      return new TalkingPhotoError(
        'unavailable',
        label,
        `${label} answered HTTP ${status}${suffix}`,
        details,
      );
    }
    if ([400, 404, 409, 413, 415, 422].includes(status)) {
      return new TalkingPhotoError(
        'invalid_input',
        label,
        `${label} rejected the request (HTTP ${status})${suffix}`,
        { ...details, retryable: false },
      );
    }
    return new TalkingPhotoError('bad_response', label, `${label} answered HTTP ${status}${suffix}`, {
      ...details,
      retryable: false,
    });
  }
}

function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
