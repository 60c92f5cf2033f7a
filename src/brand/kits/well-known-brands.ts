// Brand domains whose kits need `confirm_authorized: true` (spec 2 §2.4): the brands of the simple-icons
// package (CC0; thousands of brands, each with its official colour and the URL its logo was taken from).
// Making a kit for a famous brand is usually a mistake or an impersonation, so the caller must say they may.
import { createRequire } from 'node:module';
import type { IconData } from 'simple-icons/icons.json';
import { parse } from 'tldts';

export interface WellKnownBrand {
  title: string;
  slug: string;
  /** The brand's official colour, `#RRGGBB`. */
  officialColor: string;
}

interface WellKnownIndex {
  /** Registrable domains taken from the brand's own `source` or `guidelines` URL. */
  byDomain: Map<string, WellKnownBrand>;
  /** Brand names (slug, title and "also known as" aliases, letters and digits only). */
  byName: Map<string, WellKnownBrand>;
  brands: number;
}

/** "Coca-Cola" → "cocacola", "Aeroméxico" → "aeromexico". */
function nameKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function buildIndex(icons: readonly IconData[]): WellKnownIndex {
  const byDomain = new Map<string, WellKnownBrand>();
  const byName = new Map<string, WellKnownBrand>();
  for (const icon of icons) {
    const brand: WellKnownBrand = {
      title: icon.title,
      slug: icon.slug,
      officialColor: `#${icon.hex.toUpperCase()}`,
    };
    const names = new Set([icon.slug, nameKey(icon.title), ...(icon.aliases?.aka ?? []).map(nameKey)]);
    names.delete('');
    for (const name of names) if (!byName.has(name)) byName.set(name, brand);
    // A source URL often points at a host of many brands (github.com, wikimedia.org): it names this brand's
    // own domain only when the domain's name is the brand's name.
    for (const url of [icon.source, icon.guidelines]) {
      if (!url) continue;
      const { domain, domainWithoutSuffix } = parse(url);
      if (!domain || !domainWithoutSuffix || !names.has(nameKey(domainWithoutSuffix))) continue;
      if (!byDomain.has(domain)) byDomain.set(domain, brand);
    }
  }
  return { byDomain, byName, brands: icons.length };
}

let index: WellKnownIndex | undefined;

function wellKnownIndex(): WellKnownIndex {
  if (!index) {
    const require = createRequire(import.meta.url);
    index = buildIndex(require('simple-icons/icons.json') as IconData[]);
  }
  return index;
}

/**
 * The well-known brand a registrable domain belongs to: listed by its brand's own source URL (spotify.com), or
 * named like a listed brand under any suffix (google.com, google.de, coca-cola.com).
 */
export function wellKnownBrand(domain: string): WellKnownBrand | undefined {
  const { byDomain, byName } = wellKnownIndex();
  const listed = byDomain.get(domain.toLowerCase());
  if (listed) return listed;
  const { domainWithoutSuffix } = parse(domain);
  return domainWithoutSuffix ? byName.get(nameKey(domainWithoutSuffix)) : undefined;
}

/** How big the list is, for docs and tests. */
export function wellKnownCounts(): { brands: number; domains: number; names: number } {
  const { byDomain, byName, brands } = wellKnownIndex();
  return { brands, domains: byDomain.size, names: byName.size };
}
