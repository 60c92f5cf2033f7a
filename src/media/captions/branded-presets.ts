// The `branded` caption presets drawn for one brand (a saved brand kit, an account's brand, or query values).
import type { CaptionStyle } from './caption-style.ts';
import {
  CAPTION_STYLE_PRESETS,
  captionStyleById,
  resolveCaptionBrand,
  type CaptionBrand,
  type CaptionStylePreset,
  type ResolvedCaptionBrand,
} from './style-catalogue.ts';

/** A brand's look as a brand kit stores it (spec 2 §2.4: `primary_color`, `accent_color`, `font_family`). */
export interface CaptionBrandKit {
  primary?: string | null;
  accent?: string | null;
  font_family?: string | null;
}

export interface BrandedCaptionStyle {
  preset: CaptionStylePreset;
  /** The preset's look in the brand's colours and font. */
  style: CaptionStyle;
}

/** A kit's fields as the caption catalogue takes them; absent or malformed values leave the defaults. */
export function captionBrandFromKit(kit: CaptionBrandKit): CaptionBrand {
  return {
    ...(kit.primary ? { primaryColor: kit.primary } : {}),
    ...(kit.accent ? { accentColor: kit.accent } : {}),
    fontFamily: kit.font_family ?? null,
  };
}

/** The brand as the presets use it, and each preset of the `branded` category drawn for it. */
export function brandedCaptionPresets(kit: CaptionBrandKit): {
  brand: ResolvedCaptionBrand;
  styles: BrandedCaptionStyle[];
} {
  const brand = captionBrandFromKit(kit);
  return {
    brand: resolveCaptionBrand(brand),
    styles: CAPTION_STYLE_PRESETS.filter((p) => p.category === 'branded').map((preset) => ({
      preset,
      style: captionStyleById(preset.id, brand)!,
    })),
  };
}
