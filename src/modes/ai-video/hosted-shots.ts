import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import type { AiVideoModel, AiVideoModelId } from '../../platform/pricing/ai-video-models.ts';
import type { ShotPlan } from '../../platform/pricing/ai-video-price.ts';
import {
  downloadShot,
  followShot,
  ShotDownloadError,
  ShotTimeoutError,
} from '../../providers/video-models/follow-shot.ts';
import {
  VideoProviderError,
  type ShotInputShape,
  type SubmittedShot,
  type VideoModelProvider,
} from '../../providers/video-models/video-model-provider.ts';
import type { AiVideoKind, AiVideoRequest, EngineChooser } from './ai-video-request.ts';
import {
  markCompleted,
  markFailed,
  markPlannedAgain,
  markSubmitted,
  planShotRecords,
  readShots,
  type ShotRecord,
} from './shot-records.ts';

// Shots made by a hosted video model. Each shot is a durable record: it is submitted once, its request id is
// stored before anything waits on it, and a retried job follows the stored request (or re-downloads a finished
// result) instead of paying the provider again. All shots of a job are in flight at once.

export interface HostedRoute {
  provider: VideoModelProvider;
  providerModel: string;
  inputShape?: ShotInputShape;
  extraInput?: Record<string, unknown>;
}

/** The configured hosted providers as the AI-video modes see them. */
export interface HostedModels {
  engineFor: EngineChooser;
  /** The provider and its model for a neutral model id; only asked for models `engineFor` sends to one. */
  route(model: AiVideoModelId, kind: AiVideoKind): HostedRoute;
  pollIntervalMs: number;
  /** The longest one shot may take at the provider before it is cancelled and the job fails (refunded). */
  shotTimeoutMs: number;
}

export interface HostedShotFile {
  path: string;
  hasAudio: boolean;
}

interface HostedShotInput {
  hosted: HostedModels;
  model: AiVideoModel;
  plan: ShotPlan;
  beats: string[];
  shareOf(seconds: number): number;
  nativeAudio: boolean;
}

/** A length of at most one native clip is made as that one clip; every other shot is a native-length shot. */
function shotSeconds(model: AiVideoModel, plan: ShotPlan, index: number, requestSec: number): number {
  return index === 0 && requestSec <= model.maxClipSec ? requestSec : plan.shotSec;
}

function refusal(message: string): JobFailure {
  return new JobFailure({
    code: 'CONTENT_REFUSED',
    category: 'input',
    message: `The video model refused this request on content grounds (${message}). Change the prompt or image; the charge was refunded.`,
    retryable: false,
  });
}

function providerFailure(message: string, retryable: boolean): JobFailure {
  return new JobFailure({
    code: 'AI_PROVIDER_FAILED',
    category: 'provider',
    message: `The video model failed to make a shot: ${message}`,
    retryable,
  });
}

export async function generateHostedShots(
  ctx: JobContext<AiVideoRequest>,
  input: HostedShotInput,
): Promise<{ records: ShotRecord[]; files: HostedShotFile[] }> {
  const { request, services } = ctx;
  const route = input.hosted.route(request.model, request.kind);
  const planned = await planShotRecords(
    services.db,
    ctx.job.id,
    input.beats.map((beat, index) => {
      const seconds = shotSeconds(input.model, input.plan, index, request.duration_sec);
      return {
        index,
        engine: route.provider.name,
        providerModel: route.providerModel,
        prompt: input.plan.shots === 1 ? request.prompt : `${beat}. ${request.prompt}`.slice(0, 1000),
        seconds,
        costUsdCents: input.shareOf(seconds),
        source: {
          kind: 'generated',
          provider: route.provider.name,
          provider_model: route.providerModel,
          ...(request.image_url ? { image_url: request.image_url } : {}),
        },
      };
    }),
  );
  let done = 0;
  const files = await Promise.all(
    planned.map(async (shot) => {
      const file = await oneShot(ctx, input, route, shot);
      done++;
      await ctx.progress(
        'shots',
        25 + Math.floor((done / planned.length) * 30),
        `Shot ${done} of ${planned.length} is ready.`,
      );
      return file;
    }),
  );
  return { records: await readShots(services.db, ctx.job.id), files };
}

