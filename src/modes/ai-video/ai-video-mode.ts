import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { z } from 'zod';
import { expectedScriptSource, scriptProvenance } from '../../media/script/writer.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { ModeDefinition, Price, ValidationServices } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';

import { brandKitHeaders, brandKitWarnings } from '../shared/brand-kit-selection.ts';
import { resolveKitForBrief, videoBranding } from '../shared/kit-branding.ts';
import { runAiVideo, type AiVideoDeps } from './ai-video-pipeline.ts';
import { SOURCE_IMAGE_FILE } from './local-shots.ts';
import {
  AI_VIDEO_ALIASES,
  AiVideoRuleError,
  aiVideoWarnings,
  imageToVideoSchema,
  priceOfRequest,
  resolveAiVideoRequest,
  textToVideoSchema,
  type AiVideoKind,
  type AiVideoRequest,
} from './ai-video-request.ts';
import { resolveVoiceToken } from '../shared/voice-token.ts';

// POST /videos/text-to-video and POST /videos/image-to-video (spec 1 §4.4): one definition, two modes.

const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
const IMAGE_MIN_SIDE = 256;
const IMAGE_MAX_SIDE = 8192;

export function aiVideoPriceOf(request: AiVideoRequest): Price {
  const price = priceOfRequest(request);
  return {
    usdCents: price.usdCents,
    breakdown: price.breakdown,
    tool: request.kind === 'text_to_video' ? 'videos/text-to-video' : 'videos/image-to-video',
    model: request.model,
    tier: request.tier,
    engine: request.engine,
  };
}

async function checkImage(request: AiVideoRequest, services: ValidationServices): Promise<AiVideoRequest> {
  const url = request.image_url!;
  const dir = services.stagingDir ?? join(services.config.dataDir, 'tmp', `image-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const path = join(dir, SOURCE_IMAGE_FILE);
  try {
    await services.urlGuard.download(url, path, { maxBytes: IMAGE_MAX_BYTES, timeoutMs: 30_000 });
  } catch (error) {
    if (error instanceof UrlRejectedError)
      throw invalidInputError([{ field: 'image_url', message: `could not be fetched: ${error.message}` }]);
    throw error;
  }
  let meta: Metadata;
  try {
    meta = await sharp(path).metadata();
  } catch {
    throw invalidInputError([
      { field: 'image_url', message: 'is not a readable image (send a JPG, PNG or WebP)' },
    ]);
  }
  const format = meta.format ?? '';
  if (!['jpeg', 'png', 'webp'].includes(format))
    throw invalidInputError([
      { field: 'image_url', message: `is a ${format || 'unknown'} image; send a JPG, PNG or WebP` },
    ]);
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (Math.min(width, height) < IMAGE_MIN_SIDE || Math.max(width, height) > IMAGE_MAX_SIDE)
    throw invalidInputError([
      {
        field: 'image_url',
        message: `is ${width}×${height} px; send an image whose sides are ${IMAGE_MIN_SIDE}-${IMAGE_MAX_SIDE} px`,
      },
    ]);
  return { ...request, image: { width, height, format, ...(services.stagingDir ? {} : { path }) } };
}

export function aiVideoMode(kind: AiVideoKind, deps: AiVideoDeps): ModeDefinition<AiVideoRequest> {
  const textToVideo = kind === 'text_to_video';
  const schema = (textToVideo ? textToVideoSchema : imageToVideoSchema).transform((body, ctx) => {
    try {
      return resolveAiVideoRequest(body, kind, deps.hosted.engineFor);
    } catch (error) {
      if (!(error instanceof AiVideoRuleError)) throw error;
      for (const issue of error.issues)
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
      return z.NEVER;
    }
  });
  return {
    name: kind,
    endpoint: textToVideo ? 'videos/text-to-video' : 'videos/image-to-video',
    title: textToVideo ? 'Text-to-video' : 'Image-to-video',
    description: textToVideo
      ? 'A video from a description of what is shown: one shot per visual beat from a hosted video model (or library footage with camera moves on the local engine), optional narration, captions and music.'
      : 'A photo brought to life: the camera move of the motion prompt by a hosted video model (or the local motion engine, which moves the real pixels of the photo), optional narration, captions and music.',
    schema,
    aliases: AI_VIDEO_ALIASES,
    receiptStatus: 200,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    // Hosted models queue; a 60 s video of 8 s shots may wait on the provider for many minutes.
    lifetimeSeconds: (request) => (request.engine === 'local' ? 900 : 2700),
    async validate(request, services) {
      const kit = await resolveKitForBrief(request, services, {
        prompt: request.prompt,
        script: request.script,
      });
      let checked: AiVideoRequest = kit ? { ...request, brand_kit: kit } : request;
      if (request.voice_id || request.narrated)
        checked = { ...checked, ...resolveVoiceToken(checked, deps.narrator) };
      if (!textToVideo) checked = await checkImage(checked, services);
      return checked;
    },
    answerHeaders: (request) => brandKitHeaders(request.brand_kit),
    price: aiVideoPriceOf,
    estimate: (request) => {
      const seconds = priceOfRequest(request).plan.videoSec;
      const local = request.engine === 'local';
      return {
        renderSeconds: local
          ? {
              min: Math.round(5 + seconds * 0.4),
              typical: Math.round(10 + seconds * 0.8),
              max: Math.round(60 + seconds * 3),
            }
          : { min: 60, typical: 180 + seconds * 4, max: 2700 },
        durationSec: seconds,
        ...(request.narrated
          ? { script: scriptProvenance(expectedScriptSource(request.script, deps.llmConfigured ?? false)) }
          : {}),
        warnings: [...aiVideoWarnings(request), ...brandKitWarnings(request)],
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const branding = await videoBranding(r, ctx);
      return runAiVideo(ctx, branding, deps);
    },
  };
}
