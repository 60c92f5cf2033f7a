import type { JobRow } from '../../platform/db/schema.ts';
import { JobFailure } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { JobContext, ModeDefinition, Price, RenderEstimate } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { PRICE_TABLE, unitPrice } from '../../platform/pricing/price-table.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { effectiveProfile } from '../../brand/analysis/analysis-presenter.ts';
import {
  findFreshCrawl,
  findPreviousAnalysis,
  insertAnalysis,
  insertCrawl,
  saveAnalysisResult,
} from '../../brand/analysis/analysis-repo.ts';
import { brandIdOfJob } from '../../brand/analysis/brand-ids.ts';
import { brandFromSite, brandFromStoredSite } from '../../brand/analysis/brand-from-site.ts';
import type { ProfileOverrides } from '../../brand/analysis/profile-overrides.ts';
import { CrawlError } from '../../brand/crawl/crawl-error.ts';
import { normalizeSiteUrl } from '../../brand/crawl/site-scope.ts';
import type { BrandProfile } from '../../brand/profile/brand-profile.ts';
import type { BrandTextRefiner } from '../../brand/profile/brand-text-refiner.ts';
import { ProviderError } from '../../providers/openai-llm.ts';
import { brandAnalyzeRequestSchema, type BrandAnalyzeRequest } from './brand-analyze-request.ts';

/** Spec 2 §4.2: 99th percentile cap 30 s, then PROCESS_TIMEOUT (and a refund). */
export const ANALYSIS_LIFETIME_SECONDS = 30;

/** How long a DNS check of the site may take while the request is validated. */
const VALIDATION_DNS_TIMEOUT_MS = 5_000;

// bench/brand/analysis.ts: a warm analysis takes well under a second, queue pick-up included; a cold one is
// the site's own speed (a loopback site: half a second; the spec's 8-12 s for sites over the internet).
const COLD_SECONDS: RenderEstimate = { min: 1, typical: 8, max: ANALYSIS_LIFETIME_SECONDS };
const WARM_SECONDS: RenderEstimate = { min: 1, typical: 1, max: ANALYSIS_LIFETIME_SECONDS };

export interface BrandAnalyzeModeDeps {
  /** The LLM refiner when LLM_BASE_URL is configured; the local analyzer otherwise. */
  refiner?: BrandTextRefiner;
  /** What refines the text fields, for the X-Api-Credits-Model header: "local" or the LLM's model. */
  analyzer: string;
}

/** What the job stores as artifacts: enough to build brand.analyzed without reading the analysis again. */
interface AnalysisArtifacts {
  brand_id: string;
  previous_brand_id: string | null;
  from_stored_crawl: boolean;
  /** The analysed profile; its logo_url is signed from logo_key when read. */
  profile: BrandProfile;
  overrides: ProfileOverrides;
  logo_key: string | null;
}

function crawlFailure(url: string, error: CrawlError): JobFailure {
  return new JobFailure({
    code: 'BRAND_AUTOGEN_FAILED',
    category: 'input',
    message: `The site ${url} could not be analysed (${error.reason}): ${error.message}. The charge was refunded.`,
    retryable: false,
  });
}

/**
 * The LLM refiner failed (LLM_BASE_URL is set, so the profile is not made without it). Not retried: a second
 * crawl and refinement rarely fit in what is left of the 30 s; the caller may send the analysis again.
 */
function refinerFailure(error: ProviderError): JobFailure {
  return new JobFailure({
    code: 'BRAND_REFINER_FAILED',
    category: 'provider',
    message: `The language model refining the profile failed (${error.code}): ${error.message}. The charge was refunded; try again later.`,
    retryable: false,
  });
}

/** Spec 2 §6: brand.analyzed carries { brand_id, status: ready, profile }; failures name the job's error. */
export function analysisEventData(
  job: JobRow,
  artifacts: Record<string, unknown>,
  store: MediaStore,
): Record<string, unknown> {
  const brandId = brandIdOfJob(job.id);
  if (job.status !== 'completed')
    return { brand_id: brandId, job_id: job.id, status: 'failed', error: job.error ?? null };
  const result = artifacts as unknown as AnalysisArtifacts;
  return {
    brand_id: brandId,
    job_id: job.id,
    status: 'ready',
    previous_brand_id: result.previous_brand_id,
    profile: effectiveProfile(result.profile, result.overrides, result.logo_key, store),
  };
}

interface SiteResult {
  crawlId: string;
  warm: boolean;
  profile: BrandProfile;
  logoKey: string | null;
}

