import type { FastifyInstance } from 'fastify';
import { BrandAnalyses } from '../../brand/analysis/brand-analyses.ts';
import { successBody } from '../../platform/envelope.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';

// GET and PATCH /brand/{brand_id} (spec 2 §4.2), both free. POST /brand/analyze is the brand_analysis mode.

interface BrandParams {
  brandId: string;
}

export function registerBrandRoutes(app: FastifyInstance, ctx: AppContext): void {
  const analyses = new BrandAnalyses({ db: ctx.db, store: ctx.store, urlGuard: ctx.urlGuard });

  app.get<{ Params: BrandParams }>(
    '/api/v1/brand/:brandId',
    { config: { rateLimit: 'job_reads' } },
    async (request) => {
      const brand = await analyses.get(callerOf(request).accountId, request.params.brandId);
      return successBody(brand, { request_id: request.id });
    },
  );

  app.patch<{ Params: BrandParams }>('/api/v1/brand/:brandId', async (request) => {
    const brand = await analyses.patch(callerOf(request).accountId, request.params.brandId, request.body);
    return successBody(brand, { request_id: request.id });
  });
}
