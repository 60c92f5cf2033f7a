import { copyFile, mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { jobErrors, JobFailure } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type {
  JobContext,
  JobOutput,
  ModeDefinition,
  Price,
  RequestEstimate,
} from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { ClipSourceError } from '../../media/clips/clip-errors.ts';
import { cutClips, type ClipPipelineResult } from '../../media/clips/clip-pipeline.ts';
import type { SpeechRecognizer } from '../../media/speech/recognizer.ts';
import type { VideoSiteFetcher } from '../../providers/video-site/video-site.ts';
import { resolveChannelSource, takenMeanwhile } from './channel-source.ts';
import { rememberClippedVideo } from './clip-memory.ts';
import { writeProvenance } from '../../media/provenance/provenance.ts';
import { QualityGateError } from '../../media/quality/gated-render.ts';
import { describeFailures } from '../../media/quality/quality-gate.ts';
import { bestFirst, clipJobOutput, clipProvenance, clipProvenancePath } from './clip-output.ts';
import { clipRequestSchema, type ClipRequest } from './clip-request.ts';
import { fetchClipSource } from './clip-source.ts';
import { legacyClipRequestSchema } from './legacy-clip-request.ts';

export interface ClipModeDeps {
  /** The video-site client: yt-dlp in a running service (createVideoSiteFetcher), a local stand-in in tests. */
  fetcher: VideoSiteFetcher;
  recognizer: () => SpeechRecognizer;
  /** x264 preset of the clip encodes (RENDER_PRESET). */
  renderPreset: string;
  /** Scales the output frame down (0 < scale ≤ 1): tests render small clips; a running service renders full size. */
  outputScale?: number;
}

export function clipPrice(request: ClipRequest): Price {
  const unit = unitPrice('clip');
  return {
    usdCents: unit * request.clip_count,
    breakdown: [
      {
        item: 'clip (per requested clip; undelivered clips are refunded at completion)',
        usd_cents: unit * request.clip_count,
        quantity: request.clip_count,
        unit: 'clip',
      },
    ],
    tool: 'clipper/vidsite',
    model: 'clips',
    tier: 'standard',
    engine: 'clipper',
  };
}

/** Transcribing the source dominates, and its length is unknown until it is downloaded. */
export function clipEstimate(request: ClipRequest): RequestEstimate {
  const source = request.source_video;
  return {
    renderSeconds: { min: 20, typical: 60 + 15 * request.clip_count, max: 1800 },
    warnings: [
      `clip_count ${request.clip_count} is a maximum: a source with fewer good moments gives fewer clips, and each undelivered clip is refunded (${unitPrice('clip')} cents).`,
      ...(request.channel_url && source
        ? [`Channel mode would clip "${source.title ?? source.vidsite_video_id}" (${source.url}).`]
        : []),
    ],
  };
}

async function runClipJob(ctx: JobContext<ClipRequest>, deps: ClipModeDeps): Promise<JobOutput> {
  const r = ctx.request;
  const source = await fetchClipSource(ctx, deps.fetcher);
  await ctx.progress('clips', 13, 'Finding the moments worth clipping.');
  const clipsDir = join(ctx.workDir, 'clips');
  await mkdir(clipsDir, { recursive: true });
  let result: ClipPipelineResult;
  try {
    result = await cutClips({
      sourcePath: source.path,
      workDir: clipsDir,
      clipCount: r.clip_count,
      aspectRatio: r.aspect_ratio,
      captions: r.captions,
      ...(r.focus ? { focus: r.focus } : {}),
      ...(r.content_purpose ? { contentPurpose: r.content_purpose } : {}),
      recognizer: deps.recognizer(),
      signal: ctx.signal,
      preset: deps.renderPreset,
      ...(deps.outputScale ? { outputScale: deps.outputScale } : {}),
      onProgress: (stage, percent, message) =>
        ctx.progress(stage, 13 + Math.round(Math.max(0, Math.min(100, percent)) * 0.82), message),
    });
  } catch (error) {
    if (error instanceof QualityGateError)
      throw new JobFailure(jobErrors.qualityGateFailed(describeFailures(error.report)));
    if (!(error instanceof ClipSourceError)) throw error;
    throw new JobFailure({
      code: 'SOURCE_UNUSABLE',
      category: 'input',
      message: `${error.message} The charge was refunded.`,
      retryable: false,
    });
  }
  const best = bestFirst(result.clips)[0];
  if (!best) {
    throw new JobFailure({
      code: 'NO_CLIPS_FOUND',
      category: 'input',
      message:
        'No moment of the source could be clipped: it is too short or nothing said in it was recognized. The charge was refunded.',
      retryable: false,
    });
  }
  const posterPath = join(ctx.workDir, `poster${extname(best.posterPath) || '.jpg'}`);
  await copyFile(best.posterPath, posterPath);
  for (const clip of result.clips) await writeProvenance(clipProvenancePath(clip), clipProvenance(r, clip));
  return clipJobOutput({
    request: r,
    source,
    clips: result.clips,
    dropped: result.dropped,
    language: result.language,
    posterPath,
    unitCents: unitPrice('clip'),
  });
}

/** POST /clipper/vidsite (spec 1 §4.3): clips from one video-site video, or the next upload of a channel. */
export function clipMode(deps: ClipModeDeps): ModeDefinition<ClipRequest> {
  return {
    name: 'clip',
    endpoint: 'clipper/vidsite',
    title: 'Clips',
    description:
      'Short clips of the best moments of a video-site video (or the newest upload of a channel not clipped yet): speech recognized, moments scored, reframed to the aspect ratio, word-synced captions, original audio.',
    schema: clipRequestSchema,
    receiptStatus: 200,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    async validate(request, services) {
      if (request.channel_url) return resolveChannelSource(request, services, deps.fetcher);
      if (request.media_url) {
        try {
          await services.urlGuard.assertAllowed(request.media_url, { timeoutMs: 5000 });
        } catch (error) {
          if (!(error instanceof UrlRejectedError)) throw error;
          throw invalidInputError([{ field: 'video_url', message: error.message }]);
        }
      }
      return request;
    },
    async onAccepted(tx, request, job) {
      const video = request.source_video;
      if (!video) return;
      const remembered = await rememberClippedVideo(tx, {
        accountId: job.accountId,
        videoId: video.vidsite_video_id,
        jobId: job.id,
        channelUrl: request.channel_url ?? null,
        title: video.title,
      });
      // A video named by the caller is clipped again on purpose; a channel pick must be one nobody holds.
      if (!remembered && request.channel_url) throw takenMeanwhile(video.vidsite_video_id);
    },
    price: clipPrice,
    estimate: clipEstimate,
    receiptExtras: (request) => ({
      requested_clip_count: request.clip_count,
      ...(request.source_video ? { source_video: request.source_video } : {}),
    }),
    run: (ctx) => runClipJob(ctx, deps),
  };
}

/**
 * The same mode behind the earlier-format POST /api/clip-video (spec 2 §4.9): its own body, no dry runs,
 * webhooks or private delivery, and an Idempotency-Key that is accepted but not required. Jobs it accepts are
 * 'clip' jobs, run by the registered clip mode.
 */
export function legacyClipMode(mode: ModeDefinition<ClipRequest>): ModeDefinition<ClipRequest> {
  return {
    ...mode,
    endpoint: 'api/clip-video',
    schema: legacyClipRequestSchema,
    aliases: {},
    idempotencyKey: 'recommended',
    dryRun: false,
    webhooks: false,
    privateDelivery: false,
  };
}
