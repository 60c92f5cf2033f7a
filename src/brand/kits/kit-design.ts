// A kit's effective values: what the caller set wins, what the last crawl found fills the rest, and the design
// (colours, font, style, logo policy) is derived from the result.
import { deriveKitColors } from '../colors/kit-colors.ts';
import type { AutoValues, KitDesign, KitFields, KitProfile, StoredLogo } from './brand-kit.ts';
import { kitFont } from './kit-font.ts';
import { PROFILE_KEYS } from './kit-input.ts';
import { logoPolicy, resolveStyle } from './kit-style.ts';

export interface KitParts {
  brand_id: string;
  fields: KitFields;
  auto: AutoValues | null;
  caller_logo: StoredLogo | null;
  site_logo: StoredLogo | null;
}

/** The caller's logo while they set logo_url, else the site's. */
export function effectiveLogo(parts: KitParts): StoredLogo | null {
  return parts.fields.logo_url !== undefined ? parts.caller_logo : parts.site_logo;
}

export function effectiveName(parts: KitParts): string {
  const name = parts.fields.name ?? parts.auto?.name;
  if (name === undefined) throw new Error(`kit ${parts.brand_id} has neither a name nor a crawled one`);
  return name;
}

export function effectiveFontFamily(parts: KitParts): string | null {
  return parts.fields.font_family ?? parts.auto?.font_family ?? null;
}

/** Profile fields one by one, in the spec's order: the caller's, else the crawl's. */
export function effectiveProfile(parts: KitParts): KitProfile {
  const merged: Record<string, unknown> = { ...parts.auto?.profile, ...parts.fields.profile };
  return Object.fromEntries(
    PROFILE_KEYS.filter((key) => merged[key] !== undefined).map((key) => [key, merged[key]]),
  );
}

export function designKit(parts: KitParts): KitDesign {
  const { fields, auto } = parts;
  const logo = effectiveLogo(parts);
  const siteColor = (field: 'primary_color' | 'accent_color') =>
    fields[field] === undefined ? (auto?.[field] ?? undefined) : undefined;
  const colors = deriveKitColors({
    primary: fields.primary_color ?? siteColor('primary_color'),
    accent: fields.accent_color ?? siteColor('accent_color'),
    logoColors: logo?.colors ?? [],
    ...(logo ? { logoLuminance: logo.measurements.luminance } : {}),
  });
  // A colour read from the website was not provided by the caller: it was extracted, like a logo's.
  const provenance = {
    ...colors.provenance,
    ...(siteColor('primary_color') !== undefined ? { primary: 'extracted' as const } : {}),
    ...(siteColor('accent_color') !== undefined ? { accent: 'extracted' as const } : {}),
  };
  return {
    ...resolveStyle(parts.brand_id, fields.style),
    colors: { ...colors, provenance },
    font: kitFont(effectiveFontFamily(parts)),
    logo_policy: logoPolicy(logo !== null),
  };
}

/** The fields the caller set, which a re-crawl keeps: top-level names, and `profile.<field>` per profile field. */
export function lockedFields(fields: KitFields): string[] {
  const { profile, ...design } = fields;
  return [
    ...Object.keys(design).filter((key) => design[key as keyof typeof design] !== undefined),
    ...PROFILE_KEYS.filter((key) => profile?.[key] !== undefined).map((key) => `profile.${key}`),
  ];
}

/** The fields whose value the kit found by itself: from its website's crawl, or colours from its logo. */
export function autoFields(parts: KitParts, design: KitDesign): string[] {
  const { fields, auto } = parts;
  const out: string[] = [];
  if (fields.name === undefined && auto) out.push('name');
  if (fields.logo_url === undefined && parts.site_logo) out.push('logo_url');
  if (design.colors.provenance.primary === 'extracted') out.push('primary_color');
  if (design.colors.provenance.accent === 'extracted') out.push('accent_color');
  if (fields.font_family === undefined && auto?.font_family) out.push('font_family');
  for (const key of PROFILE_KEYS)
    if (fields.profile?.[key] === undefined && auto?.profile[key] !== undefined) out.push(`profile.${key}`);
  return out;
}
