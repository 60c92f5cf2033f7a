// How a kit looks on screen, apart from colours and font: its style variant and when the logo shows.
import { createHash } from 'node:crypto';
import { KIT_STYLES, type KitStyle, type StyleChoice } from './kit-input.ts';

/** explicit: the caller chose the variant; hash: `auto` chose it from the brand_id; default: style was not sent (auto). */
export type StyleSource = 'explicit' | 'hash' | 'default';

export interface LogoPolicy {
  show_at: ('intro' | 'outro')[];
  /** The logo is never burned into every frame: it opens and closes the video. */
  persistent: false;
}

/**
 * `auto` gives each brand one fixed variant, chosen by a hash of its brand_id, so a brand's videos look alike
 * while different brands' videos differ.
 */
export function resolveStyle(
  brandId: string,
  chosen: StyleChoice | undefined,
): { style: KitStyle; style_source: StyleSource } {
  if (chosen !== undefined && chosen !== 'auto') return { style: chosen, style_source: 'explicit' };
  const digest = createHash('sha256').update(brandId).digest();
  const style = KIT_STYLES[digest.readUInt32BE(0) % KIT_STYLES.length]!;
  return { style, style_source: chosen === 'auto' ? 'hash' : 'default' };
}

export function logoPolicy(hasLogo: boolean): LogoPolicy {
  return { show_at: hasLogo ? ['intro', 'outro'] : [], persistent: false };
}
