import type { FastifyInstance } from 'fastify';
import { BrandAnalyses } from '../../brand/analysis/brand-analyses.ts';
import { BrandLookup } from '../../signals/recommendations/brand-lookup.ts';
import { PLAN_PATH, RECOMMEND_PATH } from '../../signals/recommendations/recommendation-reads.ts';
import {
  planQuerySchema,
  recommendRequestSchema,
} from '../../signals/recommendations/recommendation-requests.ts';
import { RecommendationService } from '../../signals/recommendations/recommendation-service.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, sendAnswer } from './send-answer.ts';

// POST /news-broadcast/recommend and GET /brand/{brand_id}/recommendations (spec 2 §4.1, §4.2): paid reads;
// scoring, prices and billing in docs/signals.md.

const BRAND_ERRORS = [
  'BRAND_NOT_FOUND',
  'BRAND_NOT_READY',
  'BRAND_ANALYSIS_FAILED',
  'BRAND_PROFILE_INCOMPLETE',
  'SIGNALS_UNAVAILABLE',
];

const DOCS = {
  recommend: {
    summary: 'Recommend stories for a brand',
    description: 'The live trends most relevant to a brand (analysis or kit), each with hooks. Paid read.',
    tags: ['Signals'],
    body: recommendRequestSchema,
    paid: true,
    idempotency: 'required',
    errors: BRAND_ERRORS,
  },
  plan: {
    summary: 'Weekly plan for a brand',
    description: "A 7-day plan rotating the brand's topics over the live trends. Paid read.",
    tags: ['Signals'],
    query: planQuerySchema,
    paid: true,
    idempotency: 'recommended',
    errors: BRAND_ERRORS,
  },
} satisfies Record<string, RouteDocs>;

export function registerRecommendationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const recommendations = new RecommendationService({
    db: ctx.db,
    paidReads: ctx.paidReads,
    radar: ctx.radar,
    brands: new BrandLookup({
      analyses: new BrandAnalyses({ db: ctx.db, store: ctx.store, urlGuard: ctx.urlGuard }),
      kits: ctx.brandKits,
    }),
  });

  app.post(RECOMMEND_PATH, { config: { docs: DOCS.recommend } }, async (request, reply) => {
    const answer = await recommendations.recommend({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });

  app.get<{ Params: { brandId: string } }>(
    PLAN_PATH,
    { config: { docs: DOCS.plan } },
    async (request, reply) => {
      const answer = await recommendations.plan({
        caller: callerOf(request),
        requestId: request.id,
        idempotencyKey: idempotencyKeyOf(request),
        brandId: request.params.brandId,
        query: request.query,
      });
      return sendAnswer(request, reply, answer);
    },
  );
}