/** POST /brand/analyze (spec 2 §4.2): a brand profile from a website, on the job queue. */
export function brandAnalyzeMode(deps: BrandAnalyzeModeDeps): ModeDefinition<BrandAnalyzeRequest> {
  const { refiner } = deps;

  /** A re-analysis within 7 days answers from the stored crawl and logo: nothing is fetched. */
  async function fromStoredCrawl(ctx: JobContext<BrandAnalyzeRequest>): Promise<SiteResult | undefined> {
    const { db, store } = ctx.services;
    const previous = await findPreviousAnalysis(db, ctx.job.accountId, ctx.request.url);
    if (!previous?.warm || !previous.crawlId) return undefined;
    const stored = await findFreshCrawl(db, ctx.job.accountId, previous.crawlId);
    if (!stored) return undefined;
    await ctx.progress('profile', 30, 'Reading the profile from the stored crawl.');
    const profile = await brandFromStoredSite(
      { crawl: stored.crawl, logoKey: stored.logoKey, logoColors: stored.logo?.colors ?? [] },
      { store, signal: ctx.signal, ...(refiner ? { refiner } : {}) },
    );
    return { crawlId: stored.id, warm: true, profile, logoKey: stored.logoKey };
  }

  async function fromSite(ctx: JobContext<BrandAnalyzeRequest>): Promise<SiteResult> {
    const { db, store, urlGuard } = ctx.services;
    const { url } = ctx.request;
    await ctx.progress('crawl', 5, 'Crawling the site.');
    let site;
    try {
      site = await brandFromSite(url, {
        guard: urlGuard,
        store,
        signal: ctx.signal,
        ...(ctx.job.deadlineAt ? { deadline: ctx.job.deadlineAt } : {}),
        ...(refiner ? { refiner } : {}),
      });
    } catch (error) {
      ctx.signal.throwIfAborted();
      if (error instanceof CrawlError) throw crawlFailure(url, error);
      throw error;
    }
    await ctx.progress('store', 90, 'Storing the crawl and the profile.');
    const crawlId = await insertCrawl(db, {
      accountId: ctx.job.accountId,
      url,
      crawl: site.crawl,
      logoKey: site.logoKey,
      logo:
        site.logo && site.logoSource
          ? {
              source: site.logoSource,
              source_url: site.logoSourceUrl,
              measurements: site.logo.measurements,
              colors: site.logo.colors,
            }
          : null,
      logoAttempts: site.logoAttempts,
    });
    return { crawlId, warm: false, profile: site.profile, logoKey: site.logoKey };
  }

  return {
    name: 'brand_analysis',
    endpoint: 'brand/analyze',
    title: 'Brand analysis',
    description:
      'A brand profile from a website: name, tagline, colours, fonts, logo (normalized and stored), industry, audience, tone, topics, voice and video styles. Poll GET /brand/{brand_id}.',
    schema: brandAnalyzeRequestSchema,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: false,
    dryRun: true,
    webhooks: true,
    privateDelivery: false,
    // Re-analysing a URL is a real request (it may refresh a stale crawl), never a duplicate to replay.
    identicalRequestProtection: false,
    maxLifetimeSeconds: ANALYSIS_LIFETIME_SECONDS,
    webhookEvents: {
      completed: 'brand.analyzed',
      failed: 'brand.analysis_failed',
      cancelled: 'brand.analysis_cancelled',
      data: analysisEventData,
    },
    async validate(request, services) {
      let url: string;
      try {
        url = normalizeSiteUrl(request.url, services.urlGuard).href;
      } catch (error) {
        if (!(error instanceof CrawlError)) throw error;
        throw invalidInputError([{ field: 'url', message: error.message }]);
      }
      const previous = await findPreviousAnalysis(services.db, services.accountId, url);
      const warm = previous?.warm ?? false;
      // A site whose name does not resolve, or resolves to a private address, is refused before any charge.
      if (!warm) {
        try {
          await services.urlGuard.assertAllowed(url, { timeoutMs: VALIDATION_DNS_TIMEOUT_MS });
        } catch (error) {
          if (!(error instanceof UrlRejectedError)) throw error;
          throw invalidInputError([{ field: 'url', message: error.message }]);
        }
      }
      return { url, previous_brand_id: previous?.id ?? null, warm };
    },
    price(): Price {
      const cents = unitPrice('brand_analysis');
      return {
        usdCents: cents,
        breakdown: [
          { item: 'brand analysis', usd_cents: cents, quantity: 1, unit: PRICE_TABLE.brand_analysis.unit },
        ],
        tool: 'brand/analyze',
        model: deps.analyzer,
        tier: 'standard',
        engine: PRICE_TABLE.brand_analysis.engine,
      };
    },
    estimate: (request) => ({ renderSeconds: request.warm ? WARM_SECONDS : COLD_SECONDS }),
    receiptExtras: (request, job) => ({
      brand_id: brandIdOfJob(job.id),
      status: 'analyzing',
      estimated_completion_sec: (request.warm ? WARM_SECONDS : COLD_SECONDS).typical,
      previous_brand_id: request.previous_brand_id ?? null,
    }),
    async onAccepted(tx, request, job) {
      await insertAnalysis(tx, {
        id: brandIdOfJob(job.id),
        accountId: job.accountId,
        jobId: job.id,
        url: request.url,
        previousBrandId: request.previous_brand_id ?? null,
      });
    },
    async run(ctx) {
      const brandId = brandIdOfJob(ctx.job.id);
      let result: SiteResult;
      try {
        result = (await fromStoredCrawl(ctx)) ?? (await fromSite(ctx));
      } catch (error) {
        ctx.signal.throwIfAborted();
        if (error instanceof ProviderError) throw refinerFailure(error);
        throw error;
      }
      // The link in the analysed profile expires; the stored profile keeps the key and is signed when read.
      const profile = { ...result.profile, logo_url: null };
      const overrides = await saveAnalysisResult(ctx.services.db, brandId, {
        crawlId: result.crawlId,
        warm: result.warm,
        profile,
      });
      const artifacts: AnalysisArtifacts = {
        brand_id: brandId,
        previous_brand_id: ctx.request.previous_brand_id ?? null,
        from_stored_crawl: result.warm,
        profile,
        overrides,
        logo_key: result.logoKey,
      };
      return { artifacts: { ...artifacts }, files: [] };
    },
  };
}
