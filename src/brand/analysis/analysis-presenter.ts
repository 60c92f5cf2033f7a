// GET /brand/{brand_id} (spec 2 §2.3, §3, §4.2): an analysis as the caller sees it.
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import type { BrandProfile } from '../profile/brand-profile.ts';
import type { AnalysisRecord } from './analysis-repo.ts';
import { overriddenPaths, withOverrides, type ProfileOverrides } from './profile-overrides.ts';

/** Spec 2 §3: analyzing until the job ends, ready when it completed; `failed` adds what the spec leaves out. */
export type AnalysisStatus = 'analyzing' | 'ready' | 'failed';

export function analysisStatus(jobStatus: string): AnalysisStatus {
  if (jobStatus === 'completed') return 'ready';
  if (jobStatus === 'failed' || jobStatus === 'dead_lettered' || jobStatus === 'cancelled') return 'failed';
  return 'analyzing';
}

/**
 * The profile a caller sees: the analysed one, its logo_url the stored normalized copy (a signed link, fresh
 * on every read), and the caller's overrides laid over it.
 */
export function effectiveProfile(
  analysed: BrandProfile,
  overrides: ProfileOverrides,
  logoKey: string | null,
  store: MediaStore,
  now = new Date(),
): BrandProfile {
  const logoUrl = logoKey ? store.sign(logoKey, LINK_TTL_SECONDS, now).url : null;
  return withOverrides({ ...analysed, logo_url: logoUrl }, overrides);
}

export function presentAnalysis(
  record: AnalysisRecord,
  store: MediaStore,
  now = new Date(),
): Record<string, unknown> {
  const status = analysisStatus(record.jobStatus);
  const profile =
    status === 'ready' && record.profile
      ? effectiveProfile(record.profile, record.overrides, record.logoKey, store, now)
      : null;
  return {
    brand_id: record.id,
    status,
    url: record.url,
    job_id: record.jobId,
    previous_brand_id: record.previousBrandId,
    profile,
    overrides: overriddenPaths(record.overrides),
    analyzed_at: status === 'ready' ? (record.analyzedAt?.toISOString() ?? null) : null,
    crawled_at: status === 'ready' ? (record.crawledAt?.toISOString() ?? null) : null,
    from_stored_crawl: status === 'ready' ? record.warm : null,
    logo:
      status === 'ready' && record.logo
        ? {
            source: record.logo.source,
            source_url: record.logo.source_url,
            ...record.logo.measurements,
            colors: record.logo.colors,
          }
        : null,
    logo_candidates: status === 'ready' ? record.logoAttempts : [],
    error: status === 'failed' ? (record.jobError ?? null) : null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
