// A saved brand kit as the API answers it (spec 2 §2.4), and the parts a kit is stored as.
import type { KitColors } from '../colors/kit-colors.ts';
import type { CrawlSkip, PageRole } from '../crawl/site-crawl.ts';
import type { LogoMeasurements } from '../logo/normalized-logo.ts';
import type { KitFont } from './kit-font.ts';
import type { KitProfile, KitStyle, StyleChoice } from './kit-input.ts';
import type { LogoPolicy, StyleSource } from './kit-style.ts';

export type { KitColors, KitFont, KitProfile, KitStyle, LogoPolicy, StyleChoice, StyleSource };

/** What the kit renders with, derived from its fields whenever they change. */
export interface KitDesign {
  style: KitStyle;
  style_source: StyleSource;
  colors: KitColors;
  font: KitFont;
  logo_policy: LogoPolicy;
}

export interface KitAuthorization {
  /** The API key that made (or last confirmed) the kit. */
  user_id: string;
  auth_type: 'api_key' | 'oauth' | 'first_party';
  key_mode: 'live' | 'sandbox';
}

/** What a kit's crawl did: pages read, pages skipped and why, and where the logo came from. */
export interface KitAutogenReport {
  requested_url: string;
  home_url: string;
  domain: string;
  pages: { url: string; role: PageRole; status: number; bytes: number }[];
  skipped: CrawlSkip[];
  robots_txt: boolean;
  started_at: string;
  duration_ms: number;
  logo: {
    source: string | null;
    source_url: string | null;
    attempts: {
      source: string;
      url: string | null;
      outcome: 'used' | 'refused';
      code?: string;
      reason?: string;
    }[];
  };
  /** Set when the domain is a well-known brand's (the caller confirmed they may use it). */
  well_known_brand: { name: string; official_color: string } | null;
}

export interface BrandKit {
  brand_id: string;
  customer_id: string | null;
  name: string;
  website_url: string | null;
  /** Where the logo was fetched from: the caller's logo_url, or the site's logo (null for an inline SVG). */
  logo_url: string | null;
  /** The normalized logo (transparent PNG) in the media store: a signed link that stays the same. */
  normalized_logo_url: string | null;
  logo: LogoMeasurements | null;
  primary_color: string;
  accent_color: string;
  font_family: string | null;
  style: StyleChoice;
  kit: KitDesign;
  profile: KitProfile;
  domain: string | null;
  source: 'manual' | 'auto';
  crawled_at: string | null;
  stale: boolean;
  fields_auto: string[];
  locked_fields: string[];
  authorized_by: KitAuthorization;
  authorized_at: string;
  autogen: KitAutogenReport | null;
  reused: boolean;
  refreshed: boolean;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** The values a caller set: kept as sent, and never changed by a re-crawl. */
export interface KitFields {
  name?: string;
  logo_url?: string;
  primary_color?: string;
  accent_color?: string;
  font_family?: string;
  style?: StyleChoice;
  profile?: KitProfile;
}

/** The values the last crawl of the kit's website found. */
export interface AutoValues {
  name: string;
  primary_color: string | null;
  accent_color: string | null;
  font_family: string | null;
  profile: KitProfile;
}

/** A normalized logo in the media store (content-addressed, see analysis/logo-storage.ts). */
export interface StoredLogo {
  key: string;
  /** The URL it was fetched from (after redirects); null for an SVG drawn inline in a page. */
  source_url: string | null;
  measurements: LogoMeasurements;
  /** Its own dominant colours, most used first (background and near-greys ignored). */
  colors: string[];
}
