import type { FastifyInstance } from 'fastify';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';

/** Routes of modes that were retired (spec 1 §4.8): they answer 410 whatever the body. */
export const RETIRED_ROUTES = [
  'videos/ai-story',
  'videos/reddit-story',
  'videos/fake-chat',
  'videos/soothing',
  'videos/ugc',
  'videos/ai-ad',
  'videos/rss',
];

export function registerOperationalRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/metrics', { config: { auth: false } }, async (_request, reply) => {
    return reply
      .header('content-type', ctx.metrics.registry.contentType)
      .send(await ctx.metrics.registry.metrics());
  });
  for (const route of RETIRED_ROUTES) {
    app.post(`/api/v1/${route}`, { config: { auth: false } }, async () => {
      throw errors.modeNotAvailable(`/api/v1/${route}`);
    });
  }
}
