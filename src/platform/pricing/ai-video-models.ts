// The AI-video model table (spec 1 §4.4): every neutral model id this build accepts, what it can make, and
// what one second of it costs the service. Prices are computed from this data alone (ai-video-price.ts), so
// dry runs, charges, the X-Api-Credits-* headers and /tools pricing.ai_video cannot disagree. Costs are the
// hosted providers' list prices per generated second (USD); the operator's provider mapping
// (src/providers/video-models/default-model-mapping.json) decides which provider model serves each id.

import type { VideoResolution } from '../../providers/video-models/video-model-provider.ts';

export const AI_VIDEO_RESOLUTIONS = ['480p', '720p', '1080p', '1440p', '2160p'] as const;
export const QUALITY_TIERS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type QualityTier = (typeof QUALITY_TIERS)[number];

export const AI_VIDEO_ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;
export type AspectRatio = (typeof AI_VIDEO_ASPECT_RATIOS)[number];
const ALL_ASPECTS = AI_VIDEO_ASPECT_RATIOS;
const NO_SQUARE = ['9:16', '16:9'] as const;

export const AI_VIDEO_MODEL_IDS = [
  'wave-3.0',
  'ridge-3.0-standard',
  'ridge-3.0-pro',
  'maker-c/flow-2.0',
  'maker-a/sky-3.1',
  'ridge-3-t2v',
  'host-x/wave/v2.7',
  'host-x/lt-2.3',
  'host-x/pix/v6',
] as const;
export type AiVideoModelId = (typeof AI_VIDEO_MODEL_IDS)[number];

export const DEFAULT_AI_VIDEO_MODEL: AiVideoModelId = 'maker-c/flow-2.0';

/** Spec 1 §4.4: the model each tier runs. */
export const TIER_MODELS: Record<QualityTier, AiVideoModelId> = {
  low: 'wave-3.0',
  medium: 'ridge-3.0-standard',
  high: 'ridge-3.0-pro',
  xhigh: 'maker-c/flow-2.0',
  max: 'maker-a/sky-3.1',
};

/** USD per generated second at one resolution: without and with the model's own soundtrack. */
export interface SecondCost {
  silent: number;
  audio: number;
}

export interface AiVideoModel {
  id: AiVideoModelId;
  /** The tier this model is the model of, if any. */
  tier?: QualityTier;
  /** Length of one generated shot when a 30 s or 60 s video is assembled from shots. */
  shotSec: number;
  /** The longest single native clip the model makes (a request of at most this many seconds is one clip). */
  maxClipSec: number;
  resolutions: Partial<Record<VideoResolution, SecondCost>>;
  /** Frame shapes the model makes (hosted models differ: some make no square video). */
  aspectRatios: readonly AspectRatio[];
  defaultResolution: VideoResolution;
  nativeAudioDefault: boolean;
  /** Style-anchor images the model takes (0: none). */
  maxReferenceImages: number;
  /** Which of the two endpoints the model serves. */
  textToVideo: boolean;
  imageToVideo: boolean;
  /** Price = provider cost × multiple, rounded up to 5 cents, never below the floor. */
  revenueMultiple: number;
  floorUsdCents: number;
}

const flat = (perSecond: number): SecondCost => ({ silent: perSecond, audio: perSecond });

export const AI_VIDEO_MODELS: Record<AiVideoModelId, AiVideoModel> = {
  'wave-3.0': {
    id: 'wave-3.0',
    tier: 'low',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '480p': flat(0.05), '720p': flat(0.1) },
    defaultResolution: '720p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 25,
  },
  'ridge-3.0-standard': {
    id: 'ridge-3.0-standard',
    tier: 'medium',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '720p': { silent: 0.084, audio: 0.126 } },
    defaultResolution: '720p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: false,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 40,
  },
  'ridge-3.0-pro': {
    id: 'ridge-3.0-pro',
    tier: 'high',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '1080p': { silent: 0.14, audio: 0.21 } },
    defaultResolution: '1080p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: false,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 50,
  },
  'maker-c/flow-2.0': {
    id: 'maker-c/flow-2.0',
    tier: 'xhigh',
    shotSec: 10,
    maxClipSec: 15,
    resolutions: { '720p': flat(0.1), '1080p': flat(0.3) },
    defaultResolution: '1080p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.3,
    floorUsdCents: 60,
  },
  'maker-a/sky-3.1': {
    id: 'maker-a/sky-3.1',
    tier: 'max',
    shotSec: 8,
    maxClipSec: 8,
    resolutions: {
      '720p': { silent: 0.2, audio: 0.4 },
      '1080p': { silent: 0.2, audio: 0.4 },
      '2160p': { silent: 0.4, audio: 0.6 },
    },
    defaultResolution: '1080p',
    aspectRatios: NO_SQUARE,
    nativeAudioDefault: true,
    maxReferenceImages: 3,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.3,
    floorUsdCents: 100,
  },
  'ridge-3-t2v': {
    id: 'ridge-3-t2v',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '720p': flat(0.084), '1080p': flat(0.112) },
    defaultResolution: '1080p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: false,
    revenueMultiple: 1.4,
    floorUsdCents: 40,
  },
  'host-x/wave/v2.7': {
    id: 'host-x/wave/v2.7',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '720p': flat(0.1), '1080p': flat(0.15) },
    defaultResolution: '1080p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 25,
  },
  'host-x/lt-2.3': {
    id: 'host-x/lt-2.3',
    shotSec: 10,
    maxClipSec: 10,
    resolutions: { '1080p': flat(0.06), '1440p': flat(0.12), '2160p': flat(0.24) },
    defaultResolution: '1080p',
    aspectRatios: NO_SQUARE,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 25,
  },
  'host-x/pix/v6': {
    id: 'host-x/pix/v6',
    shotSec: 5,
    maxClipSec: 10,
    resolutions: { '720p': flat(0.04), '1080p': flat(0.08) },
    defaultResolution: '720p',
    aspectRatios: ALL_ASPECTS,
    nativeAudioDefault: true,
    maxReferenceImages: 0,
    textToVideo: true,
    imageToVideo: true,
    revenueMultiple: 1.4,
    floorUsdCents: 25,
  },
};

/**
 * The local motion engine (src/media/motion/): it moves real pixels (a photo, or library footage) and invents
 * none, so it is priced as a render, like a stock video: 2 cents per second of output at any resolution.
 */
export const LOCAL_ENGINE_COST = {
  usdPerSecond: 0.02,
  revenueMultiple: 1,
  floorUsdCents: 20,
  maxClipSec: 15,
  shotSec: 5,
  /** Footage and photos are rendered up to this size; larger requests are refused on the local engine. */
  resolutions: ['480p', '720p', '1080p'] as VideoResolution[],
} as const;

/**
 * What narration adds (spec: "narration adds speech and transcription cost"): hosted text-to-speech and the
 * word-timing transcription, per second of video.
 */
export const NARRATION_COST = { speechUsdPerSecond: 0.0015, transcriptionUsdPerSecond: 0.0001 } as const;

/** Spec 1 §4.4: about 2.4 narrated words per second. */
export const WORDS_PER_SECOND = 2.4;

/** The lengths assembled from shots; other lengths must fit one native clip. */
export const ASSEMBLED_LENGTHS = [30, 60] as const;
