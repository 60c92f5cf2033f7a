// Every font family a caption may be drawn in: popular web fonts shipped as npm packages (@fontsource/*), and
// the system fonts the stock caption looks use. A brand names its font freely; this is where that name is
// matched to a family we really have, or to the fallback.
import { createRequire } from 'node:module';

export type FontWeight = 400 | 700;
export type FontCategory = 'sans-serif' | 'serif' | 'display';

/** A web font shipped in an npm package: its regular face, and a bold face when the family has one. */
export interface ShippedFontFamily {
  /** The family name as written in the font files' name table (what libass matches an ASS Fontname to). */
  family: string;
  package: string;
  weights: readonly FontWeight[];
  category: FontCategory;
  /** SPDX licence of the font, as its package declares it (package.json `license`). */
  licence: string;
}

/**
 * Unicode subsets taken from each package. Fontsource splits a family into one file per subset; libass looks
 * for a glyph missing from one file in the other files of the same family, so together they cover Latin
 * scripts with their accents (Polish, Czech, Turkish, Vietnamese base letters…).
 */
export const FONT_SUBSETS = ['latin', 'latin-ext'] as const;

const require = createRequire(import.meta.url);

function packageLicence(name: string): string {
  return (require(`${name}/package.json`) as { license?: string }).license ?? 'unknown';
}

const SHIPPED: Omit<ShippedFontFamily, 'licence'>[] = [
  { family: 'Inter', package: '@fontsource/inter', weights: [400, 700], category: 'sans-serif' },
  { family: 'Roboto', package: '@fontsource/roboto', weights: [400, 700], category: 'sans-serif' },
  { family: 'Open Sans', package: '@fontsource/open-sans', weights: [400, 700], category: 'sans-serif' },
  { family: 'Montserrat', package: '@fontsource/montserrat', weights: [400, 700], category: 'sans-serif' },
  { family: 'Poppins', package: '@fontsource/poppins', weights: [400, 700], category: 'sans-serif' },
  { family: 'Lato', package: '@fontsource/lato', weights: [400, 700], category: 'sans-serif' },
  { family: 'Oswald', package: '@fontsource/oswald', weights: [400, 700], category: 'sans-serif' },
  { family: 'Raleway', package: '@fontsource/raleway', weights: [400, 700], category: 'sans-serif' },
  { family: 'Nunito', package: '@fontsource/nunito', weights: [400, 700], category: 'sans-serif' },
  { family: 'DM Sans', package: '@fontsource/dm-sans', weights: [400, 700], category: 'sans-serif' },
  {
    family: 'Space Grotesk',
    package: '@fontsource/space-grotesk',
    weights: [400, 700],
    category: 'sans-serif',
  },
  { family: 'Work Sans', package: '@fontsource/work-sans', weights: [400, 700], category: 'sans-serif' },
  {
    family: 'Playfair Display',
    package: '@fontsource/playfair-display',
    weights: [400, 700],
    category: 'serif',
  },
  { family: 'Merriweather', package: '@fontsource/merriweather', weights: [400, 700], category: 'serif' },
  { family: 'Bebas Neue', package: '@fontsource/bebas-neue', weights: [400], category: 'display' },
  { family: 'Anton', package: '@fontsource/anton', weights: [400], category: 'display' },
];

export const SHIPPED_FONT_FAMILIES: readonly ShippedFontFamily[] = Object.freeze(
  SHIPPED.map((family) => ({ ...family, licence: packageLicence(family.package) })),
);

/**
 * Families of the system fonts the stock caption looks name, with the regular face fontconfig resolves each
 * to (Debian packages fonts-dejavu-core and fonts-liberation2, installed by scripts/install-system-packages.sh).
 */
export const SYSTEM_FONT_FAMILIES: Readonly<Record<string, string>> = Object.freeze({
  'DejaVu Sans': '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  'DejaVu Sans Condensed': '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf',
  'DejaVu Sans Light': '/usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf',
  'DejaVu Sans Mono': '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  'DejaVu Serif': '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
  'Liberation Sans': '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf',
  'Liberation Serif': '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf',
  'Liberation Mono': '/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf',
});

/**
 * The family captions are drawn in when a brand's font is not one we have: the font of the stock `highlight`
 * and `classic` captions, and fontconfig's default sans-serif face on Debian.
 */
export const FALLBACK_FONT_FAMILY = 'DejaVu Sans';

/** A family name reduced for matching: case, spaces, hyphens, underscores and quotes do not count. */
export function fontFamilyKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\-_'"]+/g, '');
}

const SHIPPED_BY_KEY: ReadonlyMap<string, ShippedFontFamily> = new Map(
  SHIPPED_FONT_FAMILIES.map((f) => [fontFamilyKey(f.family), f]),
);
const SYSTEM_BY_KEY: ReadonlyMap<string, string> = new Map(
  Object.keys(SYSTEM_FONT_FAMILIES).map((family) => [fontFamilyKey(family), family]),
);

/** The shipped web font named `name` (matched loosely, see fontFamilyKey), if we ship it. */
export function findShippedFontFamily(name: string | null | undefined): ShippedFontFamily | undefined {
  return name ? SHIPPED_BY_KEY.get(fontFamilyKey(name)) : undefined;
}

/** The exact family name a caption may use for `name` (shipped or system font), or undefined. */
export function findFontFamily(name: string | null | undefined): string | undefined {
  if (!name) return undefined;
  const key = fontFamilyKey(name);
  return SHIPPED_BY_KEY.get(key)?.family ?? SYSTEM_BY_KEY.get(key);
}

/** The family captions use for a brand font named `name`: ours when we have it, else FALLBACK_FONT_FAMILY. */
export function resolveFontFamily(name: string | null | undefined): string {
  return findFontFamily(name) ?? FALLBACK_FONT_FAMILY;
}

/** One font file of a shipped family. */
export interface ShippedFontFile {
  family: string;
  weight: FontWeight;
  subset: (typeof FONT_SUBSETS)[number];
  /** File name, unique across families (e.g. `bebas-neue-latin-400-normal.woff`). */
  name: string;
  /** Absolute path inside the installed package. */
  path: string;
}

/**
 * The files of a shipped family, WOFF 1.0: FreeType reads it with zlib alone, which every FreeType build has
 * (WOFF2 also needs brotli support compiled in).
 */
export function shippedFontFiles(family: ShippedFontFamily): ShippedFontFile[] {
  const id = family.package.slice(family.package.indexOf('/') + 1);
  return family.weights.flatMap((weight) =>
    FONT_SUBSETS.map((subset) => {
      const name = `${id}-${subset}-${weight}-normal.woff`;
      return {
        family: family.family,
        weight,
        subset,
        name,
        path: require.resolve(`${family.package}/files/${name}`),
      };
    }),
  );
}
