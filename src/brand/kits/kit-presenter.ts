// A stored kit as the API answers it (spec 2 §2.4, every field).
import type { MediaStore } from '../../platform/storage/media-store.ts';
import type { BrandKit, StoredLogo } from './brand-kit.ts';
import {
  autoFields,
  effectiveFontFamily,
  effectiveLogo,
  effectiveName,
  effectiveProfile,
  lockedFields,
} from './kit-design.ts';
import type { KitRecord } from './kit-repository.ts';

/** Spec 2 §8: a kit built from a website more than 30 days ago is stale (PATCH `refresh: true` re-crawls). */
export const STALE_AFTER_MS = 30 * 24 * 3600 * 1000;
/**
 * Logos are stored by content, so a link that depends on the key alone is stable: the same logo answers the same
 * URL on every read, refresh and kit, to put in pages and requests. It is signed like every media link, with one
 * fixed expiry far ahead (logos are public brand material; the link is unguessable without the store's secret).
 */
const LOGO_LINK_EXPIRES_AT = Date.UTC(2100, 0, 1);

export interface PresentOptions {
  store: MediaStore;
  now?: Date;
  reused?: boolean;
  refreshed?: boolean;
}

export function normalizedLogoUrl(store: MediaStore, logo: StoredLogo): string {
  return store.sign(logo.key, LOGO_LINK_EXPIRES_AT / 1000, new Date(0)).url;
}

export function isStale(crawledAt: Date | null, now: Date): boolean {
  return crawledAt !== null && now.getTime() - crawledAt.getTime() > STALE_AFTER_MS;
}

export function presentKit(record: KitRecord, options: PresentOptions): BrandKit {
  const now = options.now ?? new Date();
  const logo = effectiveLogo(record);
  const { design } = record;
  return {
    brand_id: record.brand_id,
    customer_id: record.customer_id,
    name: effectiveName(record),
    website_url: record.website_url,
    logo_url: record.fields.logo_url ?? logo?.source_url ?? null,
    normalized_logo_url: logo ? normalizedLogoUrl(options.store, logo) : null,
    logo: logo?.measurements ?? null,
    primary_color: design.colors.primary,
    accent_color: design.colors.accent,
    font_family: effectiveFontFamily(record),
    style: record.fields.style ?? 'auto',
    kit: design,
    profile: effectiveProfile(record),
    domain: record.domain,
    source: record.crawled_at ? 'auto' : 'manual',
    crawled_at: record.crawled_at?.toISOString() ?? null,
    stale: isStale(record.crawled_at, now),
    fields_auto: autoFields(record, design),
    locked_fields: lockedFields(record.fields),
    authorized_by: record.authorized_by,
    authorized_at: record.authorized_at.toISOString(),
    autogen: record.autogen,
    reused: options.reused ?? false,
    refreshed: options.refreshed ?? false,
    revision: record.revision,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}
