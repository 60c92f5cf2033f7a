// Reading and hand-editing an account's brand analyses (GET and PATCH /brand/{brand_id}). Signals read the
// profile of an analysis through `profile`.
import type { Db } from '../../platform/db/database.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import type { BrandProfile } from '../profile/brand-profile.ts';
import { analysisErrors } from './analysis-errors.ts';
import { analysisStatus, effectiveProfile, presentAnalysis } from './analysis-presenter.ts';
import { findAnalysis, updateOverrides } from './analysis-repo.ts';
import { applyPatch, profilePatchSchema } from './profile-overrides.ts';

export class BrandAnalyses {
  constructor(private readonly deps: { db: Db; store: MediaStore; urlGuard: UrlGuard }) {}

  /** The analysis as GET /brand/{brand_id} answers it; 404 BRAND_NOT_FOUND for unknown or foreign ids. */
  async get(accountId: string, brandId: string): Promise<Record<string, unknown>> {
    const record = await findAnalysis(this.deps.db, accountId, brandId);
    if (!record) throw analysisErrors.brandNotFound(brandId);
    return presentAnalysis(record, this.deps.store);
  }

  /** The profile of a ready analysis (overrides applied), or undefined while it is analysing or failed. */
  async profile(accountId: string, brandId: string): Promise<BrandProfile | undefined> {
    const record = await findAnalysis(this.deps.db, accountId, brandId);
    if (!record) throw analysisErrors.brandNotFound(brandId);
    if (analysisStatus(record.jobStatus) !== 'ready' || !record.profile) return undefined;
    return effectiveProfile(record.profile, record.overrides, record.logoKey, this.deps.store);
  }

  /** PATCH: validates the body with the profile's field rules, then sets or clears overrides. */
  async patch(accountId: string, brandId: string, body: unknown): Promise<Record<string, unknown>> {
    const parsed = this.deps.urlGuard.validating(() => profilePatchSchema.safeParse(body));
    if (!parsed.success) {
      // An unknown id is a 404 even when the body is wrong too.
      if (!(await findAnalysis(this.deps.db, accountId, brandId)))
        throw analysisErrors.brandNotFound(brandId);
      throw invalidInputError(fieldIssues(parsed.error));
    }
    const found = await updateOverrides(this.deps.db, accountId, brandId, (current) =>
      applyPatch(current, parsed.data),
    );
    if (!found) throw analysisErrors.brandNotFound(brandId);
    return this.get(accountId, brandId);
  }
}
