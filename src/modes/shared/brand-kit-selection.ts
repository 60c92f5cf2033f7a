import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BrandKitService, type KitResolution } from '../../brand/kits/brand-kit-service.ts';
import type { KitProfile } from '../../brand/kits/brand-kit.ts';
import { kitErrors } from '../../brand/kits/kit-errors.ts';
import { brandIdSchema, readWebsite } from '../../brand/kits/kit-input.ts';
import { KitRepository } from '../../brand/kits/kit-repository.ts';
import { wellKnownBrand } from '../../brand/kits/well-known-brands.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { ValidationServices } from '../../platform/modes/mode.ts';

// A saved brand kit chosen by a generation call (spec 1 §4.2/§4.4, spec 2 §2.4): brand_id selects one of the
// account's kits, website_url reuses the account's kit for that site or builds one, and brand_id wins. The
// kit is resolved while the request is validated, so every refusal (404 BRAND_NOT_FOUND, 422
// BRAND_CONFIRMATION_REQUIRED / BRAND_AUTOGEN_FAILED) comes before anything is charged. The request then
// carries a snapshot of the kit, stored with the job: a retried job renders the kit it was accepted with.

/** The kit-selection fields of a generation body. */
export const kitSelectionShape = {
  brand_id: brandIdSchema.optional(),
  customer_id: brandIdSchema.optional(),
  /** A domain or http(s) URL, under the URL guard's rules (as POST /b2b/brands takes it). */
  website_url: z
    .string()
    .min(3, 'must be 3-2048 characters')
    .max(2048, 'must be 3-2048 characters')
    .superRefine((raw, ctx) => {
      const website = readWebsite(raw);
      if ('problem' in website) ctx.addIssue({ code: 'custom', message: website.problem });
    })
    .optional(),
  confirm_authorized: z.boolean().optional(),
};

export interface KitSelectionFields {
  brand_id?: string;
  customer_id?: string;
  website_url?: string;
  confirm_authorized?: boolean;
}

/** The kit a job renders with, as it was when the job was accepted. */
export interface KitSnapshot {
  brand_id: string;
  revision: number;
  /** built: made from website_url by this call; reused: an existing kit. */
  source: 'built' | 'reused';
  stale: boolean;
  name: string;
  website_url: string | null;
  /** The kit's normalized logo was copied into the job's work folder as KIT_LOGO_FILE. */
  logo: boolean;
  primary_color: string;
  accent_color: string;
  /** The family the kit's design renders text with (kit.font.family). */
  font_family: string;
  profile: KitProfile;
}

/** What a dry run reports for a website that has no kit yet: the real call builds one; this one builds nothing. */
export interface KitToBuild {
  source: 'would_build';
  website_url: string;
  domain: string;
}

export type KitChoice = KitSnapshot | KitToBuild;

/** The kit's normalized logo (a transparent PNG) in the job's work folder. */
export const KIT_LOGO_FILE = 'brand-kit-logo.png';

export function isKitSnapshot(choice: KitChoice | undefined): choice is KitSnapshot {
  return choice !== undefined && choice.source !== 'would_build';
}

function selects(request: KitSelectionFields): boolean {
  return request.brand_id !== undefined || request.website_url !== undefined;
}

/**
 * The kit the request selects, or undefined when it selects none. A live call resolves it as the kit service
 * does (building a website's kit when the account has none) and copies its logo into the staging folder, which
 * becomes the job's work folder. A dry run refuses exactly as the live call would but builds nothing; a
 * sandbox key sees no saved kits (as on GET /b2b/brands), so its dry runs only ever report a kit to build.
 */
export async function selectBrandKit(
  request: KitSelectionFields,
  services: ValidationServices,
): Promise<KitChoice | undefined> {
  if (!selects(request)) return undefined;
  const { caller } = services;
  if (!caller) {
    throw invalidInputError([
      {
        field: request.brand_id !== undefined ? 'brand_id' : 'website_url',
        message: 'selects a saved brand kit, which only calls to the API can use',
      },
    ]);
  }
  const kits = new BrandKitService({ db: services.db, store: services.store, urlGuard: services.urlGuard });
  if (services.dryRun) return previewKit(request, services, kits);
  const resolution = await kits.resolveForGeneration(services.accountId, {
    ...(request.brand_id !== undefined ? { brandId: request.brand_id } : {}),
    ...(request.customer_id !== undefined ? { customerId: request.customer_id } : {}),
    ...(request.website_url !== undefined ? { websiteUrl: request.website_url } : {}),
    ...(request.confirm_authorized !== undefined ? { confirmAuthorized: request.confirm_authorized } : {}),
    authorizedBy: caller,
  });
  if (!resolution) return undefined;
  if (resolution.logoPath && services.stagingDir) {
    await mkdir(services.stagingDir, { recursive: true });
    await copyFile(resolution.logoPath, join(services.stagingDir, KIT_LOGO_FILE));
  }
  return snapshotOf(resolution, resolution.logoPath !== null && services.stagingDir !== undefined);
}

