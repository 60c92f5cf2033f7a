// What a kit takes from its website: the brand found by the one site pipeline (analysis/brand-from-site.ts),
// turned into kit values, the site's logo, and the crawl report the kit answers as `autogen`.
import type { SiteBrand } from '../analysis/brand-from-site.ts';
import { DEFAULT_COLORS } from '../profile/default-colors.ts';
import type { AutoValues, KitAutogenReport, KitProfile, StoredLogo } from './brand-kit.ts';
import { KIT_TONES, type KitTone } from './kit-input.ts';
import type { WellKnownBrand } from './well-known-brands.ts';

const MAX_NAME = 80;
const MAX_OFFER = 240;
const MAX_TOPIC = 120;
const MAX_TOPICS = 20;
const MAX_INDUSTRY = 80;

function clip(text: string, max: number): string {
  return text.trim().slice(0, max).trim();
}

function isKitTone(tone: string): tone is KitTone {
  return (KIT_TONES as readonly string[]).includes(tone);
}

/** The kit profile fields a site tells: industry, the tagline as the offer, a tone the kit knows, topics. */
function profileFromSite(site: SiteBrand): KitProfile {
  const { profile } = site;
  const kitProfile: KitProfile = {};
  const industry = clip(profile.industry, MAX_INDUSTRY);
  if (industry) kitProfile.industry = industry;
  const offer = clip(profile.tagline, MAX_OFFER);
  if (offer) kitProfile.offer = offer;
  const tone = profile.tone.find(isKitTone);
  if (tone) kitProfile.tone = tone;
  const topics = profile.topic_pool
    .map((topic) => clip(topic, MAX_TOPIC))
    .filter((topic) => topic.length > 0)
    .slice(0, MAX_TOPICS);
  if (topics.length > 0) kitProfile.topic_pool = topics;
  return kitProfile;
}

export function autoValuesFromSite(site: SiteBrand): AutoValues {
  const { profile, crawl } = site;
  // The analysis falls back to a neutral palette when a site declares no colour: that is not the site's.
  const declared =
    profile.colors.primary !== DEFAULT_COLORS.primary || profile.colors.accent !== DEFAULT_COLORS.accent;
  return {
    name: clip(profile.name, MAX_NAME) || crawl.domain,
    primary_color: declared ? profile.colors.primary.toUpperCase() : null,
    accent_color: declared ? profile.colors.accent.toUpperCase() : null,
    font_family: profile.fonts.headline || null,
    profile: profileFromSite(site),
  };
}

export function siteLogo(site: SiteBrand): StoredLogo | null {
  if (!site.logo || !site.logoKey) return null;
  return {
    key: site.logoKey,
    source_url: site.logoSourceUrl,
    measurements: site.logo.measurements,
    colors: site.logo.colors,
  };
}

export function autogenReport(site: SiteBrand, wellKnown: WellKnownBrand | undefined): KitAutogenReport {
  const { crawl } = site;
  return {
    requested_url: crawl.requestedUrl,
    home_url: crawl.homeUrl,
    domain: crawl.domain,
    pages: crawl.pages.map((page) => ({
      url: page.url,
      role: page.role,
      status: page.status,
      bytes: page.bytes,
    })),
    skipped: crawl.skipped,
    robots_txt: crawl.robotsTxt,
    started_at: crawl.startedAt,
    duration_ms: crawl.durationMs,
    logo: { source: site.logoSource, source_url: site.logoSourceUrl, attempts: site.logoAttempts },
    well_known_brand: wellKnown ? { name: wellKnown.title, official_color: wellKnown.officialColor } : null,
  };
}
