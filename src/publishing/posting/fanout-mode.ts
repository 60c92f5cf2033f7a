// Fan-out publish jobs (spec 2 §3, §4.7; spec 1 §4.9; docs/publishing.md): POST /jobs with `platforms`
// renders a video with one of the video modes, then posts it to each platform. One job, one charge: the
// video's own price plus the price of a post per platform; refunded in full when the video fails or the
// job is cancelled before it starts (DELETE /jobs/{id}), kept once the video exists. `schedule_at` holds the
// job in the queue until then (it survives restarts and runs once, like any queued job).
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import { errors, JobFailure } from '../../platform/errors.ts';
import { parseGenerateRequest } from '../../platform/generation/parse-request.ts';
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import type { ModeDefinition, OutputFile, Price } from '../../platform/modes/mode.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { findCachedTrend } from '../../signals/stories/cached-trends-repo.ts';
import type { Publishing } from '../publishing.ts';
import { insertPlatformPosts } from './platform-posts-repo.ts';
import { postToPlatforms } from './post-runner.ts';
import {
  type PostCopy,
  type PostTarget,
  publishFields,
  requirePublishing,
  resolveTargets,
} from './post-targets.ts';
import { describePublishJob, finishedStatus, PUBLISH_EVENTS } from './publish-record.ts';

/** The modes whose job makes one video to post. */
export const FANOUT_OPERATIONS = [
  'stock',
  'magic',
  'motivational',
  'news',
  'article',
  'text_to_video',
  'image_to_video',
  'ai_influencer',
] as const;

/** Spec 2 §4.7 `video_style` → the mode that renders it (document 1's modes; ugc_ad was retired). */
const VIDEO_STYLES: Record<string, (typeof FANOUT_OPERATIONS)[number]> = {
  magic: 'magic',
  motivational: 'motivational',
  news_broadcast: 'news',
  talking_head: 'ai_influencer',
  stock: 'stock',
};

/** Spec 2 §8: a fan-out job may be scheduled at most 30 days ahead. */
export const MAX_SCHEDULE_DAYS = 30;
/** Seconds to allow per platform on top of the video's own lifetime. */
const POSTING_SECONDS_PER_PLATFORM = 600;
const SECONDS_PER_PLATFORM = 40;
/** The share of the progress bar the video takes; posting takes the rest. */
const RENDER_SHARE = 0.8;

const fanoutSchema = z.looseObject({
  operation: z.enum(FANOUT_OPERATIONS).optional(),
  video_style: z.string().optional(),
  trend_id: z.string().trim().min(1).max(200).optional(),
  platforms: publishFields.platforms,
  post: z
    .object({
      caption: publishFields.caption,
      title: publishFields.title,
      hashtags: publishFields.hashtags,
      platform_options: publishFields.platform_options,
    })
    .strict()
    .optional(),
  schedule_at: z.iso.datetime({ offset: true }).optional(),
});

/** A fan-out job as stored: the inner video request, the resolved platforms and when to start. */
export interface FanoutRequest {
  operation: (typeof FANOUT_OPERATIONS)[number];
  request: unknown;
  platforms: string[];
  targets: PostTarget[];
  copy: PostCopy;
  schedule_at?: string;
}

type ParsedFanout = z.infer<typeof fanoutSchema>;

export interface FanoutDeps {
  /** The video modes, by name (the registry's, so a fan-out renders exactly as the mode's own route would). */
  modes: ReadonlyMap<string, ModeDefinition>;
  publishing: Publishing;
  config: Config;
}

function innerMode(deps: FanoutDeps, operation: string): ModeDefinition {
  const mode = deps.modes.get(operation);
  if (!mode)
    throw errors.inputInvalid(`operation ${operation} is not served by this build.`, [
      { field: 'operation', message: 'is not served by this build' },
    ]);
  return mode;
}

