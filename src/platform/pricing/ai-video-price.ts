// The AI-video price rule of spec 1 §4.4, from the model table alone: generated seconds × the engine's cost per
// second (by resolution and soundtrack) × the model's revenue multiple, plus narration's speech and
// transcription cost, rounded up to 5 cents and never below the model's floor.

import type { VideoResolution } from '../../providers/video-models/video-model-provider.ts';
import {
  AI_VIDEO_MODELS,
  ASSEMBLED_LENGTHS,
  LOCAL_ENGINE_COST,
  NARRATION_COST,
  type AiVideoModel,
  type AiVideoModelId,
} from './ai-video-models.ts';

export type AiVideoEngine = 'local' | 'fal' | 'replicate';

/** How a length is made: `shots` shots of `shotSec` (the last one may be trimmed on assembly). */
export interface ShotPlan {
  shots: number;
  shotSec: number;
  /** Seconds the engine generates (and is paid for). */
  generatedSec: number;
  /** Length of the finished video. */
  videoSec: number;
  /** One shot more than the length needs, for a script slightly over its word budget (charged). */
  extraShot: boolean;
}

/** True when `durationSec` is a length the model makes: 30, 60, or one native clip. */
export function isServedLength(model: AiVideoModel, durationSec: number): boolean {
  return (ASSEMBLED_LENGTHS as readonly number[]).includes(durationSec) || durationSec <= model.maxClipSec;
}

export function planShots(
  model: AiVideoModel,
  engine: AiVideoEngine,
  durationSec: number,
  extraShot = false,
): ShotPlan {
  const shotSec = engine === 'local' ? LOCAL_ENGINE_COST.shotSec : model.shotSec;
  const single = durationSec <= model.maxClipSec;
  const base = single ? 1 : Math.ceil(durationSec / shotSec);
  const shots = base + (extraShot ? 1 : 0);
  const firstSec = single ? durationSec : shotSec;
  const generatedSec = firstSec + (shots - 1) * shotSec;
  const videoSec = durationSec + (extraShot ? shotSec : 0);
  return { shots, shotSec: single && !extraShot ? durationSec : shotSec, generatedSec, videoSec, extraShot };
}

export interface AiVideoPriceInput {
  modelId: AiVideoModelId;
  engine: AiVideoEngine;
  durationSec: number;
  resolution: VideoResolution;
  nativeAudio: boolean;
  narrated: boolean;
  extraShot?: boolean;
}

export interface AiVideoPriceLine {
  item: string;
  usd_cents: number;
  quantity?: number;
  unit?: string;
}

export interface AiVideoPrice {
  usdCents: number;
  plan: ShotPlan;
  breakdown: AiVideoPriceLine[];
}

/** Cents, rounded up to the next 5 (a float error below a thousandth of a cent does not add 5 cents). */
export function roundUpTo5Cents(usd: number): number {
  return Math.ceil((usd * 100) / 5 - 1e-6) * 5;
}

/** USD per generated second on this engine, or undefined when the model does not make this resolution. */
export function costPerSecond(
  model: AiVideoModel,
  engine: AiVideoEngine,
  resolution: VideoResolution,
  nativeAudio: boolean,
): number | undefined {
  if (engine === 'local')
    return LOCAL_ENGINE_COST.resolutions.includes(resolution) ? LOCAL_ENGINE_COST.usdPerSecond : undefined;
  const cost = model.resolutions[resolution];
  return cost && (nativeAudio ? cost.audio : cost.silent);
}

export function aiVideoPrice(input: AiVideoPriceInput): AiVideoPrice {
  const model = AI_VIDEO_MODELS[input.modelId];
  const plan = planShots(model, input.engine, input.durationSec, input.extraShot ?? false);
  const perSecond = costPerSecond(model, input.engine, input.resolution, input.nativeAudio);
  if (perSecond === undefined)
    throw new Error(`${input.modelId} does not make ${input.resolution} on the ${input.engine} engine`);
  const local = input.engine === 'local';
  const multiple = local ? LOCAL_ENGINE_COST.revenueMultiple : model.revenueMultiple;
  const floor = local ? LOCAL_ENGINE_COST.floorUsdCents : model.floorUsdCents;
  const generation = plan.generatedSec * perSecond * multiple;
  const narration = input.narrated
    ? plan.videoSec *
      (NARRATION_COST.speechUsdPerSecond + NARRATION_COST.transcriptionUsdPerSecond) *
      multiple
    : 0;
  const exact = generation + narration;
  const usdCents = Math.max(floor, roundUpTo5Cents(exact));
  const generationCents = Math.round(generation * 100 * 1000) / 1000;
  const narrationCents = Math.round(narration * 100 * 1000) / 1000;
  const breakdown: AiVideoPriceLine[] = [
    {
      item: `${plan.shots} shot${plan.shots === 1 ? '' : 's'} of ${input.modelId} on the ${input.engine} engine, ${input.resolution}${input.nativeAudio && !local ? ' with native audio' : ''}${plan.extraShot ? ' (one extra shot for the script)' : ''}`,
      usd_cents: generationCents,
      quantity: plan.generatedSec,
      unit: 'generated_second',
    },
  ];
  if (input.narrated)
    breakdown.push({
      item: 'narration: speech and word timings',
      usd_cents: narrationCents,
      quantity: plan.videoSec,
      unit: 'second',
    });
  const adjustment = Math.round((usdCents - generationCents - narrationCents) * 1000) / 1000;
  if (adjustment !== 0)
    breakdown.push({
      item:
        usdCents === floor && roundUpTo5Cents(exact) < floor
          ? 'model minimum price'
          : 'rounded up to 5 cents',
      usd_cents: adjustment,
    });
  return { usdCents, plan, breakdown };
}
