import type { FastifyInstance } from 'fastify';
import { batchSchema, MAX_BATCH_JOBS } from '../../platform/generation/batch.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

const DOCS: RouteDocs = {
  summary: 'Submit a batch',
  description: `Up to ${MAX_BATCH_JOBS} Generate jobs in one call; each runs through its endpoint (same price, validation and refunds) and one refusal never touches the others. Each item's key is <batch key>:<index> unless it has its own. With dry_run, per-item results and the total price.`,
  tags: ['Generate'],
  body: batchSchema,
  idempotency: 'required',
};

export function registerBatchRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/v1/batch', { config: { docs: DOCS } }, async (request, reply) => {
    const answer = await ctx.batch.submit(
      callerOf(request),
      request.body,
      idempotencyKeyOf(request),
      request.id,
    );
    return sendAnswer(request, reply, answer);
  });
}
