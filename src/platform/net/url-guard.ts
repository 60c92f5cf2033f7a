/**
 * The service's one outbound URL guard: every fetch of a user-supplied URL (webhooks, logos, images,
 * media, websites) goes through UrlGuard, because any such URL can point the server at itself, the
 * private network or a cloud metadata endpoint (SSRF). Rules, and why:
 * - https only. Plain http can be rewritten in transit, and `http://` is how most internal admin
 *   endpoints are reached. Any port is allowed on https: the address checks below, not port numbers,
 *   decide what is internal, and public media hosts do use odd ports.
 * - No userinfo (`user:pass@host`): it leaks credentials into logs and disguises the real host.
 * - No IP-literal hosts, in any spelling (WHATWG URL turns 2130706433, 0x7f.1, 017700000001 and 127.1
 *   into 127.0.0.1 before we look): legitimate media lives behind names, and literals are the usual
 *   way to aim at internal addresses.
 * - No internal names: single-label hosts, localhost, *.local, *.internal, *.home.arpa, *.lan and the
 *   like (see url-syntax.ts); they only resolve inside private networks (metadata.google.internal).
 * - Every address a name resolves to must be public (blocked-addresses.ts): loopback, private,
 *   CGNAT, link-local, metadata, multicast, reserved, documentation and benchmark ranges, IPv6
 *   unique/link/site-local, and IPv6 forms embedding a non-public IPv4 (mapped, NAT64, 6to4, Teredo).
 *   One bad answer refuses the whole name, since whoever controls the zone picks which one we use.
 * - The check runs again at connect time (undici Agent `connect.lookup`), so a name that resolves
 *   public during the check and private a moment later (DNS rebinding) never gets a socket.
 * - Redirects are followed by hand (default at most 5) and each hop is re-checked like a new URL;
 *   credentials are dropped when the origin changes.
 * - Size (maxBytes, by Content-Length and while streaming) and time (timeoutMs over the whole
 *   exchange, redirects and body included) are bounded; callers may also pass an AbortSignal.
 * - `allowLoopback` (tests only) additionally allows http/https to 127.0.0.0/8, ::1 and `localhost`,
 *   and loopback DNS answers. Nothing else is loosened.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { guardedConnectLookup, resolveChecked, systemLookup, type HostLookup } from './guarded-lookup.ts';
import { checkUrlSyntax, isIpLiteral } from './url-syntax.ts';
import { withUserUrlRules } from './user-url.ts';
import { UrlRejectedError } from './url-rejected-error.ts';

export interface UrlGuardOptions {
  /** Test-only: also allow http/https to loopback servers. */
  allowLoopback: boolean;
  lookup?: HostLookup;
  userAgent?: string;
}

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /**
   * 'manual' answers a redirect itself (status 3xx, its `location` header) instead of following it, for
   * callers that judge each hop by their own rules too (the brand crawler keeps to one site). Default 'follow'.
   */
  redirect?: 'follow' | 'manual';
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  /** Final URL after redirects. */
  url: string;
  body: Buffer;
}

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (bytes: number, total?: number) => void;
}

export interface DownloadResult {
  bytes: number;
  contentType: string | null;
  finalUrl: string;
}

export interface HeadInfoOptions {
  timeoutMs?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HeadInfo {
  /** Status of the last answer consulted (the HEAD, or the ranged GET it fell back to). */
  status: number;
  contentLength: number | null;
  contentType: string | null;
  finalUrl: string;
}

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_REQUEST_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

interface Exchange {
  res: Dispatcher.ResponseData;
  url: URL;
}

/** Per-call state of one exchange; `host` is for error messages that must not echo the whole URL. */
interface ExchangeContext {
  deadline: Deadline;
  maxRedirects: number;
  host: string;
  manualRedirects?: boolean;
}

/** One AbortSignal for the whole exchange: fires on the overall timeout or the caller's signal. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly caller: AbortSignal | undefined;
  private readonly onCallerAbort = (): void => {
    this.controller.abort(new UrlRejectedError('aborted', 'request was aborted'));
  };

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    this.caller = caller;
    this.timer = setTimeout(() => {
      this.controller.abort(new UrlRejectedError('timeout', `request timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function findRejection(err: unknown): UrlRejectedError | null {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof UrlRejectedError) return current;
    if (current instanceof AggregateError) {
      const inner = current.errors.map(findRejection).find((found) => found !== null);
      if (inner) return inner;
    }
    current = current.cause;
  }
  return null;
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const joined = headerValue(value);
    if (joined !== null) flat[name] = joined;
  }
  return flat;
}

function parseLength(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

function tooLarge(maxBytes: number): UrlRejectedError {
  return new UrlRejectedError('too_large', `response is larger than ${maxBytes} bytes`);
}

/** Abandons a response body; the abort error that destroying it raises is expected, not a failure. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

export class UrlGuard {
  private readonly allowLoopback: boolean;
  private readonly lookup: HostLookup;
  private readonly userAgent: string;
  private readonly agent: Agent;

  constructor(options: UrlGuardOptions) {
    this.allowLoopback = options.allowLoopback;
    this.lookup = options.lookup ?? systemLookup;
    this.userAgent = options.userAgent ?? 'Reelsmith';
    this.agent = new Agent({ connect: { lookup: guardedConnectLookup(this.lookup, this.allowLoopback) } });
  }

  /** Syntax-only check (no DNS) for instant request validation. Throws UrlRejectedError. */
  checkUrlSyntax(raw: string): URL {
    return checkUrlSyntax(raw, this.allowLoopback);
  }

