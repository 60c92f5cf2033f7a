// What the service asks of a hosted image model: one still for a prompt, in one of three shapes, saved as a
// checked PNG. Failures are ImageModelErrors whose kind says what happened (a refusal is the provider's
// content policy, never worth retrying).

export type StillShape = 'portrait' | 'landscape' | 'square';

export interface StillRequest {
  prompt: string;
  shape: StillShape;
  /** Where the still is written (PNG). */
  outPath: string;
  signal?: AbortSignal;
}

export interface GeneratedStill {
  path: string;
  width: number;
  height: number;
  /** The size asked for, as the API names it ("1024x1536"). */
  size: string;
  /** The provider's id of the exchange (x-request-id), when it sent one. */
  requestId: string | null;
  /** How the answer carried the picture. */
  delivery: 'b64_json' | 'url';
}

export interface ImageModel {
  /** Provider name recorded with each still. */
  readonly provider: string;
  /** The provider model the stills are made with. */
  readonly model: string;
  generate(request: StillRequest): Promise<GeneratedStill>;
}

export type ImageModelErrorKind =
  /** The provider's content policy refused the prompt or the picture it made. */
  | 'refused'
  | 'unauthorized'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  /** The provider rejected the request as malformed (a model or size it does not serve). */
  | 'invalid_request'
  /** An answer without a usable picture. */
  | 'bad_response';

const RETRYABLE: ReadonlySet<ImageModelErrorKind> = new Set(['rate_limited', 'unavailable', 'timeout']);

export class ImageModelError extends Error {
  readonly kind: ImageModelErrorKind;
  readonly status: number | undefined;
  constructor(
    kind: ImageModelErrorKind,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ImageModelError';
    this.kind = kind;
    this.status = options.status;
  }

  /** Whether trying again later may succeed (the client has already retried these itself). */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

/** What a request for generated B-roll is told when no image model is configured. */
export const IMAGE_MODEL_SETTINGS =
  'set IMAGE_MODEL_API_KEY (and IMAGE_MODEL_BASE_URL and IMAGE_MODEL for another OpenAI-compatible image API)';