/** Which mode renders the video: `operation`, else the earlier `video_style`, else stock (document 1's POST /jobs default). */
function operationOf(body: ParsedFanout): (typeof FANOUT_OPERATIONS)[number] {
  if (body.operation) return body.operation;
  if (body.video_style === undefined) return 'stock';
  const mapped = VIDEO_STYLES[body.video_style];
  if (mapped) return mapped;
  const valid = Object.keys(VIDEO_STYLES);
  throw errors.inputInvalid(
    body.video_style === 'ugc_ad'
      ? 'video_style ugc_ad was retired; choose another style, or render the video and POST /post it.'
      : `video_style must be one of: ${valid.join(', ')}.`,
    [{ field: 'video_style', message: `must be one of: ${valid.join(', ')}`, valid_values: valid }],
  );
}

function checkScheduleAt(value: string | undefined, now: Date): void {
  if (value === undefined) return;
  const at = new Date(value).getTime();
  const latest = now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000;
  if (at <= now.getTime())
    throw errors.inputInvalid('schedule_at is in the past.', [
      { field: 'schedule_at', message: 'must be in the future' },
    ]);
  if (at > latest)
    throw errors.inputInvalid(`schedule_at is more than ${MAX_SCHEDULE_DAYS} days ahead.`, [
      { field: 'schedule_at', message: `must be at most ${MAX_SCHEDULE_DAYS} days ahead` },
    ]);
}

function stored(request: unknown): FanoutRequest {
  const r = request as Partial<FanoutRequest>;
  if (!r.targets || r.request === undefined)
    throw new Error('a fan-out job is priced and run only once validated');
  return r as FanoutRequest;
}

