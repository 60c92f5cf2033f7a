// The palette of a site that declares no colour at all, apart from the palette chooser (brand-colors.ts) so
// that kits can compare against it without loading the colour libraries.
import type { BrandColors } from './brand-profile.ts';

/** Used only when a site declares no colour at all (extraction-rules.md). */
export const DEFAULT_COLORS: BrandColors = {
  primary: '#1F2937',
  secondary: '#4B5563',
  accent: '#2563EB',
  background: '#FFFFFF',
};
