import type { FastifyInstance } from 'fastify';
import { isPlainObject } from '../../platform/generation/parse-request.ts';
import { REVISE_MODE } from '../../modes/revise/revise-mode.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, repeatTokenOf, sendAnswer } from './send-answer.ts';

/**
 * POST /api/v1/jobs/{id}/revise (docs/revision.md): the revision mode with the job id of the path. Served when
 * the build registers the mode.
 */
export function registerReviseRoute(app: FastifyInstance, ctx: AppContext): void {
  const mode = ctx.registry.get(REVISE_MODE);
  if (!mode) return;
  const docs: RouteDocs = {
    summary: mode.title,
    description: `${mode.description} The job id of the path is the body's source_job_id. 404: not a job of this account; 409 JOB_NOT_REVISABLE: not completed, or kept no scene segments; 400: a field names an unknown scene or clip.`,
    tags: ['Jobs'],
    generation: { modes: [mode] },
    errors: ['JOB_NOT_FOUND', { status: 409, code: 'JOB_NOT_REVISABLE' }],
  };
  app.post<{ Params: { jobId: string } }>(
    '/api/v1/jobs/:jobId/revise',
    { config: { docs } },
    async (request, reply) => {
      const body = isPlainObject(request.body)
        ? { ...request.body, source_job_id: request.params.jobId }
        : request.body;
      const answer = await ctx.generation.submit({
        caller: callerOf(request),
        mode,
        body,
        requestId: request.id,
        idempotencyKey: idempotencyKeyOf(request),
        repeatToken: repeatTokenOf(request),
        endpoint: 'jobs/revise',
      });
      return sendAnswer(request, reply, answer);
    },
  );
}