  /** Runs a request schema's parse under this guard's rules for user URL fields (user-url.ts). */
  validating<T>(parse: () => T): T {
    return withUserUrlRules({ allowLoopback: this.allowLoopback }, parse);
  }

  /** Syntax check plus DNS: every address the host resolves to must be allowed. */
  async assertAllowed(raw: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<URL> {
    const deadline = new Deadline(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, options.signal);
    try {
      return await this.check(raw, deadline.signal);
    } catch (err) {
      throw findRejection(err) ?? err;
    } finally {
      deadline.dispose();
    }
  }

  /** Sends one request (following redirects) and buffers the response body up to maxBytes. */
  async request(raw: string, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
    const maxBytes = options.maxBytes ?? DEFAULT_REQUEST_MAX_BYTES;
    const deadline = new Deadline(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, options.signal);
    const ctx = this.context(deadline, options.maxRedirects);
    ctx.manualRedirects = options.redirect === 'manual';
    try {
      const init = {
        method: (options.method ?? 'GET').toUpperCase(),
        headers: options.headers,
        body: options.body,
      };
      const { res, url } = await this.follow(raw, init, ctx);
      const declared = parseLength(headerValue(res.headers['content-length']));
      if (declared !== null && declared > maxBytes) {
        discard(res.body);
        throw tooLarge(maxBytes);
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw tooLarge(maxBytes);
        chunks.push(chunk);
      }
      return {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        url: url.href,
        body: Buffer.concat(chunks),
      };
    } catch (err) {
      throw this.toRejection(err, ctx);
    } finally {
      deadline.dispose();
    }
  }

  /** Streams a 2xx GET response into destPath; the partial file is removed on any failure. */
  async download(raw: string, destPath: string, options: DownloadOptions): Promise<DownloadResult> {
    const { maxBytes, onProgress } = options;
    const deadline = new Deadline(options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS, options.signal);
    const ctx = this.context(deadline, options.maxRedirects);
    let fileStarted = false;
    let fileError = null as NodeJS.ErrnoException | null;
    try {
      const init = { method: 'GET', headers: options.headers };
      const { res, url } = await this.follow(raw, init, ctx);
      if (!isSuccess(res.statusCode)) {
        discard(res.body);
        throw new UrlRejectedError('http_status', `host "${url.hostname}" answered HTTP ${res.statusCode}`);
      }
      const total = parseLength(headerValue(res.headers['content-length']));
      if (total !== null && total > maxBytes) {
        discard(res.body);
        throw tooLarge(maxBytes);
      }
      let bytes = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) {
            done(tooLarge(maxBytes));
            return;
          }
          onProgress?.(bytes, total ?? undefined);
          done(null, chunk);
        },
      });
      fileStarted = true;
      const file = createWriteStream(destPath);
      file.on('error', (err) => {
        fileError = err;
      });
      await pipeline(res.body, meter, file, { signal: deadline.signal });
      return { bytes, contentType: headerValue(res.headers['content-type']), finalUrl: url.href };
    } catch (err) {
      if (fileStarted) await rm(destPath, { force: true });
      // A local disk problem is not a URL problem: surface it unchanged.
      if (typeof fileError?.syscall === 'string') throw fileError;
      throw this.toRejection(err, ctx);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * Size and type as the server declares them, without downloading. Servers that refuse HEAD get a
   * GET for the first byte (size from Content-Range, or Content-Length of a full 200); if neither
   * tells, both fields are null.
   */
  async headInfo(raw: string, options: HeadInfoOptions = {}): Promise<HeadInfo> {
    const deadline = new Deadline(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, options.signal);
    const ctx = this.context(deadline, options.maxRedirects);
    try {
      let head: Exchange | null = null;
      try {
        head = await this.follow(raw, { method: 'HEAD', headers: options.headers }, ctx);
        await head.res.body.dump();
      } catch (err) {
        const rejection = this.toRejection(err, ctx);
        // Some servers drop the connection on HEAD; only that earns the GET fallback.
        if (rejection.reason !== 'fetch_failed') throw rejection;
      }
      if (head && isSuccess(head.res.statusCode)) {
        return {
          status: head.res.statusCode,
          contentLength: parseLength(headerValue(head.res.headers['content-length'])),
          contentType: headerValue(head.res.headers['content-type']),
          finalUrl: head.url.href,
        };
      }
      const headers = { ...options.headers, range: 'bytes=0-0' };
      const { res, url } = await this.follow(raw, { method: 'GET', headers }, ctx);
      discard(res.body);
      const contentType = headerValue(res.headers['content-type']);
      let contentLength: number | null = null;
      if (res.statusCode === 206) {
        const match = /\/(\d+)\s*$/.exec(headerValue(res.headers['content-range']) ?? '');
        contentLength = match?.[1] ? Number(match[1]) : null;
      } else if (res.statusCode === 200) {
        contentLength = parseLength(headerValue(res.headers['content-length']));
      }
      return {
        status: res.statusCode,
        contentLength,
        contentType: isSuccess(res.statusCode) ? contentType : null,
        finalUrl: url.href,
      };
    } catch (err) {
      throw this.toRejection(err, ctx);
    } finally {
      deadline.dispose();
    }
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private context(deadline: Deadline, maxRedirects: number | undefined): ExchangeContext {
    return { deadline, maxRedirects: maxRedirects ?? DEFAULT_MAX_REDIRECTS, host: '' };
  }

  private async check(raw: string, signal: AbortSignal): Promise<URL> {
    const url = checkUrlSyntax(raw, this.allowLoopback);
    // Literals reaching here are loopback under the switch; connect() skips lookup for them anyway.
    if (!isIpLiteral(url))
      await untilAborted(resolveChecked(url.hostname, this.lookup, this.allowLoopback), signal);
    return url;
  }

  private async follow(
    raw: string,
    init: { method: string; headers: Record<string, string> | undefined; body?: string | Uint8Array },
    ctx: ExchangeContext,
  ): Promise<Exchange> {
    const { deadline, maxRedirects } = ctx;
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    let { method, body } = init;
    let url = await this.check(raw, deadline.signal);
    for (let redirects = 0; ; redirects++) {
      ctx.host = url.hostname;
      const res = await undiciRequest(url, {
        dispatcher: this.agent,
        method,
        headers,
        body,
        signal: deadline.signal,
      });
      const location = headerValue(res.headers.location);
      if (!REDIRECT_STATUSES.has(res.statusCode) || location === null || ctx.manualRedirects)
        return { res, url };
      await res.body.dump();
      if (redirects >= maxRedirects) {
        throw new UrlRejectedError('too_many_redirects', `more than ${maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = await this.check(new URL(location, url).href, deadline.signal);
      } catch (err) {
        const rejection = findRejection(err);
        if (rejection && rejection !== deadline.signal.reason)
          throw new UrlRejectedError(rejection.reason, `redirect refused: ${rejection.message}`);
        if (err instanceof TypeError)
          throw new UrlRejectedError('invalid_url', 'redirect Location is not a valid URL');
        throw err;
      }
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      const status = res.statusCode;
      if (
        (status === 303 && method !== 'HEAD') ||
        ((status === 301 || status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      url = next;
    }
  }

  private toRejection(err: unknown, ctx: ExchangeContext): UrlRejectedError {
    const { deadline } = ctx;
    const found = findRejection(err);
    if (found) return found;
    if (deadline.signal.aborted && deadline.signal.reason instanceof UrlRejectedError)
      return deadline.signal.reason;
    const code = (err as { code?: unknown }).code;
    const detail = typeof code === 'string' ? ` (${code})` : '';
    return new UrlRejectedError('fetch_failed', `request to host "${ctx.host}" failed${detail}`, {
      cause: err,
    });
  }
}

export { UrlRejectedError, type UrlRejectReason } from './url-rejected-error.ts';
export type { HostLookup, ResolvedAddress } from './guarded-lookup.ts';
