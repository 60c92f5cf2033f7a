/** The error object of the API's envelope (`{ success: false, error, meta }`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

/** A non-2xx answer of the API, with its envelope's code and message. */
export class ReelsmithError extends Error {
  override readonly name = 'ReelsmithError';
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    error: ApiErrorBody,
    options: { requestId?: string | undefined; retryAfterSeconds?: number | undefined } = {},
  ) {
    super(`${error.code}: ${error.message}`);
    this.status = status;
    this.code = error.code;
    this.retryable = error.retryable;
    this.details = error.details;
    this.requestId = options.requestId;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Reads an error answer; a body that is not the envelope (a proxy's page) still gives a useful error. */
  static async fromResponse(response: Response, body?: unknown): Promise<ReelsmithError> {
    const parsed = body === undefined ? await readJson(response) : body;
    const envelope = parsed as { error?: Partial<ApiErrorBody>; meta?: { request_id?: string } } | undefined;
    const error = envelope?.error;
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    return new ReelsmithError(
      response.status,
      {
        code: typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
        message:
          typeof error?.message === 'string'
            ? error.message
            : `${response.status} ${response.statusText} from ${response.url}`,
        retryable: error?.retryable ?? (response.status >= 500 || response.status === 429),
        ...(error?.details ? { details: error.details } : {}),
      },
      {
        requestId: envelope?.meta?.request_id ?? response.headers.get('x-request-id') ?? undefined,
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
      },
    );
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** Failures worth trying again with the same Idempotency-Key: the network, 5xx, 429, a request still in flight. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ReelsmithError)
    return error.status >= 500 || error.status === 429 || error.code === 'REQUEST_IN_PROGRESS';
  // fetch rejects with a TypeError when the connection fails; an abort is the caller's wish, not a failure.
  return error instanceof TypeError;
}
