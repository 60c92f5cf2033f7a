// POST /news-broadcast/recommend and GET /brand/{brand_id}/recommendations (spec 2 §4.1, §4.2;
// docs/signals.md, "Recommendations"): a brand's profile matched against the live trends of its country and
// industry, charged as paid signals reads (paid-read.ts).
import type { Db } from '../../platform/db/database.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Answer, Caller } from '../../platform/generation/submit.ts';
import type { PaidReads } from '../paid-read.ts';
import type { BrandLookup } from './brand-lookup.ts';
import { brandQuery } from './brand-query.ts';
import { readBrandTrends, type BrandTrends, type TrendReader } from './brand-trends.ts';
import { trendCategoryOf } from './industry-categories.ts';
import { recommendTrends } from './recommend-trends.ts';
import { recommendationErrors } from './recommendation-errors.ts';
import { PLATFORM_COLUMNS } from './recommendation-platforms.ts';
import { parsePlanQuery, parseRecommendRequest } from './recommendation-requests.ts';
import { readTopicUsage, recordTopicUsage } from './topic-usage-repo.ts';
import { TrendCorpus } from './trend-match.ts';
import { buildPlan } from './weekly-plan.ts';

export interface RecommendationServiceDeps {
  db: Db;
  paidReads: PaidReads;
  radar: TrendReader;
  brands: BrandLookup;
  /** The clock the plan's first day is taken from (UTC). */
  now?: () => Date;
}

export interface RecommendInput {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  body: unknown;
}

export interface PlanInput {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  brandId: string;
  query: unknown;
}

const isUnavailable = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'SIGNALS_UNAVAILABLE';

export class RecommendationService {
  constructor(private readonly deps: RecommendationServiceDeps) {}

  async recommend(input: RecommendInput): Promise<Answer> {
    const { caller } = input;
    const request = parseRecommendRequest(input.body);
    const { paidReads, radar, brands } = this.deps;
    return paidReads.serve(
      {
        caller,
        requestId: input.requestId,
        idempotencyKey: input.idempotencyKey,
        keyRule: 'required',
        endpoint: 'news-broadcast/recommend',
        request,
      },
      async () => {
        const profile = await brands.profile(caller, request.brand_id);
        const query = brandQuery(profile);
        if (query.size === 0)
          throw recommendationErrors.profileIncomplete(
            profile.brandId,
            'no industry, audience or topic_pool',
          );
        await paidReads.ensureAffordable(caller, 'news_broadcast_recommend');
        const category = trendCategoryOf(profile.industry?.id);
        const read = await readBrandTrends(radar, request.geo, category);
        const recommendations = recommendTrends(new TrendCorpus(read.trends).matchBrand(query), {
          count: request.count,
          column: PLATFORM_COLUMNS[request.platform],
          bannedTopics: profile.bannedTopics,
        });
        const warnings = [...read.warnings];
        if (recommendations.length < request.count)
          warnings.push(
            recommendations.length === 0
              ? `None of the ${read.trends.length} live trends matches the brand; nothing was charged.`
              : `Only ${recommendations.length} of the ${read.trends.length} live trends match the brand.`,
          );
        return {
          data: {
            brand_id: profile.brandId,
            brand_source: profile.source,
            platform: request.platform,
            geo: request.geo,
            category: category ?? null,
            recommendations,
          },
          operation: 'news_broadcast_recommend',
          tool: 'news_broadcast_recommend',
          tier: 'live_trends',
          free: recommendations.length === 0,
          meta: { trend_sets: read.sets, trends_considered: read.trends.length },
          warnings,
        };
      },
    );
  }

  async plan(input: PlanInput): Promise<Answer> {
    const { caller, brandId } = input;
    const query = parsePlanQuery(input.query);
    const { db, paidReads, radar, brands } = this.deps;
    return paidReads.serve(
      {
        caller,
        requestId: input.requestId,
        idempotencyKey: input.idempotencyKey,
        keyRule: 'recommended',
        endpoint: 'brand/recommendations',
        request: { brand_id: brandId, ...query },
      },
      async () => {
        const profile = await brands.profile(caller, brandId);
        if (profile.topicPool.length === 0)
          throw recommendationErrors.profileIncomplete(
            brandId,
            'no topic_pool and no industry whose topics could stand in',
          );
        await paidReads.ensureAffordable(caller, 'brand_recommendations');
        const category = trendCategoryOf(profile.industry?.id);
        const warnings: string[] = [];
        let read: BrandTrends | undefined;
        try {
          read = await readBrandTrends(radar, query.geo, category);
          warnings.push(...read.warnings);
        } catch (error) {
          if (!isUnavailable(error)) throw error;
          warnings.push(
            `No trend source answered for ${query.geo}; this plan comes from the brand's topic pool alone.`,
          );
        }
        if (profile.poolSource === 'industry')
          warnings.push("The kit has no topic_pool of its own; its industry's common topics stand in.");
        const usage = await readTopicUsage(db, caller.accountId, brandId);
        const plan = buildPlan({
          profile,
          query: brandQuery(profile),
          corpus: read && new TrendCorpus(read.trends),
          usage,
          startDate: (this.deps.now?.() ?? new Date()).toISOString().slice(0, 10),
          category,
        });
        return {
          data: {
            brand_id: brandId,
            brand_source: profile.source,
            geo: query.geo,
            category: category ?? null,
            recommendations: plan.days,
          },
          operation: 'brand_recommendations',
          tool: 'brand_recommendations',
          tier: read ? 'live_trends' : 'pool_only',
          meta: read ? { trend_sets: read.sets, trends_considered: read.trends.length } : { trend_sets: [] },
          warnings,
          commit: (tx) => recordTopicUsage(tx, caller.accountId, brandId, plan.poolTopics),
        };
      },
    );
  }
}