export function fanoutMode(deps: FanoutDeps): ModeDefinition<ParsedFanout | FanoutRequest> {
  const inner = (request: unknown) => innerMode(deps, stored(request).operation);
  return {
    name: 'fanout',
    endpoint: 'jobs',
    ownRoute: true,
    title: 'Fan-out publish job',
    description:
      'Renders a video with one of the video modes (a generation body), then posts it to one to five connected platforms; per-platform states and one job.completed event.',
    schema: fanoutSchema,
    receiptStatus: 201,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: false,
    identicalRequestProtection: true,
    async validate(request, services) {
      const body = request as ParsedFanout;
      requirePublishing(deps.publishing);
      checkScheduleAt(body.schedule_at, new Date());
      const operation = operationOf(body);
      const mode = innerMode(deps, operation);
      const { trend_id: trendId, platforms, post, schedule_at: scheduleAt, ...rest } = body;
      // What is left is the video's own generation body.
      const generation: Record<string, unknown> = { ...rest };
      delete generation.operation;
      delete generation.video_style;
      if (trendId !== undefined) {
        if (generation.topic !== undefined || generation.script !== undefined)
          throw errors.inputInvalid('Send one of topic, trend_id and script.', [
            { field: 'trend_id', message: 'cannot be sent with topic or script' },
          ]);
        const trend = await findCachedTrend(services.db, trendId);
        if (!trend)
          throw errors.inputInvalid(`Trend ${trendId} is not among the trends served lately.`, [
            {
              field: 'trend_id',
              message: 'no trend with this id; read GET /api/v1/trends/radar for current ids',
            },
          ]);
        generation.topic = trend.topic;
      }
      const parsed = parseGenerateRequest(mode, generation, services.urlGuard);
      const refined = (await mode.validate?.(parsed.request, services)) ?? parsed.request;
      if (mode.variants?.(refined))
        throw errors.inputInvalid('A fan-out job posts one video: variations cannot be fanned out.', [
          { field: 'variations', message: 'is not allowed on a fan-out job' },
        ]);
      const targets = await resolveTargets(
        deps.publishing,
        services.accountId,
        platforms,
        post?.platform_options,
      );
      const copy: PostCopy = {
        ...(post?.caption ? { caption: post.caption } : {}),
        ...(post?.title ? { title: post.title } : {}),
        ...(post?.hashtags ? { hashtags: post.hashtags } : {}),
      };
      const out: FanoutRequest = {
        operation,
        request: refined,
        platforms,
        targets,
        copy,
        ...(scheduleAt ? { schedule_at: new Date(scheduleAt).toISOString() } : {}),
      };
      return out;
    },
    async onAccepted(tx, request, job) {
      const r = stored(request);
      await insertPlatformPosts(
        tx,
        job.id,
        r.targets.map((t) => ({ platform: t.platform, connectionId: t.connection_id })),
      );
      await inner(request).onAccepted?.(tx, r.request, job);
    },
    cancelOnlyBeforeStart: true,
    startAt: (request) => {
      const at = (request as Partial<FanoutRequest>).schedule_at;
      return at ? new Date(at) : undefined;
    },
    lifetimeSeconds(request) {
      const r = stored(request);
      const own = inner(request).lifetimeSeconds?.(r.request) ?? deps.config.jobs.maxLifetimeSeconds;
      return own + POSTING_SECONDS_PER_PLATFORM * r.targets.length;
    },
    price(request): Price {
      const r = stored(request);
      const video = inner(request).price(r.request);
      const postCents = unitPrice('post') * r.targets.length;
      return {
        ...video,
        usdCents: video.usdCents + postCents,
        breakdown: [
          ...video.breakdown,
          { item: 'post', usd_cents: postCents, quantity: r.targets.length, unit: 'platform' },
        ],
        tool: 'jobs',
      };
    },
    estimate(request) {
      const r = stored(request);
      const video = inner(request).estimate(r.request);
      const posting = SECONDS_PER_PLATFORM * r.targets.length;
      return {
        ...video,
        renderSeconds: {
          min: video.renderSeconds.min + Math.ceil(posting / 4),
          typical: video.renderSeconds.typical + posting,
          max: video.renderSeconds.max + posting * 4,
        },
      };
    },
    receiptExtras(request) {
      const r = stored(request);
      const estimate = this.estimate(request);
      return {
        kind: 'publish',
        operation: r.operation,
        estimated_completion_sec: estimate.renderSeconds.typical,
        platforms: r.targets.map((t) => ({ platform: t.platform, status: 'queued' })),
        ...(r.schedule_at ? { schedule_at: r.schedule_at } : {}),
      };
    },
    answerHeaders: (request) => inner(request).answerHeaders?.(stored(request).request) ?? {},
    webhookEvents: PUBLISH_EVENTS,
    describeJob: (job, db) => describePublishJob(job, db, true),
    async run(ctx) {
      const r = stored(ctx.request);
      const mode = inner(ctx.request);
      const output = await mode.run({
        ...ctx,
        request: r.request,
        progress: (stage, percent, message) => ctx.progress(stage, percent * RENDER_SHARE, message),
      });
      ctx.signal.throwIfAborted();
      const index = output.files.findIndex((f) => f.role === 'video');
      if (index < 0)
        throw new JobFailure({
          code: 'RENDER_FAILED',
          category: 'render',
          message: `The ${mode.title} job made no video to post.`,
          retryable: false,
        });
      // Stored now under the key the worker will store it at, so a platform that fetches the video
      // (Instagram) can be given a signed link before the job completes.
      const video: OutputFile = { ...output.files[index]!, name: output.files[index]!.name ?? 'video.mp4' };
      const key = `jobs/${ctx.job.id}/${video.name}`;
      const { store } = ctx.services;
      await store.put(key, video.path);
      const artifacts = output.artifacts as {
        durationSec?: number;
        title?: string;
        description?: string;
        hashtags?: string[];
      };
      const platforms = await postToPlatforms(
        ctx,
        deps.publishing,
        {
          filePath: video.path,
          durationSec: artifacts.durationSec ?? 0,
          signedUrl: store.sign(key, LINK_TTL_SECONDS).url,
        },
        r.targets,
        r.copy,
        artifacts,
        { from: 100 * RENDER_SHARE, to: 96 },
      );
      const files = output.files.map((f, i) => (i === index ? video : f));
      return {
        ...output,
        files,
        artifacts: { ...output.artifacts, publish: { status: finishedStatus(platforms), platforms } },
      };
    },
  };
}
