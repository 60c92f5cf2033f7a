// Every error the API answers with is made here, so codes, HTTP statuses and retryability stay consistent.

export interface ApiErrorOptions {
  retryable?: boolean;
  details?: unknown;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly retryable: boolean;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  /** 4xx errors are the caller's to fix; they are logged quietly and never page anyone. */
  get userFixable(): boolean {
    return this.status < 500;
  }
}

/** One offending field of a request, named by its path in the body. */
export interface FieldIssue {
  field: string;
  message: string;
  valid_values?: readonly string[];
}

export const errors = {
  inputInvalid: (message: string, issues?: FieldIssue[]) =>
    new ApiError(400, 'INPUT_INVALID', message, { details: issues ? { fields: issues } : undefined }),
  idempotencyKeyRequired: () =>
    new ApiError(
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'This paid call needs an Idempotency-Key header (8-256 characters), unique per intended job.',
    ),
  /** The MCP form: a tool call has no headers, so the key is an argument. */
  idempotencyArgumentRequired: (tool: string) =>
    new ApiError(
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      `${tool} is paid: send idempotency_key (8-256 characters, unique per intended job) in its arguments, or dry_run: true to price it for free. Nothing was run or charged.`,
    ),
  idempotencyKeyInvalid: () =>
    new ApiError(400, 'INPUT_INVALID', 'The Idempotency-Key header must be 8-256 characters.', {
      details: { fields: [{ field: 'Idempotency-Key', message: 'must be 8-256 characters' }] },
    }),
  dryRunNotSupported: (route: string) =>
    new ApiError(400, 'DRY_RUN_NOT_SUPPORTED', `dry_run is not supported on ${route}; nothing was run.`),
  authRequired: () =>
    new ApiError(
      401,
      'AUTH_REQUIRED',
      'Send your API key as "Authorization: Bearer <key>" or "X-API-Key: <key>".',
    ),
  authInvalid: () =>
    new ApiError(401, 'AUTH_INVALID_API_KEY', 'The API key is not valid or has been revoked.'),
  insufficientCredits: (requiredCents: number, balanceCents: number) =>
    new ApiError(
      402,
      'INSUFFICIENT_API_CREDITS',
      `This call costs ${requiredCents} cents but the balance is ${balanceCents} cents. Top up, then retry with a new Idempotency-Key.`,
      { details: { required_usd_cents: requiredCents, balance_usd_cents: balanceCents } },
    ),
  notFound: (what: string) => new ApiError(404, 'NOT_FOUND', `${what} was not found.`),
  jobNotFound: (jobId: string) => new ApiError(404, 'JOB_NOT_FOUND', `Job ${jobId} was not found.`),
  routeNotFound: (method: string, url: string) =>
    new ApiError(404, 'NOT_FOUND', `No route ${method} ${url}. See GET /api/v1/capabilities for the routes.`),
  methodNotAllowed: (method: string, url: string, allowed: string) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not served on ${url}; send ${allowed}.`, {
      headers: { allow: allowed },
    }),
  resourceAlreadyExists: () =>
    new ApiError(
      409,
      'RESOURCE_ALREADY_EXISTS',
      'This Idempotency-Key was already used with a different body. Use a new key for a new request.',
    ),
  requestInProgress: () =>
    new ApiError(
      409,
      'REQUEST_IN_PROGRESS',
      'An identical request is still being handled. Retry in a few seconds to receive its answer.',
      { retryable: true, headers: { 'retry-after': '5' } },
    ),
  cancelNotAllowed: (status: string) =>
    new ApiError(409, 'JOBS_CANCEL_NOT_ALLOWED', `The job is ${status} and can no longer be cancelled.`),
  modeNotAvailable: (route: string) =>
    new ApiError(
      410,
      'MODE_NOT_AVAILABLE',
      `${route} has been retired. See GET /api/v1/capabilities for current modes.`,
    ),
  privateDeliveryUnavailable: (route: string) =>
    new ApiError(422, 'PRIVATE_DELIVERY_UNAVAILABLE', `Private delivery is not available on ${route}.`),
  bodyNotUtf8: () =>
    new ApiError(
      400,
      'INPUT_INVALID',
      'The request body is not valid UTF-8. Send the JSON encoded as UTF-8.',
    ),
  bodyNotJson: (reason: string) =>
    new ApiError(
      400,
      'INPUT_INVALID',
      `The request body is not valid JSON (${reason}). Send one JSON object.`,
    ),
  bodyEmpty: () =>
    new ApiError(
      400,
      'INPUT_INVALID',
      'The body is empty; send a JSON object, or omit Content-Type: application/json.',
    ),
  bodyTooDeep: (maxDepth: number, field: string) =>
    new ApiError(
      400,
      'INPUT_INVALID',
      `The request body nests objects and arrays deeper than ${maxDepth} levels (at ${field}). Send a flatter body.`,
      { details: { fields: [{ field, message: `nests deeper than ${maxDepth} levels` }] } },
    ),
  bodyTooManyValues: (maxValues: number) =>
    new ApiError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The request body holds more than ${maxValues} JSON values. Send fewer items per request.`,
    ),
  /** Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone surrogate), named by where it was sent. */
  textNotStorable: (field: string, problem: string) =>
    new ApiError(400, 'INPUT_INVALID', `Invalid request: ${field} ${problem}.`, {
      details: { fields: [{ field, message: problem }] },
    }),
  forbiddenField: (field: string) =>
    new ApiError(400, 'INPUT_INVALID', `Invalid request: ${field} is not an allowed field name.`, {
      details: { fields: [{ field, message: 'is not an allowed field name' }] },
    }),
  badUrl: () =>
    new ApiError(
      400,
      'INPUT_INVALID',
      'The request path is not a valid URL: percent-escapes must encode UTF-8 text.',
    ),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than the ${limitBytes}-byte limit.`),
  rateLimited: (retryAfterSeconds: number, what: string) =>
    new ApiError(429, 'RATE_LIMIT_EXCEEDED', `Too many ${what}. Retry after ${retryAfterSeconds} s.`, {
      retryable: true,
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  renderConcurrency: (limit: number) =>
    new ApiError(
      429,
      'RENDER_CONCURRENCY_LIMIT_EXCEEDED',
      `At most ${limit} heavy renders may be in flight per account. Wait for one to finish, or submit through /batch to queue.`,
      { retryable: true, headers: { 'retry-after': '30' } },
    ),
  channelNotFound: (channelUrl: string) =>
    new ApiError(
      400,
      'CHANNEL_NOT_FOUND',
      `The channel ${channelUrl} does not exist on the video site. Check the handle or channel id; nothing was charged.`,
    ),
  noNewChannelVideos: (message: string) => new ApiError(409, 'NO_NEW_CHANNEL_VIDEOS', message),
  channelUnavailable: (message: string) =>
    new ApiError(502, 'CHANNEL_UNAVAILABLE', message, { retryable: true }),
  avatarNotFound: (avatarId: string) =>
    new ApiError(
      404,
      'AVATAR_NOT_FOUND',
      `Persona ${avatarId} was not found. List yours with GET /api/v1/avatars.`,
    ),
  /** A persona still being created (retry once it is ready), or one whose creation failed (make a new one). */
  avatarNotReady: (avatarId: string, status: 'processing' | 'failed') =>
    status === 'processing'
      ? new ApiError(
          409,
          'AVATAR_NOT_READY',
          `Persona ${avatarId} is still being created. Poll GET /api/v1/avatars/${avatarId} until its status is ready, then retry.`,
          { retryable: true, headers: { 'retry-after': '5' } },
        )
      : new ApiError(
          409,
          'AVATAR_NOT_READY',
          `Persona ${avatarId} could not be created (see GET /api/v1/avatars/${avatarId}); create a new persona with another photo.`,
        ),
  /** A presenter photo the photo policy refuses (docs/presenters.md); `details.reason` says which rule. */
  photoRejected: (message: string, details: Record<string, unknown>) =>
    new ApiError(422, 'PHOTO_REJECTED', message, { details }),
  lookNotSamePerson: (distance: number, threshold: number) =>
    new ApiError(
      422,
      'LOOK_NOT_SAME_PERSON',
      `The face in this photo does not match the persona's face (descriptor distance ${distance.toFixed(2)}, at most ${threshold} is the same person). Send another photo of the same person, face clearly visible.`,
      { details: { distance: Number(distance.toFixed(4)), max_distance: threshold } },
    ),
  lookLimitReached: (avatarId: string, limit: number) =>
    new ApiError(
      409,
      'LOOK_LIMIT_REACHED',
      `Persona ${avatarId} already has ${limit} looks, the most one persona keeps. Delete the persona or create another.`,
    ),
  engineNotSupported: (message: string) =>
    new ApiError(400, 'ENGINE_NOT_SUPPORTED', message, {
      details: [{ field: 'engine', message }],
    }),
  seriesTopicRepeated: (seriesId: string) =>
    new ApiError(
      409,
      'SERIES_TOPIC_REPEATED',
      `Series ${seriesId} already has a video on this topic; send another topic (or another series_id).`,
    ),
  seriesConflict: (seriesId: string, field: string, fixed: string) =>
    new ApiError(
      409,
      'SERIES_CONFLICT',
      `Series ${seriesId} is presented with ${field} ${fixed}; send the same ${field} (or leave it out) or start another series_id.`,
      { details: [{ field, message: `is fixed to ${fixed} by the series` }] },
    ),
  logoHostNoLogo: () =>
    new ApiError(
      422,
      'LOGO_HOST_NO_LOGO',
      'A logo host needs a logo: send host.logo_url or brand.logo_url, or use a brand kit (brand_id) with a logo.',
    ),
  contentBlocked: (message: string) => new ApiError(422, 'CONTENT_BLOCKED', message),
  publishingNotConfigured: () =>
    new ApiError(
      503,
      'PUBLISHING_NOT_CONFIGURED',
      'Publishing is off on this server: its operator must set PLATFORM_TOKEN_KEY (32 bytes, e.g. `openssl rand -base64 32`), which seals platform tokens at rest.',
    ),
  connectionNotFound: (id: string) =>
    new ApiError(
      404,
      'CONNECTION_NOT_FOUND',
      `Platform connection ${id} was not found. List yours with GET /api/v1/social-accounts.`,
    ),
  /** A platform of a post with no connection (or an expired one) on this account. */
  platformNotConnected: (field: string, platform: string, state: 'missing' | 'expired') =>
    new ApiError(
      400,
      'PLATFORM_NOT_CONNECTED',
      state === 'missing'
        ? `${platform} is not connected on this account: connect it with POST /api/v1/social-accounts first.`
        : `The ${platform} connection has expired (its refresh was refused): connect it again with POST /api/v1/social-accounts.`,
      {
        details: {
          fields: [{ field, message: state === 'missing' ? 'is not connected' : 'connection expired' }],
        },
      },
    ),
  videoNotFound: (field: string, id: string) =>
    new ApiError(404, 'VIDEO_NOT_FOUND', `No video ${id} in this account.`, {
      details: { fields: [{ field, message: 'no such video in this account' }] },
    }),
  videoNotReady: (field: string, id: string, status: string) =>
    new ApiError(
      409,
      'VIDEO_NOT_READY',
      status === 'completed'
        ? `Video ${id} has no video file to post (its job made none).`
        : `Video ${id} is ${status}: only a finished video can be posted. Wait for the job to complete, then retry.`,
      { details: { fields: [{ field, message: `job is ${status}` }] }, retryable: status !== 'completed' },
    ),
  internal: () =>
    new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong on our side. It has been logged.', {
      retryable: true,
    }),
  unavailable: (message: string) => new ApiError(503, 'SERVICE_UNAVAILABLE', message, { retryable: true }),
  /** A file of a job whose media the retention policy (MEDIA_RETENTION_DAYS) deleted; the job record stays. */
  mediaExpired: () =>
    new ApiError(
      410,
      'MEDIA_EXPIRED',
      "This file was deleted by the server's media retention policy; the job record remains. Copy files to your own storage once a job completes.",
    ),
  /** GET /ready: this process should get no traffic now; `failing` names the checks that failed. */
  notReady: (failing: string[], checks: Record<string, unknown>) =>
    new ApiError(503, 'SERVICE_NOT_READY', `Not ready: ${failing.join(', ')}.`, {
      retryable: true,
      details: { failing, checks },
    }),
};

/** The error object stored on a failed job (spec 2.4). */
export interface JobError {
  code: string;
  category: 'input' | 'provider' | 'render' | 'timeout' | 'internal' | 'cancelled';
  message: string;
  retryable: boolean;
}

/** Thrown by a pipeline to fail its job with a specific, caller-facing error. */
export class JobFailure extends Error {
  constructor(readonly jobError: JobError) {
    super(jobError.message);
    this.name = 'JobFailure';
  }
}

/** Errors a pipeline fails its job with (the refund is the platform's: every failed job is refunded). */
export const jobErrors = {
  /**
   * The delivered file failed the quality gate of docs/quality.md twice (the second render had corrected
   * parameters); `failures` names each failed check with what was measured. Not retried: a third render of
   * the same sources measures the same.
   */
  qualityGateFailed: (failures: string): JobError => ({
    code: 'QUALITY_GATE_FAILED',
    category: 'render',
    message: `The video failed its quality gate twice (${failures}), so it was not delivered; the charge was refunded. See docs/quality.md.`,
    retryable: false,
  }),
};
