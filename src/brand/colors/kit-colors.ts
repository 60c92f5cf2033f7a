// A kit's colours (spec 2 §2.4 `kit.colors`): the brand's primary and accent, each with where it came from, and
// the surface colours a render draws with, every text colour readable (WCAG 4.5:1) on what it sits on.
//
// Where primary and accent come from, in order:
// - provided: the caller's colour;
// - extracted: the logo's colours (already most used first, greys removed): the primary is the first, the accent
//   the first that differs visibly from the primary (CIEDE2000 ≥ DISTINCT_ACCENT_DELTA_E);
// - default: primary DEFAULT_PRIMARY (a neutral blue); accent the primary's complement (OKLCH hue + 180°,
//   lightness 0.72, chroma 0.12–0.2, so it stands out beside the primary), or DEFAULT_ACCENT (amber) when the
//   primary is a grey and has no hue to turn.
// Surfaces are light (near-white background, a slightly deeper surface, near-black text, all tinted with the
// primary's hue) unless the logo is light, which would vanish on them: then they are dark with near-white text.
import { converter, type Oklch } from 'culori';
import type { LogoLuminance } from '../logo/normalized-logo.ts';
import { formatColor, parseColor, toHexColor } from './color-value.ts';
import { deltaE2000, MIN_TEXT_CONTRAST } from './contrast.ts';
import { readableOn } from './readable-color.ts';

export type ColorProvenance = 'provided' | 'extracted' | 'default';

export interface KitColors {
  primary: string;
  accent: string;
  /** Page colour behind everything (outro cards, plates). */
  background: string;
  /** Raised panels on the background (caption boxes, cards). */
  surface: string;
  /** Text on background and on surface. */
  text: string;
  /** Text on a primary-coloured fill. */
  on_primary: string;
  /** Text on an accent-coloured fill. */
  on_accent: string;
  provenance: { primary: ColorProvenance; accent: ColorProvenance };
}

export interface KitColorInput {
  /** `#RRGGBB` (any CSS colour is read) from the caller; omitted or null means "extract or default". */
  primary?: string | null;
  accent?: string | null;
  /** The normalized logo's colours, most used first. Unreadable entries are skipped. */
  logoColors: readonly string[];
  /** The normalized logo's luminance; a light logo gets dark surfaces. */
  logoLuminance?: LogoLuminance;
}

export const DEFAULT_PRIMARY = '#2563EB';
export const DEFAULT_ACCENT = '#F59E0B';
/** An extracted accent must differ from the primary by at least this much (CIEDE2000) to be a second colour. */
export const DISTINCT_ACCENT_DELTA_E = 15;
/** Below this OKLCH chroma a colour is a grey, whose hue means nothing. */
const GREY_CHROMA = 0.04;
/** The default accent's OKLCH lightness: bright enough to stand out beside a primary of any hue. */
const ACCENT_L = 0.72;

const SURFACES = {
  light: { background: { l: 0.985, c: 0.008 }, surface: { l: 0.95, c: 0.02 } },
  dark: { background: { l: 0.18, c: 0.02 }, surface: { l: 0.25, c: 0.03 } },
} as const;

const toOklch = converter('oklch');

interface Chosen {
  color: string;
  provenance: ColorProvenance;
}

function hueOf(color: string): number | undefined {
  const { c, h } = toOklch(parseColor(color));
  return c >= GREY_CHROMA ? h : undefined;
}

function complement(primary: string): string {
  const { c, h } = toOklch(parseColor(primary));
  if (c < GREY_CHROMA || h === undefined) return DEFAULT_ACCENT;
  return formatColor({ mode: 'oklch', l: ACCENT_L, c: Math.min(0.2, Math.max(c, 0.12)), h: (h + 180) % 360 });
}

function choosePrimary(provided: string | null | undefined, logo: string[]): Chosen {
  if (provided) return { color: formatColor(parseColor(provided)), provenance: 'provided' };
  const extracted = logo[0];
  if (extracted) return { color: extracted, provenance: 'extracted' };
  return { color: DEFAULT_PRIMARY, provenance: 'default' };
}

function chooseAccent(provided: string | null | undefined, logo: string[], primary: string): Chosen {
  if (provided) return { color: formatColor(parseColor(provided)), provenance: 'provided' };
  const extracted = logo.find((color) => deltaE2000(color, primary) >= DISTINCT_ACCENT_DELTA_E);
  if (extracted) return { color: extracted, provenance: 'extracted' };
  return { color: complement(primary), provenance: 'default' };
}

function tinted(tone: { l: number; c: number }, hue: number | undefined): string {
  const color: Oklch = { mode: 'oklch', l: tone.l, c: hue === undefined ? 0 : tone.c, h: hue };
  return formatColor(color);
}

/** Throws RangeError when a provided colour is not a colour (the kit schema validates before this). */
export function deriveKitColors(input: KitColorInput): KitColors {
  const logo = input.logoColors.map(toHexColor).filter((color): color is string => color !== null);
  const primary = choosePrimary(input.primary, logo);
  const accent = chooseAccent(input.accent, logo, primary.color);
  const hue = hueOf(primary.color);
  const tones = input.logoLuminance === 'light' ? SURFACES.dark : SURFACES.light;
  const background = tinted(tones.background, hue);
  const surface = tinted(tones.surface, hue);
  return {
    primary: primary.color,
    accent: accent.color,
    background,
    surface,
    text: readableOn([background, surface], hue, MIN_TEXT_CONTRAST),
    on_primary: readableOn([primary.color], hue, MIN_TEXT_CONTRAST),
    on_accent: readableOn([accent.color], hueOf(accent.color), MIN_TEXT_CONTRAST),
    provenance: { primary: primary.provenance, accent: accent.provenance },
  };
}
