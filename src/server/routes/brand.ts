import type { FastifyInstance } from 'fastify';
import { BrandAnalyses } from '../../brand/analysis/brand-analyses.ts';
import { profilePatchSchema } from '../../brand/analysis/profile-overrides.ts';
import { successBody } from '../../platform/envelope.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

// GET and PATCH /brand/{brand_id} (spec 2 §4.2), both free. POST /brand/analyze is the brand_analysis mode.

const DOCS = {
  get: {
    summary: 'Read a brand analysis',
    description:
      'The brand profile POST /brand/analyze read from a website (with your overrides), and its status.',
    tags: ['Brand'],
    errors: ['BRAND_NOT_FOUND'],
  },
  patch: {
    summary: 'Correct a brand profile',
    description: 'Overrides profile fields; null clears an override. Free.',
    tags: ['Brand'],
    body: profilePatchSchema,
    errors: ['BRAND_NOT_FOUND'],
  },
} satisfies Record<string, RouteDocs>;

interface BrandParams {
  brandId: string;
}

export function registerBrandRoutes(app: FastifyInstance, ctx: AppContext): void {
  const analyses = new BrandAnalyses({ db: ctx.db, store: ctx.store, urlGuard: ctx.urlGuard });

  app.get<{ Params: BrandParams }>(
    '/api/v1/brand/:brandId',
    { config: { rateLimit: 'job_reads', docs: DOCS.get } },
    async (request) => {
      const brand = await analyses.get(callerOf(request).accountId, request.params.brandId);
      return successBody(brand, { request_id: request.id });
    },
  );

  app.patch<{ Params: BrandParams }>(
    '/api/v1/brand/:brandId',
    { config: { docs: DOCS.patch } },
    async (request) => {
      const brand = await analyses.patch(callerOf(request).accountId, request.params.brandId, request.body);
      return successBody(brand, { request_id: request.id });
    },
  );
}
