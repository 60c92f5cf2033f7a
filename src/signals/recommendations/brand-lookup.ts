// Finds the brand a recommendation names: the account's brand analysis with that id (its profile with the
// caller's overrides), else the account's saved kit. Each keeps its owner's rules: an analysis must be ready;
// a sandbox key sees no saved kits (as on GET /b2b/brands). Unknown or foreign ids: 404 BRAND_NOT_FOUND.
import type { BrandAnalyses } from '../../brand/analysis/brand-analyses.ts';
import type { BrandKitService } from '../../brand/kits/brand-kit-service.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Caller } from '../../platform/generation/submit.ts';
import { recommendationErrors } from './recommendation-errors.ts';
import { profileOfAnalysis, profileOfKit, type SignalProfile } from './signal-profile.ts';

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.code === 'BRAND_NOT_FOUND';

export class BrandLookup {
  constructor(private readonly deps: { analyses: BrandAnalyses; kits: BrandKitService }) {}

  async profile(caller: Caller, brandId: string): Promise<SignalProfile> {
    const { analyses, kits } = this.deps;
    try {
      const profile = await analyses.profile(caller.accountId, brandId);
      if (profile) return profileOfAnalysis(brandId, profile);
      const { status } = (await analyses.get(caller.accountId, brandId)) as { status: string };
      throw status === 'failed'
        ? recommendationErrors.brandAnalysisFailed(brandId)
        : recommendationErrors.brandNotReady(brandId);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      return profileOfKit(await kits.read(caller, brandId));
    } catch (error) {
      if (isNotFound(error)) throw recommendationErrors.brandNotFound(brandId);
      throw error;
    }
  }
}
