// One interface for the hosted talking-photo engines (avatar_iv on HeyGen, avatar_v on D-ID): a photo and OUR
// narration go up from local files, the provider animates the face to that audio, and the result comes back as an
// MP4 in the job's folder. Nothing of ours needs a public URL. Every failure is a TalkingPhotoError whose kind
// says what the caller can do about it; talkingPhotoJobFailure turns it into the job error the API reports.

import type { Logger } from 'pino';
import { JobFailure } from '../../platform/errors.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';

export type TalkingPhotoEngine = 'avatar_iv' | 'avatar_v';
export type TalkingPhotoAspectRatio = '9:16' | '16:9' | '1:1';

export interface TalkingPhotoJob {
  /** The presenter photo (any format sharp reads); it is cropped to the aspect ratio before upload. */
  photoPath: string;
  /** The narration the face speaks; the video is as long as this audio. */
  audioPath: string;
  aspectRatio: TalkingPhotoAspectRatio;
  /** Shown in the provider's dashboard next to the render. */
  title?: string;
  /**
   * The face in the upright photo's pixels (a persona's stored face box): the crop is then framed on it. Without
   * it the crop keeps the region sharp finds most salient.
   */
  faceBox?: FaceBox;
}

export interface FaceBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface TalkingPhotoRenderOptions {
  /** Where the prepared uploads and the downloaded result are written. */
  workDir: string;
  /** Aborting stops waiting at once and leaves the provider render alone, so a retry can resume it. */
  signal: AbortSignal;
  /** 0…1 at each stage reached (uploads, submitted, rendering, rendered, downloaded); never estimated. */
  onProgress?: (fraction: number) => void;
  /**
   * Called with the provider's render id as soon as the render exists, before any waiting: store it, and a
   * retried job passes it back as `resumeJobId` instead of paying for a second render.
   */
  onSubmitted?: (providerJobId: string) => void | Promise<void>;
  /** Follow this earlier render (from `onSubmitted`) instead of uploading and submitting again. */
  resumeJobId?: string;
  /** Told when a temporary upload could not be deleted at the provider (the render is unaffected). */
  log?: Pick<Logger, 'warn'>;
}

export interface TalkingPhotoResult {
  /** A probed MP4 with a video stream, in `workDir`. */
  videoPath: string;
  providerJobId: string;
}

export interface TalkingPhotoProvider {
  readonly engine: TalkingPhotoEngine;
  /** The provider's name, for logs and job errors ("HeyGen", "D-ID"). */
  readonly name: string;
  render(job: TalkingPhotoJob, opts: TalkingPhotoRenderOptions): Promise<TalkingPhotoResult>;
}

/** What every client takes; the key's header and the default base URL are the client's own. */
export interface TalkingPhotoClientOptions {
  apiKey: string;
  /** The provider's API origin (a fake server in tests); defaults to the documented one. */
  baseUrl?: string;
  /** Time between status polls. */
  pollIntervalMs: number;
  /** The whole render, from the first upload to the provider's finished status. */
  timeoutMs: number;
  /** Every call, uploads and the result download included, goes through the outbound URL guard. */
  urlGuard: Pick<UrlGuard, 'request' | 'download'>;
}

export type TalkingPhotoErrorKind =
  /** The key was refused (401). */
  | 'unauthorized'
  /** The key is valid but the account may not do this (403: plan or permission). */
  | 'forbidden'
  /** The provider account is out of credits (402). */
  | 'payment_required'
  /** 429 answers kept coming until the time budget ran out. */
  | 'rate_limited'
  /** Outages, gateway errors and network failures, after a few tries. */
  | 'unavailable'
  /** The provider rejected the request or the files as invalid (400, 404, 413, 415, 422). */
  | 'invalid_input'
  /** A moderation refusal of the photo or the narration: never retried. */
  | 'refused'
  /** The render itself failed at the provider. */
  | 'failed'
  /** The render did not finish within the time budget. */
  | 'timeout'
  /** An answer not of the documented shape. */
  | 'bad_response'
  /** The result could not be downloaded through the URL guard, or is not a playable video. */
  | 'bad_result';

export class TalkingPhotoError extends Error {
  constructor(
    readonly kind: TalkingPhotoErrorKind,
    readonly provider: string,
    message: string,
    readonly details: {
      status?: number;
      retryAfterSec?: number;
      /** The provider render the error is about, when one exists. */
      providerJobId?: string;
      /** Whether trying the same job again may succeed. */
      retryable?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TalkingPhotoError';
  }

  get retryable(): boolean {
    return this.details.retryable ?? (this.kind === 'rate_limited' || this.kind === 'unavailable');
  }
}

/** The job error a failed talking-photo render reports (refunded like every provider failure). */
export function talkingPhotoJobFailure(error: TalkingPhotoError): JobFailure {
  switch (error.kind) {
    case 'refused':
      return new JobFailure({
        code: 'CONTENT_REFUSED',
        category: 'input',
        message: `${error.provider} refused this photo or narration on content grounds (${error.message}). Use another photo or script; the charge was refunded.`,
        retryable: false,
      });
    case 'timeout':
      return new JobFailure({
        code: 'AI_PROVIDER_TIMEOUT',
        category: 'provider',
        message: `${error.message} The charge was refunded.`,
        retryable: false,
      });
    case 'bad_result':
      return new JobFailure({
        code: 'AI_PROVIDER_RESULT_REFUSED',
        category: 'provider',
        message: `The talking-photo result could not be used: ${error.message}. The charge was refunded.`,
        retryable: false,
      });
    case 'unauthorized':
    case 'forbidden':
    case 'payment_required':
    case 'rate_limited':
    case 'unavailable':
    case 'invalid_input':
    case 'failed':
    case 'bad_response':
      return new JobFailure({
        code: 'AI_PROVIDER_FAILED',
        category: 'provider',
        message: `The talking-photo provider failed: ${error.message}`,
        retryable: error.retryable,
      });
  }
}