async function oneShot(
  ctx: JobContext<AiVideoRequest>,
  input: HostedShotInput,
  route: HostedRoute,
  shot: ShotRecord,
): Promise<HostedShotFile> {
  const { db, urlGuard } = ctx.services;
  const { request, signal } = ctx;
  const path = join(ctx.workDir, `shot-${shot.index}.mp4`);
  if (shot.status === 'completed' && existsSync(path)) return describe(path);

  let submitted: SubmittedShot | null = shot.submission;
  let resultUrl = shot.status === 'completed' ? shot.resultUrl : null;
  if (!resultUrl) {
    if (!submitted) {
      try {
        submitted = await route.provider.submit(
          {
            providerModel: route.providerModel,
            prompt: shot.prompt,
            durationSec: shot.seconds,
            aspectRatio: request.aspect_ratio,
            resolution: request.resolution,
            nativeAudio: input.nativeAudio,
            ...(request.image_url ? { imageUrl: request.image_url } : {}),
            ...(request.reference_image_urls.length > 0
              ? { referenceImageUrls: request.reference_image_urls }
              : {}),
            ...(route.inputShape ? { inputShape: route.inputShape } : {}),
            ...(route.extraInput ? { extraInput: route.extraInput } : {}),
          },
          signal,
        );
      } catch (error) {
        if (error instanceof VideoProviderError) {
          if (error.kind === 'refused') {
            await markFailed(db, ctx.job.id, shot.index, error.message);
            throw refusal(error.message);
          }
          throw providerFailure(error.message, error.retryable);
        }
        throw error;
      }
      await markSubmitted(db, ctx.job.id, shot.index, submitted);
    }
    let state;
    try {
      state = await followShot(route.provider, submitted, {
        pollIntervalMs: input.hosted.pollIntervalMs,
        maxWaitMs: input.hosted.shotTimeoutMs,
        signal,
      });
    } catch (error) {
      if (error instanceof ShotTimeoutError) {
        await markFailed(db, ctx.job.id, shot.index, error.message);
        throw new JobFailure({
          code: 'AI_PROVIDER_TIMEOUT',
          category: 'provider',
          message: `The video model did not finish shot ${shot.index + 1} in ${Math.round(input.hosted.shotTimeoutMs / 1000)} s; it was cancelled and the charge was refunded.`,
          retryable: false,
        });
      }
      if (error instanceof VideoProviderError) throw providerFailure(error.message, error.retryable);
      throw error;
    }
    if (state.state === 'failed') {
      if (state.refused) {
        await markFailed(db, ctx.job.id, shot.index, state.message);
        throw refusal(state.message);
      }
      // A failed generation is worth another try: the next attempt submits this shot again.
      await markPlannedAgain(db, ctx.job.id, shot.index, state.message);
      throw providerFailure(state.message, state.retryable);
    }
    resultUrl = state.videoUrl;
  }
  try {
    await downloadShot(urlGuard, resultUrl, path, { signal });
  } catch (error) {
    if (error instanceof UrlRejectedError || error instanceof ShotDownloadError) {
      await markFailed(db, ctx.job.id, shot.index, error.message);
      throw new JobFailure({
        code: 'AI_PROVIDER_RESULT_REFUSED',
        category: 'provider',
        message: `The video model's result could not be used: ${error.message}. The charge was refunded.`,
        retryable: false,
      });
    }
    throw error;
  }
  await markCompleted(db, ctx.job.id, shot.index, resultUrl);
  return describe(path);
}

async function describe(path: string): Promise<HostedShotFile> {
  const info = await probeMedia(path);
  return { path, hasAudio: info.audio !== undefined && info.audio !== null };
}
