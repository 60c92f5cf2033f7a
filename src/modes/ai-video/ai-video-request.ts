import { z } from 'zod';
import type { FieldIssue } from '../../platform/errors.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import {
  AI_VIDEO_MODEL_IDS,
  AI_VIDEO_MODELS,
  AI_VIDEO_RESOLUTIONS,
  DEFAULT_AI_VIDEO_MODEL,
  LOCAL_ENGINE_COST,
  QUALITY_TIERS,
  TIER_MODELS,
  WORDS_PER_SECOND,
  type AiVideoModelId,
  type QualityTier,
} from '../../platform/pricing/ai-video-models.ts';
import {
  aiVideoPrice,
  isServedLength,
  type AiVideoEngine,
  type AiVideoPrice,
} from '../../platform/pricing/ai-video-price.ts';
import type { VideoResolution } from '../../providers/video-models/video-model-provider.ts';
import { kitSelectionShape, type KitChoice } from '../shared/brand-kit-selection.ts';
import { CONTENT_PURPOSES, type ContentPurpose } from '../shared/enums.ts';
import { brandSchema, languageSchema, type Brand } from '../shared/field-schemas.ts';

// The bodies of POST /videos/text-to-video and /videos/image-to-video (spec 1 §4.4; document 2 §4.8 for the
// earlier image-to-video body) and the rules that need more than one field: which model runs, whether it
// makes this length and resolution, and whether a script fits the length. Everything here runs before billing.

export type AiVideoKind = 'text_to_video' | 'image_to_video';

/** Spec 1 §4.4 renames, on top of the shared aliases of §4.1 (duration, duration_target_sec, aspectRatio…). */
export const AI_VIDEO_ALIASES: Record<string, string> = {
  motion_prompt: 'prompt',
  voiceGender: 'voice_gender',
  qualityTier: 'quality_tier',
  nativeAudio: 'native_audio',
  imageUrl: 'image_url',
};

const PROMPT_MAX = 1000;
const SCRIPT_MAX = 2000;
/** Spec: a voice id is 6-64 letters, digits, `_` or `-` (catalogue ids are written with `_` for `:`). */
export const VOICE_TOKEN = /^[A-Za-z0-9_-]{6,64}$/;

const shape = {
  prompt: z
    .string({ error: 'is required: describe what is shown (it is never spoken)' })
    .trim()
    .min(1, 'must not be empty')
    .max(PROMPT_MAX, `must be at most ${PROMPT_MAX} characters`),
  quality_tier: z.enum(QUALITY_TIERS).optional(),
  // Any string: an unknown id falls back to the default model (spec), and the charge headers say which ran.
  model: z.string().max(200).optional(),
  duration_sec: z.number().min(2).max(60).default(30),
  aspect_ratio: z.enum(['9:16', '16:9', '1:1']).default('9:16'),
  resolution: z.enum(AI_VIDEO_RESOLUTIONS).optional(),
  reference_image_urls: z.array(userUrl).max(10).default([]),
  script: z.string().trim().min(1).max(SCRIPT_MAX, `must be at most ${SCRIPT_MAX} characters`).optional(),
  content_purpose: z.enum(CONTENT_PURPOSES).optional(),
  voice_id: z.string().regex(VOICE_TOKEN, 'must be 6-64 letters, digits, "_" or "-"').optional(),
  voice_gender: z.enum(['female', 'male']).default('female'),
  language: languageSchema.optional(),
  captions: z.boolean().optional(),
  music: z.boolean().default(true),
  native_audio: z.boolean().optional(),
  brand: brandSchema.optional(),
  ...kitSelectionShape,
};

export const textToVideoSchema = z.object(shape);
export const imageToVideoSchema = z.object({ ...shape, image_url: userUrl });

type Parsed = z.infer<typeof textToVideoSchema> & { image_url?: string };

