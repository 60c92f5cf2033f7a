// OpenAI's Images API (POST {IMAGE_MODEL_BASE_URL}/v1/images/generations with `model`, `prompt`, `size`, `n`),
// answered with `data[].b64_json` (GPT image models always) or `data[].url` (DALL·E's default). Exchanges go
// through the official SDK, which retries connection errors, 408, 409, 429 and 5xx with exponential backoff
// honouring Retry-After, each attempt under a bounded timeout. A picture sent as a URL is fetched through the
// URL guard (the provider names the address); either way the bytes are decoded by sharp and saved as PNG, so
// a truncated or foreign answer never reaches the render. The provider's content refusal
// (`content_policy_violation`, `moderation_blocked` on GPT image models) is a non-retryable `refused`.
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { readFile, rm } from 'node:fs/promises';
import sharp from 'sharp';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import {
  ImageModelError,
  type GeneratedStill,
  type ImageModel,
  type StillRequest,
  type StillShape,
} from './image-model.ts';

export interface OpenAiImagesOptions {
  /** e.g. "https://api.openai.com"; the client posts to "{baseUrl}/v1/images/generations". */
  baseUrl: string;
  apiKey: string;
  /** Default "gpt-image-1". */
  model?: string;
  /** Fetches pictures answered as URLs. */
  urlGuard: Pick<UrlGuard, 'download'>;
  /** Per attempt, in milliseconds. Default 120 000 (a GPT image model takes up to a minute per picture). */
  timeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx and connection errors. Default 2. */
  maxRetries?: number;
}

export const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
const PROVIDER = 'openai-images';
const REFUSAL_CODES = new Set(['content_policy_violation', 'moderation_blocked']);
/** A picture answered as a URL is at most this big (a 1536×1024 PNG is a few MB). */
const MAX_PICTURE_BYTES = 25 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;
const MIN_SIDE = 256;

/** The sizes each model family makes for each shape (the API refuses others). */
function sizeFor(model: string, shape: StillShape): string {
  if (model.startsWith('dall-e-2')) return '1024x1024';
  if (model.startsWith('dall-e-3'))
    return { portrait: '1024x1792', landscape: '1792x1024', square: '1024x1024' }[shape];
  return { portrait: '1024x1536', landscape: '1536x1024', square: '1024x1024' }[shape];
}

/** GPT image models are asked for medium quality, the quality the price table's cost per still is for. */
function qualityFor(model: string): { quality?: 'medium' } {
  return model.startsWith('dall-e') ? {} : { quality: 'medium' };
}

function providerDetail(error: APIError): string {
  const body: unknown = error.error;
  const message =
    typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
      ? body.message
      : error.message;
  return message.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** The SDK's failure (after its own retries) as an ImageModelError. */
function toImageModelError(error: unknown): ImageModelError {
  if (error instanceof APIConnectionTimeoutError)
    return new ImageModelError('timeout', 'the image model did not answer in time', { cause: error });
  if (!(error instanceof APIError) || error.status === undefined)
    return new ImageModelError(
      'unavailable',
      `the image model could not be reached: ${(error as Error).message}`,
      { cause: error },
    );
  const status = error.status;
  const detail = providerDetail(error);
  const options = { status, cause: error };
  if (error.code && REFUSAL_CODES.has(error.code))
    return new ImageModelError('refused', `the image model refused the prompt: ${detail}`, options);
  if (status === 401 || status === 403)
    return new ImageModelError(
      'unauthorized',
      `the image model refused the credentials (HTTP ${status}); check IMAGE_MODEL_API_KEY: ${detail}`,
      options,
    );
  if (status === 429)
    return new ImageModelError('rate_limited', `the image model's rate limit held: ${detail}`, options);
  if (status >= 500 || status === 408 || status === 409)
    return new ImageModelError('unavailable', `the image model answered HTTP ${status}: ${detail}`, options);
  return new ImageModelError(
    'invalid_request',
    `the image model rejected the request (HTTP ${status}): ${detail}`,
    options,
  );
}

export class OpenAiImageModel implements ImageModel {
  readonly provider = PROVIDER;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly urlGuard: Pick<UrlGuard, 'download'>;

  constructor(options: OpenAiImagesOptions) {
    this.model = options.model ?? DEFAULT_IMAGE_MODEL;
    this.urlGuard = options.urlGuard;
    this.client = new OpenAI({
      baseURL: `${options.baseUrl.replace(/\/+$/, '')}/v1`,
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? 120_000,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  async generate(request: StillRequest): Promise<GeneratedStill> {
    const { signal } = request;
    const size = sizeFor(this.model, request.shape);
    let answer;
    try {
      answer = await this.client.images
        .generate(
          { model: this.model, prompt: request.prompt, size, n: 1, ...qualityFor(this.model) },
          { signal },
        )
        .withResponse();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof APIUserAbortError) throw error;
      throw toImageModelError(error);
    }
    const picture = answer.data.data?.[0];
    let bytes: Buffer;
    let delivery: GeneratedStill['delivery'];
    if (picture?.b64_json) {
      bytes = Buffer.from(picture.b64_json, 'base64');
      delivery = 'b64_json';
    } else if (picture?.url) {
      bytes = await this.download(picture.url, request);
      delivery = 'url';
    } else {
      throw new ImageModelError('bad_response', 'the image model answered without a picture (data[0])');
    }
    const { width, height } = await savePicture(bytes, request.outPath);
    return { path: request.outPath, width, height, size, requestId: answer.request_id, delivery };
  }

  private async download(url: string, request: StillRequest): Promise<Buffer> {
    const raw = `${request.outPath}.download`;
    try {
      await this.urlGuard.download(url, raw, {
        maxBytes: MAX_PICTURE_BYTES,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return await readFile(raw);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (!(error instanceof UrlRejectedError)) throw error;
      throw new ImageModelError(
        'bad_response',
        `the image model's picture could not be fetched: ${error.message}`,
        { cause: error },
      );
    } finally {
      await rm(raw, { force: true });
    }
  }
}

/** Decodes the whole picture (a truncated file fails here) and writes it as PNG. */
async function savePicture(bytes: Buffer, outPath: string): Promise<{ width: number; height: number }> {
  let info;
  try {
    const image = sharp(bytes, { failOn: 'truncated' });
    const { format } = await image.metadata();
    if (!format || !['png', 'jpeg', 'webp'].includes(format))
      throw new Error(`a ${format ?? 'unknown'} file, not a PNG, JPEG or WebP picture`);
    info = await image.png().toFile(outPath);
  } catch (error) {
    await rm(outPath, { force: true });
    throw new ImageModelError(
      'bad_response',
      `the image model's picture is not an image: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (info.width < MIN_SIDE || info.height < MIN_SIDE) {
    await rm(outPath, { force: true });
    throw new ImageModelError(
      'bad_response',
      `the image model's picture is only ${info.width}×${info.height}`,
    );
  }
  return { width: info.width, height: info.height };
}

/** The configured image model (IMAGE_MODEL_API_KEY set), or undefined. */
export function createImageModel(
  settings: { baseUrl: string; apiKey: string; model: string } | undefined,
  urlGuard: Pick<UrlGuard, 'download'>,
): ImageModel | undefined {
  return settings && new OpenAiImageModel({ ...settings, urlGuard });
}
