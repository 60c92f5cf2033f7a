import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { setJobListing } from '../../platform/accounts/account-records.ts';
import { successBody } from '../../platform/envelope.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { JOBS_DEFAULT_OPERATION, modeForJobsBody } from '../../platform/generation/jobs-body.ts';
import { presentJob } from '../../platform/jobs/job-presenter.ts';
import { CANCELLABLE_STATUSES, DELETABLE_STATUSES, type JobStatus } from '../../platform/jobs/job-status.ts';
import { JobCache } from '../../platform/jobs/job-cache.ts';
import { findAccountJob, listJobEvents } from '../../platform/jobs/jobs-repo.ts';
import { listJobDeliveries } from '../../platform/webhooks/webhook-deliveries-repo.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { cancelledJobSchema, jobAnswerSchema } from '../openapi/response-schemas.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, repeatTokenOf, sendAnswer } from './send-answer.ts';

const jobPatchSchema = z
  .object({ listing: z.enum(['private', 'public']).optional().describe('spec 1 §4.2 `listing`.') })
  .strict();

const listingNotAllowed = () =>
  new ApiError(409, 'LISTING_NOT_ALLOWED', "A sandbox job's placeholder video cannot be listed publicly.");

const DOCS = {
  get: {
    summary: 'Read a job',
    description: 'Status, progress, artifacts (fresh signed links on every read) and error of a job.',
    tags: ['Jobs'],
    response: jobAnswerSchema,
    errors: ['JOB_NOT_FOUND'],
  },
  cancel: {
    summary: 'Cancel a job',
    description: 'Cancels a job until it starts uploading; the charge is refunded in full.',
    tags: ['Jobs'],
    response: cancelledJobSchema,
    errors: ['JOB_NOT_FOUND', 'JOBS_CANCEL_NOT_ALLOWED'],
  },
  remove: {
    summary: 'Cancel a job before it starts',
    description:
      'Cancels a job that has not started rendering (e.g. a scheduled fan-out job), refunded in full.',
    tags: ['Jobs'],
    response: cancelledJobSchema,
    errors: ['JOB_NOT_FOUND', 'JOBS_CANCEL_NOT_ALLOWED'],
  },
  update: {
    summary: 'Change a job',
    description:
      "Switches the video's `listing`: public gives a finished video a public page and a place on the discovery page, sitemap and feed (docs/studio.md); private takes it off all of them at once.",
    tags: ['Jobs'],
    body: jobPatchSchema,
    response: jobAnswerSchema,
    errors: ['JOB_NOT_FOUND', { status: 409, code: 'LISTING_NOT_ALLOWED' }],
  },
} satisfies Record<string, RouteDocs>;

interface JobParams {
  jobId: string;
}

export function registerJobRoutes(app: FastifyInstance, ctx: AppContext): void {
  const cache = new JobCache(ctx.pool, ctx.notifications);

  /** POST /jobs/{id}/cancel and DELETE /jobs/{id} answer alike; they differ in the statuses they stop. */
  async function cancelAnswer(
    request: FastifyRequest<{ Params: JobParams }>,
    statuses: readonly JobStatus[],
  ) {
    const { accountId } = callerOf(request);
    const found = await findAccountJob(ctx.db, accountId, request.params.jobId);
    const allowed =
      found && ctx.registry.get(found.mode)?.cancelOnlyBeforeStart ? DELETABLE_STATUSES : statuses;
    const job = await ctx.lifecycle.cancel(accountId, request.params.jobId, allowed);
    const events = await listJobEvents(ctx.db, job.id);
    return successBody(
      { job: presentJob(job, events, ctx.store), refunded: !job.sandbox && job.price_cents > 0 },
      { request_id: request.id },
    );
  }

  app.get<{ Params: JobParams }>(
    '/api/v1/jobs/:jobId',
    { config: { rateLimit: 'job_reads', docs: DOCS.get } },
    async (request) => {
      const { accountId } = callerOf(request);
      const found = await cache.find(accountId, request.params.jobId);
      if (!found) throw errors.jobNotFound(request.params.jobId);
      const webhookDeliveries = found.job.webhook_url
        ? await listJobDeliveries(ctx.db, accountId, found.job.id)
        : undefined;
      const job = presentJob(found.job, found.events, ctx.store, new Date(), webhookDeliveries);
      const described = await ctx.registry.get(found.job.mode)?.describeJob?.(found.job, ctx.db);
      return successBody({ job: { ...job, ...described } }, { request_id: request.id });
    },
  );

  app.post<{ Params: JobParams }>(
    '/api/v1/jobs/:jobId/cancel',
    { config: { docs: DOCS.cancel } },
    async (request) => cancelAnswer(request, CANCELLABLE_STATUSES),
  );

  app.delete<{ Params: JobParams }>(
    '/api/v1/jobs/:jobId',
    { config: { docs: DOCS.remove } },
    async (request) => cancelAnswer(request, DELETABLE_STATUSES),
  );

  app.patch<{ Params: JobParams }>(
    '/api/v1/jobs/:jobId',
    { config: { docs: DOCS.update } },
    async (request) => {
      const { accountId } = callerOf(request);
      const patch = jobPatchSchema.safeParse(request.body ?? {});
      if (!patch.success) throw invalidInputError(fieldIssues(patch.error));
      const found = await findAccountJob(ctx.db, accountId, request.params.jobId);
      if (!found) throw errors.jobNotFound(request.params.jobId);
      // A sandbox job's video is the shared placeholder, not the caller's work: it is never public.
      if (found.sandbox && patch.data.listing === 'public') throw listingNotAllowed();
      const { listing } = patch.data;
      const job = (listing && (await setJobListing(ctx.db, accountId, found.id, listing))) || found;
      const events = await listJobEvents(ctx.db, found.id);
      return successBody({ job: presentJob(job, events, ctx.store) }, { request_id: request.id });
    },
  );

  // POST /jobs: a generation body for any registered mode, chosen by "operation" (default: stock video);
  // with "platforms", a fan-out publish job that renders that video and then posts it (docs/publishing.md).
  const createDocs: RouteDocs = {
    summary: 'Create a job',
    description:
      'A Generate body of any served mode, chosen by `operation` (default stock); with `platforms`, a fan-out job that renders the video and then posts it.',
    tags: ['Jobs'],
    successStatus: 201,
    generation: {
      modes: ctx.registry.all(),
      selector: { field: 'operation', default: JOBS_DEFAULT_OPERATION },
    },
  };
  app.post('/api/v1/jobs', { config: { docs: createDocs } }, async (request, reply) => {
    const { mode, body } = modeForJobsBody(ctx.registry, request.body);
    const answer = await ctx.generation.submit({
      caller: callerOf(request),
      mode,
      body,
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      repeatToken: repeatTokenOf(request),
      endpoint: 'jobs',
      receiptStatus: 201,
    });
    return sendAnswer(request, reply, answer);
  });
}
