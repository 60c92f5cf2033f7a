// The site's logo: the first candidate (best first, see logo-candidates.ts) that can be fetched and
// normalized. A candidate that fails (refused URL, unreadable or too small image, hostile SVG) falls to the
// next, and the reason is kept for the analysis' report.
import { ApiError } from '../../platform/errors.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { fetchLogo } from '../logo/fetch-logo.ts';
import type { NormalizedLogo } from '../logo/normalized-logo.ts';
import { normalizeLogo } from '../logo/normalize-logo.ts';
import type { LogoCandidate } from '../profile/logo-candidates.ts';

/** Candidates tried at most: each may cost a fetch, and the analysis has 30 s in all. */
export const MAX_LOGO_ATTEMPTS = 6;
/** Time for finding the logo in all: a slow image host costs the profile its logo, not the whole analysis. */
export const LOGO_BUDGET_MS = 10_000;

/** One candidate tried: taken, or refused with why. */
export interface LogoAttempt {
  source: LogoCandidate['source'];
  url: string | null;
  outcome: 'used' | 'refused';
  code?: string;
  reason?: string;
}

export interface ChosenLogo {
  logo: NormalizedLogo;
  source: LogoCandidate['source'];
  /** The image's URL after redirects; null for an SVG drawn inline in the page. */
  sourceUrl: string | null;
}

async function tryCandidate(
  candidate: LogoCandidate,
  guard: UrlGuard,
  signal: AbortSignal | undefined,
): Promise<{ logo: NormalizedLogo; sourceUrl: string | null }> {
  if (candidate.kind === 'svg') {
    const logo = await normalizeLogo(Buffer.from(candidate.svg, 'utf8'), { contentType: 'image/svg+xml' });
    return { logo, sourceUrl: null };
  }
  const fetched = await fetchLogo(candidate.url, guard, signal);
  const logo = await normalizeLogo(fetched.bytes, { contentType: fetched.contentType });
  return { logo, sourceUrl: fetched.finalUrl };
}

/** Why a candidate was refused, for the report; anything else (a bug, an abort) is rethrown. */
function refusal(error: unknown): { code: string; reason: string } | undefined {
  if (error instanceof ApiError && error.status < 500) return { code: error.code, reason: error.message };
  if (error instanceof UrlRejectedError) return { code: 'LOGO_URL_REFUSED', reason: error.message };
  return undefined;
}

export async function firstUsableLogo(
  candidates: readonly LogoCandidate[],
  guard: UrlGuard,
  signal?: AbortSignal,
  budgetMs = LOGO_BUDGET_MS,
): Promise<{ chosen: ChosenLogo | null; attempts: LogoAttempt[] }> {
  const budget = AbortSignal.timeout(budgetMs);
  const bounded = signal ? AbortSignal.any([signal, budget]) : budget;
  const attempts: LogoAttempt[] = [];
  for (const candidate of candidates.slice(0, MAX_LOGO_ATTEMPTS)) {
    signal?.throwIfAborted();
    const url = candidate.kind === 'url' ? candidate.url : null;
    if (budget.aborted) {
      attempts.push({
        source: candidate.source,
        url,
        outcome: 'refused',
        code: 'LOGO_TIME_BUDGET',
        reason: `not tried: the ${budgetMs / 1000} s for finding the logo had run out`,
      });
      continue;
    }
    try {
      const { logo, sourceUrl } = await tryCandidate(candidate, guard, bounded);
      attempts.push({ source: candidate.source, url, outcome: 'used' });
      return { chosen: { logo, source: candidate.source, sourceUrl }, attempts };
    } catch (error) {
      signal?.throwIfAborted();
      const refused = budget.aborted
        ? { code: 'LOGO_TIME_BUDGET', reason: `the ${budgetMs / 1000} s for finding the logo ran out` }
        : refusal(error);
      if (!refused) throw error;
      attempts.push({ source: candidate.source, url, outcome: 'refused', ...refused });
    }
  }
  return { chosen: null, attempts };
}