/** A dry run's kit: an existing one is read, a website without one is reported as the kit the call would build. */
async function previewKit(
  request: KitSelectionFields,
  services: ValidationServices,
  kits: BrandKitService,
): Promise<KitChoice> {
  const sandbox = services.caller?.sandbox === true;
  if (request.brand_id !== undefined) {
    if (sandbox) throw kitErrors.notFound(request.brand_id);
    const resolution = await kits.resolveForGeneration(services.accountId, {
      brandId: request.brand_id,
      ...(request.customer_id !== undefined ? { customerId: request.customer_id } : {}),
    });
    return snapshotOf(resolution!, resolution!.logoPath !== null);
  }
  const raw = request.website_url!;
  const website = services.urlGuard.validating(() => readWebsite(raw));
  if ('problem' in website) throw invalidInputError([{ field: 'website_url', message: website.problem }]);
  const brand = wellKnownBrand(website.domain);
  if (brand && request.confirm_authorized !== true)
    throw kitErrors.confirmationRequired(website.domain, brand.title);
  const existing = sandbox
    ? undefined
    : await new KitRepository(services.db).findByDomain(
        services.accountId,
        website.domain,
        request.customer_id ?? null,
      );
  if (!existing) return { source: 'would_build', website_url: website.url, domain: website.domain };
  const resolution = await kits.resolveForGeneration(services.accountId, {
    brandId: existing.brand_id,
    ...(request.customer_id !== undefined ? { customerId: request.customer_id } : {}),
  });
  return snapshotOf(resolution!, resolution!.logoPath !== null);
}

function snapshotOf(resolution: KitResolution, logo: boolean): KitSnapshot {
  const { kit } = resolution;
  return {
    brand_id: kit.brand_id,
    revision: kit.revision,
    source: resolution.source,
    stale: resolution.stale,
    name: kit.name,
    website_url: kit.website_url,
    logo,
    primary_color: kit.kit.colors.primary,
    accent_color: kit.kit.colors.accent,
    font_family: kit.kit.font.family,
    profile: kit.profile,
  };
}

/** X-Brand-Kit-Id, X-Brand-Kit-Source (built or reused) and X-Brand-Kit-Stale of the kit a request uses. */
export function brandKitHeaders(choice: KitChoice | undefined): Record<string, string> {
  if (!isKitSnapshot(choice)) return {};
  return {
    'x-brand-kit-id': choice.brand_id,
    'x-brand-kit-source': choice.source,
    'x-brand-kit-stale': String(choice.stale),
  };
}

/** What a dry run says about the kit, and a customer_id that selects nothing. */
export function brandKitWarnings(request: KitSelectionFields & { brand_kit?: KitChoice }): string[] {
  const warnings: string[] = [];
  const kit = request.brand_kit;
  if (kit?.source === 'would_build')
    warnings.push(
      `No brand kit exists for ${kit.domain} yet: the real call builds one from ${kit.website_url} (a crawl of up to 6 pages, about 40 s) before charging, and its banned topics are checked then. This dry run built nothing.`,
    );
  if (isKitSnapshot(kit) && kit.stale)
    warnings.push(
      `Brand kit ${kit.brand_id} was built from its website more than 30 days ago; PATCH it with "refresh": true to re-crawl.`,
    );
  if (request.brand_id !== undefined && request.website_url !== undefined)
    warnings.push(
      'brand_id and website_url were both sent: brand_id selects the kit; website_url is not used.',
    );
  if (request.customer_id !== undefined && !selects(request))
    warnings.push('customer_id selects no kit on its own; send brand_id or website_url with it.');
  return warnings;
}
