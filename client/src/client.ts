import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { Backoff, sleep } from './backoff.ts';
import { isTransient, ReelsmithError } from './errors.ts';
import type { paths } from './openapi.ts';
import type { DryRunResult, GenerateBody, Job, LibraryPage, Receipt, Usage, VideoEndpoint } from './types.ts';
import { waitForJob, type WaitOptions, type WaitTarget } from './wait-for-job.ts';

export interface ReelsmithOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (without `/api/v1`). */
  baseUrl: string;
  /** A live (`svc_…`) or sandbox (`svc_test_…`) key, sent as `Authorization: Bearer`. */
  apiKey?: string | undefined;
  fetch?: (input: Request) => Promise<Response>;
}

export interface CreateOptions<E extends VideoEndpoint = VideoEndpoint> {
  /** Which Generate route renders the body (default `generate-and-post`, the stock video). */
  endpoint?: E;
  /** Sent as `Idempotency-Key`; one is made up when omitted and returned, so a retry can reuse it. */
  idempotencyKey?: string;
  /** Retries of a network error, 5xx, 429 or REQUEST_IN_PROGRESS with the same key (default 3). */
  retries?: number;
  signal?: AbortSignal | undefined;
}

/** A receipt plus the Idempotency-Key it was made with and whether the server replayed an earlier answer. */
export type CreatedVideo = Receipt & { idempotency_key: string; replayed: boolean };

/** What openapi-fetch answers: the parsed body on success, the parsed error body otherwise. */
interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The envelope's `data`, or the envelope's error thrown as a ReelsmithError. */
async function unwrap<T>(result: ApiResult<{ data: T }>): Promise<T> {
  if (result.data === undefined || !result.response.ok)
    throw await ReelsmithError.fromResponse(result.response, result.error);
  return result.data.data;
}

const signalOf = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

/**
 * The typed client. `api` is the openapi-fetch client over every route of the OpenAPI document (the key
 * attached), for any call; the methods are the steps every integration otherwise writes by hand.
 */
export class Reelsmith {
  readonly api: Client<paths>;
  readonly baseUrl: string;

  constructor(options: ReelsmithOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Validates and prices a Generate body without creating a job or charging (spec 1 §2.5). */
  async dryRun<E extends VideoEndpoint = 'generate-and-post'>(
    body: GenerateBody<E>,
    options: Pick<CreateOptions<E>, 'endpoint' | 'signal'> = {},
  ): Promise<DryRunResult> {
    const result = await this.postGenerate(
      options.endpoint,
      { ...(body as Record<string, unknown>), dry_run: true },
      {},
      options.signal,
    );
    return unwrap(result as ApiResult<{ data: DryRunResult }>);
  }

  /**
   * Submits a Generate body and answers its receipt. The Idempotency-Key (made up unless given) makes the
   * built-in retries safe: however often the request is sent, one job is made and charged once.
   */
  async createVideo<E extends VideoEndpoint = 'generate-and-post'>(
    body: GenerateBody<E>,
    options: CreateOptions<E> = {},
  ): Promise<CreatedVideo> {
    const key = options.idempotencyKey ?? `reelsmith-client-${randomUUID()}`;
    const retries = options.retries ?? 3;
    const backoff = new Backoff(500, 8_000, 2);
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.postGenerate(
          options.endpoint,
          body as Record<string, unknown>,
          { 'idempotency-key': key },
          options.signal,
        );
        const receipt = await unwrap(result as ApiResult<{ data: Receipt }>);
        const replayed = result.response.headers.get('x-idempotent-replay') === 'true';
        return { ...receipt, idempotency_key: key, replayed };
      } catch (error) {
        if (attempt >= retries || !isTransient(error) || options.signal?.aborted) throw error;
        const retryAfter = error instanceof ReelsmithError ? error.retryAfterSeconds : undefined;
        await sleep(retryAfter !== undefined ? retryAfter * 1000 : backoff.next(), options.signal);
      }
    }
  }

  /** The job record, with freshly signed links (spec 1 §2.2). */
  async getJob(jobId: string, options: { signal?: AbortSignal | undefined } = {}): Promise<Job> {
    const result = await this.api.GET('/api/v1/jobs/{jobId}', {
      params: { path: { jobId } },
      ...signalOf(options.signal),
    });
    return (await unwrap(result)).job as Job;
  }

  /**
   * Waits until the job ends and answers its record (a failed job too: read `status` and `error`). Follows
   * the receipt's progress stream, polling with backoff when the stream is refused or drops; a bare job id
   * is polled.
   */
  waitForJob(target: WaitTarget, options: WaitOptions = {}): Promise<Job> {
    return waitForJob((jobId, signal) => this.getJob(jobId, { signal }), target, options);
  }

  /** Balance, ledger totals and the price table (GET /api/v1/usage). */
  async usage(options: { signal?: AbortSignal } = {}): Promise<Usage> {
    return (await unwrap(await this.api.GET('/api/v1/usage', signalOf(options.signal)))) as Usage;
  }

  /** The account's generated videos, newest first, each with its job_id (GET /api/v1/b2b/library/videos). */
  async listVideos(
    query: { limit?: number; cursor?: string } = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<LibraryPage> {
    const result = await this.api.GET('/api/v1/b2b/library/videos', {
      params: { query },
      ...signalOf(options.signal),
    });
    return unwrap(result);
  }

  /** POST to a Generate route chosen at run time: the one place its path is built. */
  private postGenerate(
    endpoint: VideoEndpoint | undefined,
    body: Record<string, unknown>,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<ApiResult<unknown>> {
    const path = `/api/v1/${endpoint ?? 'generate-and-post'}` as const;
    return this.api.POST(path as '/api/v1/generate-and-post', {
      body,
      headers,
      ...signalOf(signal),
    });
  }
}
