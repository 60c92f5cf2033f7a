import type { FastifyInstance } from 'fastify';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

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

const RETIRED_DOCS: RouteDocs = {
  summary: 'Retired mode',
  description: 'This mode was retired (spec 1 §4.8): it answers 410 MODE_NOT_AVAILABLE whatever it is sent.',
  tags: ['Generate'],
  retired: true,
};

export function registerOperationalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const metricsDocs: RouteDocs = {
    summary: 'Prometheus metrics',
    description: 'Request, job, queue and render metrics in the Prometheus text format, for the operator.',
    tags: ['Operations'],
    produces: [ctx.metrics.registry.contentType],
  };
  app.get('/metrics', { config: { auth: false, docs: metricsDocs } }, async (_request, reply) => {
    return reply
      .header('content-type', ctx.metrics.registry.contentType)
      .send(await ctx.metrics.registry.metrics());
  });
  for (const route of RETIRED_ROUTES) {
    app.post(`/api/v1/${route}`, { config: { auth: false, docs: RETIRED_DOCS } }, async () => {
      throw errors.modeNotAvailable(`/api/v1/${route}`);
    });
  }
}
