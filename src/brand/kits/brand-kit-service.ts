// Saved brand kits (spec 2 §2.4, §4.3): made by hand or from a website, reused per domain, refreshed by a
// re-crawl that keeps what the caller set, and resolved for generation calls (spec 1 §4.4). Kits are free.
import type { Db } from '../../platform/db/database.ts';
import { errors } from '../../platform/errors.ts';
import type { Caller } from '../../platform/generation/submit.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { brandFromSite, type SiteBrand } from '../analysis/brand-from-site.ts';
import { CrawlError } from '../crawl/crawl-error.ts';
import type { BrandKit, KitAuthorization, KitFields, StoredLogo } from './brand-kit.ts';
import { autogenReport, autoValuesFromSite, siteLogo } from './kit-autogen.ts';
import { designKit, effectiveLogo, type KitParts } from './kit-design.ts';
import { kitErrors } from './kit-errors.ts';
import { newKitId } from './kit-ids.ts';
import {
  DESIGN_KEYS,
  PROFILE_KEYS,
  readWebsite,
  type CreateKitInput,
  type ListKitsQuery,
  type UpdateKitInput,
  type Website,
} from './kit-input.ts';
import { fetchCallerLogo } from './kit-logo.ts';
import { presentKit } from './kit-presenter.ts';
import { BrandIdTakenError, KitRepository, type KitRecord, type KitWrite } from './kit-repository.ts';
import { wellKnownBrand, type WellKnownBrand } from './well-known-brands.ts';

export type { BrandKit };

export interface BrandKitServiceDeps {
  db: Db;
  store: MediaStore;
  urlGuard: UrlGuard;
}

/** A kit answer of POST /b2b/brands: 201 for a new kit, 200 for one reused or refreshed. */
export interface KitAnswer {
  kit: BrandKit;
  status: 200 | 201;
}

export interface KitPage {
  items: BrandKit[];
  /** The last kit's id when more kits follow (24 hex characters), else null. */
  next_cursor: string | null;
}

/** How a generation call names its kit (spec 1 §4.4): brand_id wins over website_url. */
export interface KitSelection {
  brandId?: string;
  /** Narrows: a brand_id of another customer is not found, and website kits are reused per customer. */
  customerId?: string;
  websiteUrl?: string;
  confirmAuthorized?: boolean;
  /** The key making the call, recorded as `authorized_by` of a kit built from website_url. */
  authorizedBy?: Pick<Caller, 'keyId' | 'sandbox'>;
}

export interface KitResolution {
  kit: BrandKit;
  /** built: made from website_url by this call; reused: an existing kit (by brand_id or by domain). */
  source: 'built' | 'reused';
  stale: boolean;
  /** The normalized logo's file (a transparent PNG) for the renderer; null when the kit has no logo. */
  logoPath: string | null;
}

interface Outcome {
  record: KitRecord;
  status: 200 | 201;
  reused?: boolean;
  refreshed?: boolean;
}

function authorization(caller: Pick<Caller, 'keyId' | 'sandbox'>): KitAuthorization {
  return { user_id: caller.keyId, auth_type: 'api_key', key_mode: caller.sandbox ? 'sandbox' : 'live' };
}

function fieldsOf(input: CreateKitInput | UpdateKitInput, base: KitFields = {}): KitFields {
  const fields: Record<string, unknown> = { ...base };
  for (const key of DESIGN_KEYS) {
    const value = input[key];
    if (value === null) delete fields[key];
    else if (value !== undefined) fields[key] = value;
  }
  if (input.profile === null) {
    delete fields.profile;
  } else if (input.profile !== undefined) {
    const profile: Record<string, unknown> = { ...base.profile };
    for (const key of PROFILE_KEYS) {
      const value = input.profile[key];
      if (value === null) delete profile[key];
      else if (value !== undefined) profile[key] = value;
    }
    if (Object.keys(profile).length > 0) fields.profile = profile;
    else delete fields.profile;
  }
  return fields;
}

/** The default brand_id of a website-only kit: its domain as a slug ("acme.co.uk" → "acme-co-uk"). */
function domainSlug(domain: string): string {
  return (
    domain
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'site'
  );
}