/** A request after every rule: the model that runs, its engine, and the values the spec leaves to defaults. */
export interface AiVideoRequest {
  kind: AiVideoKind;
  prompt: string;
  model: AiVideoModelId;
  /** Set when `model` was sent but is not a known id (the default model runs). */
  unknown_model?: string;
  tier: QualityTier | 'custom';
  engine: AiVideoEngine;
  duration_sec: number;
  aspect_ratio: '9:16' | '16:9' | '1:1';
  resolution: VideoResolution;
  reference_image_urls: string[];
  /** Reference images sent to a model that takes none (ignored, with a warning). */
  ignored_reference_images?: number;
  script?: string;
  content_purpose?: ContentPurpose;
  voice_id?: string;
  voice_gender: 'female' | 'male';
  language?: string;
  /** Narrated: a script was sent, or a content_purpose asks for one to be written. */
  narrated: boolean;
  captions: boolean;
  music: boolean;
  native_audio: boolean;
  /** A script slightly over its word budget adds one (charged) shot. */
  extra_shot: boolean;
  image_url?: string;
  /** Facts of the downloaded image (image-to-video), checked before billing. */
  image?: {
    width: number;
    height: number;
    format: string;
    /** Where the image was saved, when validation had no staging folder (the render CLI); else the job's work folder. */
    path?: string;
  };
  brand?: Brand;
  brand_id?: string;
  customer_id?: string;
  website_url?: string;
  confirm_authorized?: boolean;
  brand_kit?: KitChoice;
}

/** Which engine runs a model for an endpoint: a configured hosted provider, or the local motion engine. */
export type EngineChooser = (model: AiVideoModelId, kind: AiVideoKind) => AiVideoEngine;

