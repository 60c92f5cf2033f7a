import type { FastifyInstance } from 'fastify';
import { BREAKING_PATH, RADAR_PATH } from '../../signals/radar/priced-reads.ts';
import {
  breakingSchema,
  parseBreakingQuery,
  parseRadarQuery,
  radarSchema,
} from '../../signals/radar/radar-query.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

// GET /trends/radar and GET /trends/breaking (spec 2 §4.1): paid reads; prices and the cache in docs/signals.md.

const DOCS = {
  radar: {
    summary: 'Trend radar',
    description:
      'Trending stories clustered from feeds, Google Trends, Hacker News, GDELT, Wikipedia (Reddit and YouTube with keys), scored on five signals; cached 10 minutes (cheaper from the cache). Paid read.',
    tags: ['Signals'],
    query: radarSchema,
    paid: true,
    idempotency: 'recommended',
    errors: ['SIGNALS_UNAVAILABLE'],
  },
  breaking: {
    summary: 'Breaking news',
    description: 'The radar narrowed to breaking stories (default window 18 hours). Paid read.',
    tags: ['Signals'],
    query: breakingSchema,
    paid: true,
    idempotency: 'recommended',
    errors: ['SIGNALS_UNAVAILABLE'],
  },
} satisfies Record<string, RouteDocs>;

export function registerTrendRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(RADAR_PATH, { config: { docs: DOCS.radar } }, async (request, reply) => {
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

  app.get(BREAKING_PATH, { config: { docs: DOCS.breaking } }, async (request, reply) => {
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