/** The domain's slug, or the slug with the first free number ("-2", "-3", …) when kits hold it. */
async function freeSlug(repo: KitRepository, accountId: string, domain: string): Promise<string> {
  const base = domainSlug(domain);
  const taken = await repo.brandIdsLike(accountId, base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export class BrandKitService {
  private readonly repo: KitRepository;

  constructor(private readonly deps: BrandKitServiceDeps) {
    this.repo = new KitRepository(deps.db);
  }

  /** POST /b2b/brands. A sandbox key gets the kit it would make, neither fetched nor saved. */
  async create(caller: Caller, input: CreateKitInput, signal?: AbortSignal): Promise<KitAnswer> {
    const outcome = await this.createRecord(caller, input, signal);
    return { kit: this.present(outcome), status: outcome.status };
  }

  async list(caller: Caller, query: ListKitsQuery): Promise<KitPage> {
    if (caller.sandbox) return { items: [], next_cursor: null };
    const records = await this.repo.list(caller.accountId, {
      limit: query.limit + 1,
      ...(query.cursor !== undefined ? { before: query.cursor } : {}),
      ...(query.customer_id !== undefined ? { customerId: query.customer_id } : {}),
    });
    const page = records.slice(0, query.limit);
    return {
      items: page.map((record) => this.present({ record, status: 200 })),
      next_cursor: records.length > query.limit ? page[page.length - 1]!.id : null,
    };
  }

  /** One kit of the account; unknown or another account's: 404 BRAND_NOT_FOUND. */
  async get(accountId: string, brandId: string): Promise<BrandKit> {
    return this.present({ record: await this.load(accountId, brandId), status: 200 });
  }

  /** GET one kit for an API caller: a sandbox key sees no saved kits. */
  async read(caller: Caller, brandId: string): Promise<BrandKit> {
    return this.present({
      record: await this.load(caller.sandbox ? undefined : caller.accountId, brandId),
      status: 200,
    });
  }

  /** PATCH: any field (null clears it); `refresh: true` re-crawls the kit's website, keeping locked fields. */
  async update(
    caller: Caller,
    brandId: string,
    patch: UpdateKitInput,
    signal?: AbortSignal,
  ): Promise<BrandKit> {
    const record = await this.load(caller.sandbox ? undefined : caller.accountId, brandId);
    return this.present({ ...(await this.change(caller, record, patch, signal)), status: 200 });
  }

  async remove(caller: Caller, brandId: string): Promise<BrandKit> {
    const record = caller.sandbox ? undefined : await this.repo.delete(caller.accountId, brandId);
    if (!record) throw kitErrors.notFound(brandId);
    // The logo file stays: logos are stored by content and may be shared with analyses and other kits.
    return this.present({ record, status: 200 });
  }

  /**
   * The kit a generation call asked for, or undefined when it named none. Unknown or foreign brand_id: 404
   * BRAND_NOT_FOUND. website_url builds a kit from the site, or reuses the account's kit for that domain.
   */
  async resolveForGeneration(
    accountId: string,
    selection: KitSelection,
    signal?: AbortSignal,
  ): Promise<KitResolution | undefined> {
    let outcome: Outcome;
    if (selection.brandId !== undefined) {
      const record = await this.repo.find(accountId, selection.brandId);
      if (!record || (selection.customerId !== undefined && record.customer_id !== selection.customerId))
        throw kitErrors.notFound(selection.brandId);
      outcome = { record, status: 200, reused: true };
    } else if (selection.websiteUrl !== undefined) {
      const raw = selection.websiteUrl;
      const website = this.deps.urlGuard.validating(() => readWebsite(raw));
      if ('problem' in website)
        throw errors.inputInvalid(`Invalid request: website_url ${website.problem}.`, [
          { field: 'website_url', message: website.problem },
        ]);
      const caller: Caller = {
        accountId,
        keyId: selection.authorizedBy?.keyId ?? accountId,
        sandbox: selection.authorizedBy?.sandbox ?? false,
      };
      outcome = await this.fromWebsite(
        caller,
        {
          website_url: website,
          ...(selection.customerId !== undefined ? { customer_id: selection.customerId } : {}),
        },
        website,
        this.confirm(website.domain, selection.confirmAuthorized),
        signal,
      );
    } else {
      return undefined;
    }
    const kit = this.present(outcome);
    const logo = effectiveLogo(outcome.record);
    return {
      kit,
      source: outcome.status === 201 ? 'built' : 'reused',
      stale: kit.stale,
      logoPath: logo ? ((await this.deps.store.fetchToLocal(logo.key, signal)) ?? null) : null,
    };
  }

  private present(outcome: Outcome): BrandKit {
    return presentKit(outcome.record, {
      store: this.deps.store,
      reused: outcome.reused ?? false,
      refreshed: outcome.refreshed ?? false,
    });
  }

  private async load(accountId: string | undefined, brandId: string): Promise<KitRecord> {
    const record = accountId === undefined ? undefined : await this.repo.find(accountId, brandId);
    if (!record) throw kitErrors.notFound(brandId);
    return record;
  }

  /** A well-known brand's domain needs the caller's confirmation that they may use its brand. */
  private confirm(domain: string, confirmed: boolean | undefined): WellKnownBrand | undefined {
    const brand = wellKnownBrand(domain);
    if (brand && confirmed !== true) throw kitErrors.confirmationRequired(domain, brand.title);
    return brand;
  }

  private async createRecord(caller: Caller, input: CreateKitInput, signal?: AbortSignal): Promise<Outcome> {
    const website = input.website_url;
    const wellKnown = website ? this.confirm(website.domain, input.confirm_authorized) : undefined;
    if (caller.sandbox) return { record: this.sandboxRecord(caller, input), status: 200 };
    if (website && input.name === undefined)
      return this.fromWebsite(caller, input, website, wellKnown, signal);

    if (input.brand_id !== undefined && (await this.repo.find(caller.accountId, input.brand_id)))
      throw kitErrors.brandIdTaken(input.brand_id);
    const id = newKitId();
    const fields = fieldsOf(input);
    const callerLogo = fields.logo_url ? await this.fetchLogo(fields.logo_url, signal) : null;
    const parts: KitParts = {
      brand_id: input.brand_id ?? `brand_${id}`,
      fields,
      auto: null,
      caller_logo: callerLogo,
      site_logo: null,
    };
    const record = await this.insert(this.repo, {
      ...parts,
      id,
      account_id: caller.accountId,
      customer_id: input.customer_id ?? null,
      website_url: website?.url ?? null,
      domain: website?.domain ?? null,
      design: designKit(parts),
      autogen: null,
      crawled_at: null,
      authorized_by: authorization(caller),
      authorized_at: new Date(),
    });
    return { record, status: 201 };
  }

  /** A brand_id taken meanwhile (two requests naming one id) is the caller's 409. */
  private async insert(repo: KitRepository, kit: KitWrite): Promise<KitRecord> {
    try {
      return await repo.insert(kit);
    } catch (error) {
      if (error instanceof BrandIdTakenError) throw kitErrors.brandIdTaken(error.brandId);
      throw error;
    }
  }

  /** A website-only kit: the account's kit for that domain (refreshed when asked), else one built by a crawl. */
  private async fromWebsite(
    caller: Caller,
    input: CreateKitInput,
    website: Website,
    wellKnown: WellKnownBrand | undefined,
    signal?: AbortSignal,
  ): Promise<Outcome> {
    const customerId = input.customer_id ?? null;
    const existing = await this.existingForSite(
      this.repo,
      caller.accountId,
      input.brand_id,
      website.domain,
      customerId,
    );
    if (existing) {
      if (!input.refresh) return { record: existing, status: 200, reused: true };
      // The fields sent with the refresh change the kit as a PATCH would; the site and the scope stay.
      const { logo_url, primary_color, accent_color, font_family, style, profile, confirm_authorized } =
        input;
      const patch = {
        logo_url,
        primary_color,
        accent_color,
        font_family,
        style,
        profile,
        confirm_authorized,
      };
      return { ...(await this.change(caller, existing, { ...patch, refresh: true }, signal)), status: 200 };
    }

    const site = await this.crawl(website, signal);
    const fields = fieldsOf(input);
    const callerLogo = fields.logo_url ? await this.fetchLogo(fields.logo_url, signal) : null;
    // Another request may have made this site's kit while this one crawled: then that kit is the answer.
    return this.repo.withSiteLock(caller.accountId, website.domain, customerId, async (repo) => {
      const raced = await this.existingForSite(
        repo,
        caller.accountId,
        input.brand_id,
        website.domain,
        customerId,
      );
      if (raced) return { record: raced, status: 200, reused: true };
      const parts: KitParts = {
        brand_id: input.brand_id ?? (await freeSlug(repo, caller.accountId, website.domain)),
        fields,
        auto: autoValuesFromSite(site),
        caller_logo: callerLogo,
        site_logo: siteLogo(site),
      };
      const record = await this.insert(repo, {
        ...parts,
        id: newKitId(),
        account_id: caller.accountId,
        customer_id: customerId,
        website_url: website.url,
        domain: website.domain,
        design: designKit(parts),
        autogen: autogenReport(site, wellKnown),
        crawled_at: new Date(site.crawl.startedAt),
        authorized_by: authorization(caller),
        authorized_at: new Date(),
      });
      return { record, status: 201 };
    });
  }

  /** The kit a website-only request means: the one it names, or the customer's newest for that domain. */
  private async existingForSite(
    repo: KitRepository,
    accountId: string,
    brandId: string | undefined,
    domain: string,
    customerId: string | null,
  ): Promise<KitRecord | undefined> {
    if (brandId === undefined) return repo.findByDomain(accountId, domain, customerId);
    const named = await repo.find(accountId, brandId);
    if (named && (named.domain !== domain || named.customer_id !== customerId))
      throw kitErrors.brandIdTaken(brandId);
    return named;
  }

  /** Applies a PATCH (or a POST refresh) to a stored kit and saves it as the next revision. */
  private async change(
    caller: Caller,
    record: KitRecord,
    patch: UpdateKitInput,
    signal?: AbortSignal,
  ): Promise<{ record: KitRecord; refreshed: boolean }> {
    const fields = fieldsOf(patch, record.fields);
    let write: KitWrite = { ...record, fields };
    if (patch.customer_id !== undefined) write.customer_id = patch.customer_id;

    const websiteChanged = patch.website_url !== undefined && patch.website_url?.url !== record.website_url;
    if (patch.website_url === null) {
      // A kit without a website keeps nothing a crawl found: those values described that site.
      write = {
        ...write,
        website_url: null,
        domain: null,
        auto: null,
        site_logo: null,
        autogen: null,
        crawled_at: null,
      };
    } else if (patch.website_url !== undefined) {
      write = { ...write, website_url: patch.website_url.url, domain: patch.website_url.domain };
    }
    const recrawl =
      patch.refresh === true || (websiteChanged && write.website_url !== null && record.crawled_at !== null);
    if (patch.refresh === true && write.website_url === null) throw kitErrors.refreshNeedsWebsite();
    if (write.domain !== null && (recrawl || websiteChanged)) {
      const wellKnown = this.confirm(write.domain, patch.confirm_authorized);
      if (wellKnown) write = { ...write, authorized_by: authorization(caller), authorized_at: new Date() };
    }
    if (fields.name === undefined && !(recrawl || write.auto)) throw kitErrors.nameRequired();

    if (recrawl) {
      const website: Website = { url: write.website_url!, domain: write.domain! };
      const site = await this.crawl(website, signal);
      write = {
        ...write,
        auto: autoValuesFromSite(site),
        site_logo: siteLogo(site),
        autogen: autogenReport(site, wellKnownBrand(website.domain)),
        crawled_at: new Date(site.crawl.startedAt),
      };
    }
    if (fields.logo_url === undefined) write.caller_logo = null;
    else if (fields.logo_url !== record.fields.logo_url || !record.caller_logo)
      write.caller_logo = await this.fetchLogo(fields.logo_url, signal);

    write.design = designKit(write);
    const saved = await this.repo.update(write, record.revision);
    if (!saved) throw errors.requestInProgress();
    return { record: saved, refreshed: recrawl };
  }

  /**
   * The site's brand by the local analyzer, without the LLM refiner: a kit is free and built while its caller
   * waits, so it neither spends on nor waits for a provider (brand analysis is the paid, refined reading).
   */
  private async crawl(website: Website, signal?: AbortSignal): Promise<SiteBrand> {
    try {
      return await brandFromSite(website.url, {
        guard: this.deps.urlGuard,
        store: this.deps.store,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof CrawlError)
        throw kitErrors.autogenFailed(website.url, error.reason, error.message);
      throw error;
    }
  }

  private fetchLogo(url: string, signal?: AbortSignal): Promise<StoredLogo> {
    return fetchCallerLogo(url, {
      guard: this.deps.urlGuard,
      store: this.deps.store,
      ...(signal ? { signal } : {}),
    });
  }

  /** The kit a sandbox key's POST describes, made from the fields sent: nothing fetched, nothing saved. */
  private sandboxRecord(caller: Caller, input: CreateKitInput): KitRecord {
    const id = newKitId();
    const now = new Date();
    const fields = fieldsOf(input);
    const website = input.website_url;
    const websiteOnly = website !== undefined && input.name === undefined;
    const parts: KitParts = {
      brand_id: input.brand_id ?? (websiteOnly ? domainSlug(website.domain) : `brand_${id}`),
      fields,
      // Without a crawl, a website-only kit is named after its domain.
      auto: websiteOnly
        ? { name: website.domain, primary_color: null, accent_color: null, font_family: null, profile: {} }
        : null,
      caller_logo: null,
      site_logo: null,
    };
    return {
      ...parts,
      id,
      account_id: caller.accountId,
      customer_id: input.customer_id ?? null,
      website_url: website?.url ?? null,
      domain: website?.domain ?? null,
      design: designKit(parts),
      autogen: null,
      crawled_at: null,
      authorized_by: authorization(caller),
      authorized_at: now,
      revision: 0,
      created_at: now,
      updated_at: now,
    };
  }
}
