// Which font families are web fonts: the Google Fonts catalogue (the google-fonts-complete package,
// read once), and the safe web defaults that stand in for a family that is not one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type FontCategory = 'sans-serif' | 'serif' | 'display' | 'handwriting' | 'monospace';

export interface CatalogueFont {
  /** The catalogue's spelling ("Open Sans"). */
  family: string;
  category: FontCategory;
}

let catalogue: Map<string, CatalogueFont> | undefined;

function key(family: string): string {
  return family.toLowerCase().replace(/\s+/g, ' ').trim();
}

function load(): Map<string, CatalogueFont> {
  if (catalogue) return catalogue;
  const path = createRequire(import.meta.url).resolve('google-fonts-complete/google-fonts.json');
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { category?: string }>;
  catalogue = new Map();
  for (const [family, entry] of Object.entries(raw)) {
    const category = entry.category as FontCategory | 'icon' | undefined;
    if (category === undefined || category === 'icon') continue;
    catalogue.set(key(family), { family, category });
  }
  return catalogue;
}

// Self-hosted copies often carry a build suffix: "Inter var", "InterVariable", "Lato-webfont".
const BUILD_SUFFIX = /(?:[\s-]?(?:var|variable|vf|webfont|web))$/i;

/** The catalogue entry for a family name, tolerating case and a build suffix; undefined when not a Google font. */
export function googleFont(family: string): CatalogueFont | undefined {
  const fonts = load();
  const exact = fonts.get(key(family));
  if (exact) return exact;
  const bare = family.replace(BUILD_SUFFIX, '').trim();
  return bare && bare !== family ? fonts.get(key(bare)) : undefined;
}

/** Generic families and the system stack: what a site shows when it names no web font. */
const GENERIC_FAMILIES: Record<string, 'sans-serif' | 'serif' | 'monospace'> = {
  'sans-serif': 'sans-serif',
  serif: 'serif',
  monospace: 'monospace',
  cursive: 'sans-serif',
  fantasy: 'sans-serif',
  'system-ui': 'sans-serif',
  'ui-sans-serif': 'sans-serif',
  'ui-serif': 'serif',
  'ui-monospace': 'monospace',
  'ui-rounded': 'sans-serif',
  '-apple-system': 'sans-serif',
  blinkmacsystemfont: 'sans-serif',
  'segoe ui': 'sans-serif',
  'helvetica neue': 'sans-serif',
  helvetica: 'sans-serif',
  arial: 'sans-serif',
  'sf pro display': 'sans-serif',
  'sf pro text': 'sans-serif',
  verdana: 'sans-serif',
  tahoma: 'sans-serif',
  'trebuchet ms': 'sans-serif',
  'lucida grande': 'sans-serif',
  'apple color emoji': 'sans-serif',
  'segoe ui emoji': 'sans-serif',
  georgia: 'serif',
  'times new roman': 'serif',
  times: 'serif',
  cambria: 'serif',
  'iowan old style': 'serif',
  palatino: 'serif',
  'courier new': 'monospace',
  courier: 'monospace',
  menlo: 'monospace',
  consolas: 'monospace',
  monaco: 'monospace',
  'sf mono': 'monospace',
};

/** The generic kind of a system or generic family; undefined for any other name. */
export function systemFamilyKind(family: string): 'sans-serif' | 'serif' | 'monospace' | undefined {
  return GENERIC_FAMILIES[key(family)];
}

/**
 * Safe web defaults for a site whose font is not a web font, by the kind of face it asked for. All are
 * Google fonts the service ships for renders (@fontsource packages): a serif site keeps a serif look; every
 * other kind (sans-serif, monospace, display) gets Inter, the most legible neutral sans.
 */
export const SAFE_DEFAULTS: Record<'sans-serif' | 'serif', { headline: string; body: string }> = {
  'sans-serif': { headline: 'Inter', body: 'Inter' },
  serif: { headline: 'Playfair Display', body: 'Merriweather' },
};
