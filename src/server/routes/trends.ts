import type { FastifyInstance } from 'fastify';
import { BREAKING_PATH, RADAR_PATH } from '../../signals/radar/priced-reads.ts';
import { parseBreakingQuery, parseRadarQuery } from '../../signals/radar/radar-query.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

// GET /trends/radar and GET /trends/breaking (spec 2 §4.1): paid reads; prices and the cache in docs/signals.md.

export function registerTrendRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(RADAR_PATH, async (request, reply) => {
    const query = parseRadarQuery(request.query);
    const answer = await ctx.radar.read('radar', {
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      query,
      warnings: [],
    });
    return sendAnswer(request, reply, answer);
  });

  app.get(BREAKING_PATH, async (request, reply) => {
    const { query, warnings } = parseBreakingQuery(request.query);
    const answer = await ctx.radar.read('breaking', {
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      query,
      warnings,
    });
    return sendAnswer(request, reply, answer);
  });
}
