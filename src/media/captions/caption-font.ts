// A brand's font applied to a caption look.
import { findFontFamily, findShippedFontFamily } from '../fonts/font-catalogue.ts';
import type { CaptionStyle } from './caption-style.ts';

/**
 * `style` drawn in the font family `name` when the font catalogue has it; otherwise `style` as it is, in its
 * own font (for the stock presets that is the fallback family). A shipped family without a bold face is drawn
 * at its one weight: libass would otherwise embolden it artificially, which smears display faces such as
 * Bebas Neue and Anton. Sizes are left alone.
 */
export function withCaptionFont(style: CaptionStyle, name: string | null | undefined): CaptionStyle {
  const family = findFontFamily(name);
  if (!family) return style;
  const shipped = findShippedFontFamily(family);
  const bold = style.bold && (shipped === undefined || shipped.weights.includes(700));
  return { ...style, fontFamily: family, bold };
}