export class AiVideoRuleError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.field} ${i.message}`).join('; '));
    this.name = 'AiVideoRuleError';
  }
}

function whitespaceWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function chooseModel(body: Parsed): { model: AiVideoModelId; unknown?: string } {
  if (body.model !== undefined) {
    if ((AI_VIDEO_MODEL_IDS as readonly string[]).includes(body.model))
      return { model: body.model as AiVideoModelId };
    return { model: DEFAULT_AI_VIDEO_MODEL, unknown: body.model };
  }
  if (body.quality_tier) return { model: TIER_MODELS[body.quality_tier] };
  return { model: DEFAULT_AI_VIDEO_MODEL };
}

/** Applies the cross-field rules of spec 1 §4.4; throws AiVideoRuleError naming every field to fix. */
export function resolveAiVideoRequest(
  body: Parsed,
  kind: AiVideoKind,
  engineFor: EngineChooser,
): AiVideoRequest {
  const issues: FieldIssue[] = [];
  const { model: modelId, unknown } = chooseModel(body);
  const model = AI_VIDEO_MODELS[modelId];
  const engine = engineFor(modelId, kind);
  const endpointServed = kind === 'text_to_video' ? model.textToVideo : model.imageToVideo;
  if (!endpointServed)
    issues.push({
      field: 'model',
      message: `${modelId} makes ${kind === 'text_to_video' ? 'image-to-video' : 'text-to-video'} only; choose another model`,
    });

  const duration = body.duration_sec;
  if (!isServedLength(model, duration))
    issues.push({
      field: 'duration_sec',
      message: `must be 30 or 60 (assembled from shots), or at most ${model.maxClipSec} for one native clip of ${modelId}`,
    });

  if (!model.aspectRatios.includes(body.aspect_ratio))
    issues.push({
      field: 'aspect_ratio',
      message: `${modelId} does not make ${body.aspect_ratio} video; it makes ${model.aspectRatios.join(', ')}`,
      valid_values: [...model.aspectRatios],
    });

  const resolution = body.resolution ?? model.defaultResolution;
  const offered = Object.keys(model.resolutions) as VideoResolution[];
  if (!offered.includes(resolution)) {
    issues.push({
      field: 'resolution',
      message: `${modelId} does not make ${resolution}; it makes ${offered.join(', ')}`,
      valid_values: offered,
    });
  } else if (engine === 'local' && !LOCAL_ENGINE_COST.resolutions.includes(resolution)) {
    issues.push({
      field: 'resolution',
      message: `the local motion engine (no hosted model provider is configured) renders up to 1080p; send ${LOCAL_ENGINE_COST.resolutions.join(', ')}`,
      valid_values: [...LOCAL_ENGINE_COST.resolutions],
    });
  }

  if (body.reference_image_urls.length > model.maxReferenceImages && model.maxReferenceImages > 0)
    issues.push({
      field: 'reference_image_urls',
      message: `${modelId} takes at most ${model.maxReferenceImages} reference images`,
    });

  let extraShot = false;
  if (body.script && endpointServed && isServedLength(model, duration)) {
    const words = whitespaceWords(body.script);
    const budget = Math.floor(duration * WORDS_PER_SECOND);
    const shotSec = engine === 'local' ? LOCAL_ENGINE_COST.shotSec : model.shotSec;
    const withExtraShot = Math.floor((duration + shotSec) * WORDS_PER_SECOND);
    if (words > withExtraShot)
      issues.push({
        field: 'script',
        message: `has ${words} words; the budget for ${duration} s is about ${budget} words (${WORDS_PER_SECOND} words per second; up to ${withExtraShot} with one extra charged shot). Shorten the script or send a longer duration_sec`,
      });
    else extraShot = words > budget;
  }
  if (issues.length > 0) throw new AiVideoRuleError(issues);

  const narrated = body.script !== undefined || body.content_purpose !== undefined;
  return {
    kind,
    prompt: body.prompt,
    model: modelId,
    ...(unknown !== undefined ? { unknown_model: unknown } : {}),
    tier: model.tier ?? 'custom',
    engine,
    duration_sec: duration,
    aspect_ratio: body.aspect_ratio,
    resolution,
    reference_image_urls: model.maxReferenceImages > 0 ? body.reference_image_urls : [],
    ...(model.maxReferenceImages === 0 && body.reference_image_urls.length > 0
      ? { ignored_reference_images: body.reference_image_urls.length }
      : {}),
    ...(body.script !== undefined ? { script: body.script } : {}),
    ...(body.content_purpose !== undefined ? { content_purpose: body.content_purpose } : {}),
    ...(body.voice_id !== undefined ? { voice_id: body.voice_id } : {}),
    voice_gender: body.voice_gender,
    ...(body.language !== undefined ? { language: body.language } : {}),
    narrated,
    captions: narrated && (body.captions ?? true),
    music: body.music,
    native_audio: body.native_audio ?? model.nativeAudioDefault,
    extra_shot: extraShot,
    ...(kind === 'image_to_video' && body.image_url ? { image_url: body.image_url } : {}),
    ...(body.brand ? { brand: body.brand } : {}),
    ...(body.brand_id ? { brand_id: body.brand_id } : {}),
    ...(body.customer_id ? { customer_id: body.customer_id } : {}),
    ...(body.website_url ? { website_url: body.website_url } : {}),
    ...(body.confirm_authorized !== undefined ? { confirm_authorized: body.confirm_authorized } : {}),
  };
}

/** Warnings a dry run shows for a valid request. */
export function aiVideoWarnings(request: AiVideoRequest): string[] {
  const warnings: string[] = [];
  if (request.unknown_model)
    warnings.push(
      `model "${request.unknown_model}" is not a known id; ${request.model} runs instead (see X-Api-Credits-Model).`,
    );
  if (request.engine === 'local') {
    warnings.push(
      'No hosted video model is configured: the local motion engine renders this video. It moves real pixels (camera moves over library footage or your photo) and invents none; a hosted model makes new footage.',
    );
    if (request.native_audio)
      warnings.push('The local motion engine makes no soundtrack of its own; native_audio adds nothing.');
  }
  if (request.ignored_reference_images)
    warnings.push(`${request.model} takes no reference images; reference_image_urls is ignored.`);
  if (request.extra_shot)
    warnings.push('The script is slightly over the word budget: one extra shot is added and charged.');
  if (!request.narrated)
    warnings.push('Neither script nor content_purpose was sent: the video has no narration.');
  return warnings;
}

/** The price of a resolved request: what dry runs show, the receipt charges and the pipeline plans shots by. */
export function priceOfRequest(request: AiVideoRequest): AiVideoPrice {
  return aiVideoPrice({
    modelId: request.model,
    engine: request.engine,
    durationSec: request.duration_sec,
    resolution: request.resolution,
    nativeAudio: request.native_audio,
    narrated: request.narrated,
    extraShot: request.extra_shot,
  });
}
