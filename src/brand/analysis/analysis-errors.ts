// Errors of the brand analysis routes (spec 2 §7). Only the caller's to fix.
import { ApiError } from '../../platform/errors.ts';

export const analysisErrors = {
  /** Unknown ids and other accounts' analyses look the same: an id never tells whether it exists elsewhere. */
  brandNotFound: (brandId: string) =>
    new ApiError(
      404,
      'BRAND_NOT_FOUND',
      `Brand ${brandId} was not found. Use the brand_id that POST /api/v1/brand/analyze answered.`,
    ),
};
