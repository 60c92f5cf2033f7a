// One interface for hosted video-model APIs (fal's queue, Replicate's predictions): submit one shot, follow it,
// cancel it. The AI-video pipeline records `SubmittedShot` before it waits, so a retried job polls the same
// provider request again instead of paying for a second one.

export type VideoAspectRatio = '9:16' | '16:9' | '1:1';
export type VideoResolution = '480p' | '720p' | '1080p' | '1440p' | '2160p';
export type VideoProviderName = 'fal' | 'replicate';

export interface ShotRequest {
  /** The provider's own model id, from the operator's mapping file (e.g. `fal-ai/...` or `owner/name`). */
  providerModel: string;
  /** What the shot shows (text-to-video) or how the image moves (image-to-video). */
  prompt: string;
  durationSec: number;
  aspectRatio: VideoAspectRatio;
  resolution: VideoResolution;
  /** Ask the model for its own soundtrack. */
  nativeAudio: boolean;
  /** Image-to-video: a public https URL of the first frame. */
  imageUrl?: string;
  /** Style anchors, on models that take them. */
  referenceImageUrls?: string[];
  /** Extra input fields from the mapping file, merged into the provider's input as they are. */
  extraInput?: Record<string, unknown>;
  /** How this provider model names and spells its inputs, from the mapping file; defaults in shot-input.ts. */
  inputShape?: ShotInputShape;
}

/** The neutral shot inputs a provider model may name differently (or not take at all). */
export type ShotInputField =
  'prompt' | 'duration' | 'aspectRatio' | 'resolution' | 'nativeAudio' | 'imageUrl' | 'referenceImageUrls';

/**
 * Model families spell the same inputs differently (`image_url`, `start_image_url`, `image`; duration 5, "5" or
 * "5s"; resolution "2160p" or "4k"), so the operator's mapping file describes each provider model's spelling.
 */
export interface ShotInputShape {
  /** Provider field name per neutral input; null: the model has no such input and it is not sent. */
  fields?: Partial<Record<ShotInputField, string | null>>;
  /** How the duration is written: 5 (number, the default), "5" (string) or "5s" (seconds). */
  durationFormat?: 'number' | 'string' | 'seconds';
  /** The durations the model accepts: a list, or an inclusive range of whole seconds. */
  durations?: number[] | { min: number; max: number };
  /** Provider spelling of a resolution, e.g. { "2160p": "4k" }. */
  resolutionValues?: Partial<Record<VideoResolution, string>>;
}

/** What is needed to follow a submitted shot, stored durably with the shot. */
export interface SubmittedShot {
  provider: VideoProviderName;
  requestId: string;
  /** The provider's own follow-up URLs when its protocol hands them out (fal: status, response, cancel). */
  urls?: { status?: string; result?: string; cancel?: string };
  /** The provider model the shot was submitted to. */
  providerModel: string;
}

export type ShotState =
  | { state: 'queued'; position?: number }
  | { state: 'running' }
  | {
      state: 'completed';
      videoUrl: string;
      /** seconds the provider reports it generated */ seconds?: number;
    }
  | {
      state: 'failed';
      /** The provider refused the prompt or image on content grounds (never retried; 422 to the caller). */
      refused: boolean;
      retryable: boolean;
      message: string;
    };

export class VideoProviderError extends Error {
  constructor(
    readonly kind:
      'unauthorized' | 'rate_limited' | 'unavailable' | 'bad_response' | 'refused' | 'invalid_input',
    message: string,
    readonly status?: number,
    readonly retryAfterSec?: number,
  ) {
    super(message);
    this.name = 'VideoProviderError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

export interface VideoModelProvider {
  readonly name: VideoProviderName;
  submit(request: ShotRequest, signal?: AbortSignal): Promise<SubmittedShot>;
  status(shot: SubmittedShot, signal?: AbortSignal): Promise<ShotState>;
  cancel(shot: SubmittedShot, signal?: AbortSignal): Promise<void>;
}
