// The one error every platform client throws. Its code tells the publishing job what to do next: ask the user to
// reconnect (OAUTH_EXPIRED), wait and retry (RATE_LIMITED, UNAVAILABLE, UPLOAD_FAILED), report a refusal the user must
// fix (REJECTED), or tell the operator to configure the app (NOT_CONFIGURED).

export type PlatformErrorCode =
  | 'PLATFORM_OAUTH_EXPIRED'
  | 'PLATFORM_RATE_LIMITED'
  | 'PLATFORM_REJECTED'
  | 'PLATFORM_UNAVAILABLE'
  | 'PLATFORM_UPLOAD_FAILED'
  | 'PLATFORM_NOT_CONFIGURED';

const RETRYABLE_BY_DEFAULT: Record<PlatformErrorCode, boolean> = {
  PLATFORM_OAUTH_EXPIRED: false,
  PLATFORM_RATE_LIMITED: true,
  PLATFORM_REJECTED: false,
  PLATFORM_UNAVAILABLE: true,
  PLATFORM_UPLOAD_FAILED: true,
  PLATFORM_NOT_CONFIGURED: false,
};

export interface PlatformErrorOptions {
  retryable?: boolean;
  /** The platform's HTTP status, when the error is an answer from it. */
  status?: number;
  /** How long the platform asked us to wait (rate limits), so a job can be rescheduled rather than retried now. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly code: PlatformErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(code: PlatformErrorCode, message: string, options: PlatformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformError';
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT[code];
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
