// POST /post (spec 1 §4.11; docs/publishing.md): a finished video of the account posted to one to five
// connected platforms, as a publish job. $0.05 per request, idempotency by key alone: the key dedupes (its
// repeat is the first answer; reused with another body, 409) and no identical-body window applies. Everything
// is checked before the charge: the video is the account's and finished, every platform is connected, every
// platform option is valid.
import { z } from 'zod';
import { JobFailure } from '../../platform/errors.ts';
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import type { ModeDefinition, Price } from '../../platform/modes/mode.ts';
import { PRICE_TABLE, unitPrice } from '../../platform/pricing/price-table.ts';
import type { Publishing } from '../publishing.ts';
import { insertPlatformPosts } from './platform-posts-repo.ts';
import { postToPlatforms } from './post-runner.ts';
import { findPostSource, type PostSource } from './post-source.ts';
import { type PostTarget, publishFields, requirePublishing, resolveTargets } from './post-targets.ts';
import { describePublishJob, finishedStatus, PUBLISH_EVENTS } from './publish-record.ts';

/** Seconds to post one platform: upload and the platform's processing (a typical short on a fast link). */
const SECONDS_PER_PLATFORM = 40;

const postSchema = z
  .object({
    video_id: z.string().trim().min(1).max(100).optional(),
    job_id: z.string().trim().min(1).max(100).optional(),
    ...publishFields,
  })
  .strict()
  .refine((b) => (b.video_id === undefined) !== (b.job_id === undefined), {
    message: 'send the video to post as video_id or job_id (one of them)',
    path: ['video_id'],
  });

export type PostRequest = z.infer<typeof postSchema> & {
  /** Filled in by validation. */
  source?: PostSource;
  targets?: PostTarget[];
};

function resolved(request: PostRequest): { source: PostSource; targets: PostTarget[] } {
  if (!request.source || !request.targets) throw new Error('a post is priced and run only once validated');
  return { source: request.source, targets: request.targets };
}

export function postPrice(): Price {
  const cents = unitPrice('post');
  return {
    usdCents: cents,
    breakdown: [{ item: 'post', usd_cents: cents, quantity: 1, unit: PRICE_TABLE.post.unit }],
    tool: 'post',
    model: 'platform-apis',
    tier: 'standard',
    engine: PRICE_TABLE.post.engine,
  };
}

export function postMode(publishing: Publishing): ModeDefinition<PostRequest> {
  return {
    name: 'post',
    endpoint: 'post',
    title: 'Post a video',
    description:
      'Posts a finished video of this account to one to five connected platforms (TikTok, Instagram Reels, YouTube Shorts, Facebook Reels, X) as a publish job with per-platform states.',
    schema: postSchema,
    receiptStatus: 200,
    idempotencyKey: 'required',
    heavy: false,
    dryRun: false,
    webhooks: true,
    privateDelivery: false,
    identicalRequestProtection: false,
    async validate(request, services) {
      requirePublishing(publishing);
      const source = await findPostSource(services.db, services.accountId, request);
      const targets = await resolveTargets(
        publishing,
        services.accountId,
        request.platforms,
        request.platform_options,
      );
      return { ...request, source, targets };
    },
    async onAccepted(tx, request, job) {
      await insertPlatformPosts(
        tx,
        job.id,
        resolved(request).targets.map((t) => ({ platform: t.platform, connectionId: t.connection_id })),
      );
    },
    price: postPrice,
    estimate(request) {
      const seconds = SECONDS_PER_PLATFORM * request.platforms.length;
      return { renderSeconds: { min: Math.ceil(seconds / 4), typical: seconds, max: seconds * 4 } };
    },
    receiptExtras(request) {
      return {
        kind: 'publish',
        platforms: request.platforms.map((platform) => ({ platform, status: 'queued' })),
        source_video_id: request.source?.video_id,
      };
    },
    cancelOnlyBeforeStart: true,
    webhookEvents: PUBLISH_EVENTS,
    describeJob: (job, db) => describePublishJob(job, db, false),
    async run(ctx) {
      const { source, targets } = resolved(ctx.request);
      const { store } = ctx.services;
      const filePath = await store.fetchToLocal(source.video_key, ctx.signal);
      if (!filePath)
        throw new JobFailure({
          code: 'VIDEO_NOT_FOUND',
          category: 'input',
          message: `The video ${source.video_id} is no longer stored; render it again.`,
          retryable: false,
        });
      const platforms = await postToPlatforms(
        ctx,
        publishing,
        {
          filePath,
          durationSec: source.duration_sec,
          signedUrl: store.sign(source.video_key, LINK_TTL_SECONDS).url,
        },
        targets,
        ctx.request,
        source,
        { from: 5, to: 95 },
      );
      return {
        artifacts: {
          publish: { status: finishedStatus(platforms), platforms },
          source_job_id: source.job_id,
          source_video_id: source.video_id,
          durationSec: source.duration_sec,
        },
        files: [],
      };
    },
  };
}
