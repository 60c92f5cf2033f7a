import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { successBody } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

const check = z.looseObject({ ok: z.boolean(), error: z.string().optional() });

const READY_DOCS: RouteDocs = {
  summary: 'Readiness',
  description:
    'For load balancers and orchestrators: 200 while this process can serve (database reachable; the media store writes, reads back and deletes a probe object; ffmpeg runs; DATA_DIR has at least MIN_FREE_DISK_MB free), 503 SERVICE_NOT_READY naming the failing checks in `details.failing` otherwise, and from the moment the process receives SIGTERM (`shutting_down`). GET /api/v1/health stays the liveness check: it answers 200 while the process and its database answer.',
  tags: ['Operations'],
  response: z.object({
    status: z.literal('ready'),
    checks: z.object({ database: check, store: check, ffmpeg: check, disk: check }),
  }),
  errors: ['SERVICE_NOT_READY'],
};

export function registerReadinessRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/v1/ready', { config: { auth: false, docs: READY_DOCS } }, async (request) => {
    const report = await ctx.readiness.check();
    if (!report.ready) throw errors.notReady(report.failing, report.checks);
    return successBody({ status: 'ready', checks: report.checks }, { request_id: request.id });
  });
}
