// The one "brand from a website" pipeline, used by brand analysis (POST /brand/analyze) and by kits built
// from a website: crawl → logo candidates → the first usable logo, normalized and stored → the profile, told
// the logo's colours. Bounded (the crawl and the logo search each by a time budget, the logo by a number of
// attempts, everything by an optional deadline) and cancellable by a signal.
//
// The crawler, the logo search and the profile extractor are imported on first use: with the HTML, CSS,
// colour, image and language libraries they pull in, importing this module took a process from 73 to 200 MB,
// which one that never reads a site (a render worker) should not hold.
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { CRAWL_TIMEOUT_MS } from '../crawl/crawl-limits.ts';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import type { NormalizedLogo } from '../logo/normalized-logo.ts';
import type { BrandProfile } from '../profile/brand-profile.ts';
import type { BrandTextRefiner } from '../profile/brand-text-refiner.ts';
import type { LogoCandidate } from '../profile/logo-candidates.ts';
import type { LogoAttempt } from './first-usable-logo.ts';

export interface SiteBrandDeps {
  guard: UrlGuard;
  store: MediaStore;
  /** Refines industry, audience, tone and topics with an LLM (LLM_BASE_URL); the local analyzer otherwise. */
  refiner?: BrandTextRefiner;
  signal?: AbortSignal;
  /**
   * When the whole brand must be ready (a job's deadline): the crawl and the logo search get what remains,
   * less what the later steps need, so a slow site costs pages or the logo rather than the whole result.
   * Without it the crawl has the crawler's own bound (about 40 s, the spec's figure).
   */
  deadline?: Date;
}

/** Kept after the crawl for the logo, the profile and storing the result. */
const AFTER_CRAWL_RESERVE_MS = 6_000;
/** Kept after the logo search for the profile and storing the result. */
const AFTER_LOGO_RESERVE_MS = 3_000;
const MIN_STEP_MS = 1_000;

/** The time a step may take: what is left before the deadline less `reserve`, within [MIN_STEP_MS, cap]. */
function stepBudget(deadline: Date | undefined, reserveMs: number, capMs: number): number {
  if (!deadline) return capMs;
  const left = deadline.getTime() - Date.now() - reserveMs;
  return Math.min(capMs, Math.max(MIN_STEP_MS, left));
}

export interface SiteBrand {
  crawl: SiteCrawl;
  /** Its logo_url is a signed link to the stored normalized logo (null when the site showed none usable). */
  profile: BrandProfile;
  logo: NormalizedLogo | null;
  logoSource: LogoCandidate['source'] | null;
  /** Where the logo was fetched from (after redirects); null for an inline SVG or no logo. */
  logoSourceUrl: string | null;
  /** The normalized logo's media-store key, for callers that keep it and sign links later. */
  logoKey: string | null;
  logoStoredUrl: string | null;
  /** Every logo candidate tried, with why the refused ones were refused. */
  logoAttempts: LogoAttempt[];
}

/** A site's brand from a crawl kept earlier, with the logo stored then: nothing is fetched. */
export interface StoredSite {
  crawl: SiteCrawl;
  logoKey: string | null;
  logoColors: string[];
}

async function profileOf(
  crawl: SiteCrawl,
  logoColors: string[],
  logoStoredUrl: string | null,
  deps: Pick<SiteBrandDeps, 'refiner' | 'signal'>,
): Promise<BrandProfile> {
  const { extractProfile } = await import('../profile/extract-profile.ts');
  return extractProfile(crawl, {
    logoColors,
    logoUrl: logoStoredUrl,
    ...(deps.refiner ? { refiner: deps.refiner } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

export async function brandFromSite(url: string, deps: SiteBrandDeps): Promise<SiteBrand> {
  const { guard, store, signal } = deps;
  const [{ crawlSite }, { logoCandidates }, { firstUsableLogo, LOGO_BUDGET_MS }, { storeLogo }] =
    await Promise.all([
      import('../crawl/crawl-site.ts'),
      import('../profile/logo-candidates.ts'),
      import('./first-usable-logo.ts'),
      import('./logo-storage.ts'),
    ]);
  const crawl = await crawlSite(url, {
    guard,
    ...(signal ? { signal } : {}),
    timeoutMs: stepBudget(deps.deadline, AFTER_CRAWL_RESERVE_MS, CRAWL_TIMEOUT_MS),
  });
  const { chosen, attempts } = await firstUsableLogo(
    logoCandidates(crawl),
    guard,
    signal,
    stepBudget(deps.deadline, AFTER_LOGO_RESERVE_MS, LOGO_BUDGET_MS),
  );
  const logoKey = chosen ? await storeLogo(store, chosen.logo.png) : null;
  const logoStoredUrl = logoKey ? store.sign(logoKey, LINK_TTL_SECONDS).url : null;
  const profile = await profileOf(crawl, chosen?.logo.colors ?? [], logoStoredUrl, deps);
  return {
    crawl,
    profile,
    logo: chosen?.logo ?? null,
    logoSource: chosen?.source ?? null,
    logoSourceUrl: chosen?.sourceUrl ?? null,
    logoKey,
    logoStoredUrl,
    logoAttempts: attempts,
  };
}

/** The profile of a stored crawl (a warm re-analysis): the same extraction, no network. */
export async function brandFromStoredSite(
  site: StoredSite,
  deps: Pick<SiteBrandDeps, 'store' | 'refiner' | 'signal'>,
): Promise<BrandProfile> {
  const logoStoredUrl = site.logoKey ? deps.store.sign(site.logoKey, LINK_TTL_SECONDS).url : null;
  return profileOf(site.crawl, site.logoColors, logoStoredUrl, deps);
}
