import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

export function registerBatchRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/v1/batch', async (request, reply) => {
    const answer = await ctx.batch.submit(
      callerOf(request),
      request.body,
      idempotencyKeyOf(request),
      request.id,
    );
    return sendAnswer(request, reply, answer);
  });
}
