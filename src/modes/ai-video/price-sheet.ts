import {
  AI_VIDEO_MODELS,
  AI_VIDEO_MODEL_IDS,
  ASSEMBLED_LENGTHS,
  DEFAULT_AI_VIDEO_MODEL,
  LOCAL_ENGINE_COST,
  QUALITY_TIERS,
  TIER_MODELS,
  WORDS_PER_SECOND,
  type AiVideoModelId,
} from '../../platform/pricing/ai-video-models.ts';
import { aiVideoPrice, costPerSecond } from '../../platform/pricing/ai-video-price.ts';
import type { EngineChooser } from './ai-video-request.ts';

// `pricing.ai_video` of GET /tools (spec 1 §4.4): the 30 s and 60 s price of every tier and model as this build
// serves it (the engine that would run it, at its default resolution), narrated and with native audio.

function pricesOf(model: AiVideoModelId, engineFor: EngineChooser) {
  const m = AI_VIDEO_MODELS[model];
  const engine = engineFor(model, m.textToVideo ? 'text_to_video' : 'image_to_video');
  const resolution =
    engine === 'local' && !LOCAL_ENGINE_COST.resolutions.includes(m.defaultResolution)
      ? '1080p'
      : m.defaultResolution;
  const at = (narrated: boolean, nativeAudio: boolean) =>
    Object.fromEntries(
      ASSEMBLED_LENGTHS.map((seconds) => [
        String(seconds),
        aiVideoPrice({ modelId: model, engine, durationSec: seconds, resolution, nativeAudio, narrated })
          .usdCents,
      ]),
    );
  const hasAudioPrice = engine !== 'local' && costPerSecond(m, engine, resolution, true) !== undefined;
  return {
    model,
    tier: m.tier ?? null,
    engine,
    resolution,
    resolutions: Object.keys(m.resolutions),
    native_audio_default: m.nativeAudioDefault,
    max_single_clip_sec: m.maxClipSec,
    shot_sec: engine === 'local' ? LOCAL_ENGINE_COST.shotSec : m.shotSec,
    text_to_video: m.textToVideo,
    image_to_video: m.imageToVideo,
    max_reference_images: m.maxReferenceImages,
    prices: at(false, false),
    prices_narrated: at(true, false),
    prices_native_audio: hasAudioPrice ? at(false, true) : at(false, false),
  };
}

export function aiVideoPriceSheet(engineFor: EngineChooser) {
  const models = AI_VIDEO_MODEL_IDS.map((id) => pricesOf(id, engineFor));
  return {
    currency: 'USD',
    unit: 'usd_cents per video, by length in seconds',
    default_model: DEFAULT_AI_VIDEO_MODEL,
    words_per_second: WORDS_PER_SECOND,
    tiers: Object.fromEntries(
      QUALITY_TIERS.map((tier) => [tier, models.find((m) => m.model === TIER_MODELS[tier])!]),
    ),
    models: Object.fromEntries(models.map((m) => [m.model, m])),
    local_engine: {
      usd_cents_per_second: LOCAL_ENGINE_COST.usdPerSecond * 100,
      floor_usd_cents: LOCAL_ENGINE_COST.floorUsdCents,
      note: 'The local motion engine moves real pixels (camera moves over library footage or the caller photo) and invents none; it is weaker than a hosted video model and priced as a render.',
    },
    rule: 'generated seconds × cost per second (model, resolution, native audio) × revenue multiple, + speech and transcription when narrated; rounded up to 5 cents; never below the model floor',
  };
}
