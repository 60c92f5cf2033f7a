// The errors of brand recommendations (spec 2 §4.1, §4.2, §7; docs/signals.md). All free: nothing is charged
// when they answer.
import { ApiError } from '../../platform/errors.ts';

export const recommendationErrors = {
  /** Neither an analysis nor a kit of this account has the id (another account's looks the same). */
  brandNotFound: (brandId: string) =>
    new ApiError(
      404,
      'BRAND_NOT_FOUND',
      `Brand ${brandId} was not found. Use a brand_id from POST /api/v1/brand/analyze or POST /api/v1/b2b/brands.`,
    ),
  brandNotReady: (brandId: string) =>
    new ApiError(
      409,
      'BRAND_NOT_READY',
      `Brand ${brandId} is still being analysed. Poll GET /api/v1/brand/${brandId} until its status is ready, then retry.`,
      { retryable: true, headers: { 'retry-after': '5' } },
    ),
  brandAnalysisFailed: (brandId: string) =>
    new ApiError(
      422,
      'BRAND_ANALYSIS_FAILED',
      `The analysis of brand ${brandId} failed, so it has no profile to recommend from. Analyse the site again with POST /api/v1/brand/analyze.`,
    ),
  /** A kit with nothing to match trends against or to plan from. */
  profileIncomplete: (brandId: string, missing: string) =>
    new ApiError(
      422,
      'BRAND_PROFILE_INCOMPLETE',
      `Brand kit ${brandId} has ${missing}. Add profile.topic_pool or a profile.industry with PATCH /api/v1/b2b/brands/${encodeURIComponent(brandId)}.`,
      { details: { fields: [{ field: 'profile.topic_pool', message: 'is needed for recommendations' }] } },
    ),
};
