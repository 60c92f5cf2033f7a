// The colours a site declares, each weighted by where it is used: a button's background or a link's
// colour says more about the brand than a border in an unused rule. Custom properties named for a role
// (--brand, --primary, --accent, --bg) and the theme-color meta carry that role along as a hint.
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import { colorsIn, toHex } from './color-values.ts';
import { resolveVars, siteCss } from './site-css.ts';
import { homeDocument, siteDocuments } from './site-documents.ts';
import { isStateSelector, selectorRoles, UsageIndex, type UsageRole } from './usage-roles.ts';

export type ColorHint = 'primary' | 'secondary' | 'accent' | 'background' | 'text';

export interface ColorEvidence {
  hex: string;
  /** How strongly the use speaks for a brand colour. */
  weight: number;
  /** How strongly it speaks for the page background (backgrounds of html, body, main). */
  backgroundWeight: number;
  hints: ColorHint[];
  source: 'css' | 'custom_property' | 'theme_color' | 'logo';
}

type PropertyKind = 'background' | 'text' | 'border' | 'fill';

const PROPERTY_KINDS: Record<string, PropertyKind> = {
  background: 'background',
  'background-color': 'background',
  'background-image': 'background',
  color: 'text',
  'text-decoration-color': 'text',
  'accent-color': 'text',
  'caret-color': 'text',
  border: 'border',
  'border-color': 'border',
  'border-top': 'border',
  'border-bottom': 'border',
  'border-left': 'border',
  'border-right': 'border',
  'border-top-color': 'border',
  'border-bottom-color': 'border',
  'border-left-color': 'border',
  'border-right-color': 'border',
  outline: 'border',
  'outline-color': 'border',
  fill: 'fill',
  stroke: 'fill',
};

/** Weight of a colour by the role of what it styles and the property it sets. */
const ROLE_WEIGHTS: Record<UsageRole, Record<PropertyKind, number>> = {
  cta: { background: 6, text: 1, border: 3, fill: 2 },
  link: { background: 1.5, text: 4, border: 1.5, fill: 2 },
  heading: { background: 1.5, text: 2.5, border: 1, fill: 1 },
  header: { background: 4, text: 1.5, border: 1, fill: 2 },
  footer: { background: 2, text: 0.5, border: 0.5, fill: 1 },
  page: { background: 1, text: 0.5, border: 0.5, fill: 0.5 },
  other: { background: 1, text: 1, border: 1, fill: 1 },
};
const CUSTOM_PROPERTY_WEIGHT = 1.5;
const THEME_COLOR_WEIGHT = 5;
const LOGO_WEIGHT = 8;
/** A rule that matches nothing on the crawled pages may still style a page that was not crawled. */
const UNMATCHED_FACTOR = 0.25;
const STATE_FACTOR = 0.5;
/** Theme switches (.dark, [data-theme=dark]) restyle the page on request; the first view is what counts. */
const DARK_THEME = /dark/i;

/** The role a custom property's name announces; text and background win over "primary" (--text-primary). */
export function hintOf(name: string): ColorHint | undefined {
  const n = name.toLowerCase();
  if (/(^|[-_])(bg|background|surface|canvas|paper|backdrop)([-_]|$)/.test(n)) return 'background';
  if (/(^|[-_])(text|fg|foreground|ink|font|body-color|heading-color)([-_]|$)/.test(n)) return 'text';
  if (/secondary/.test(n)) return 'secondary';
  if (/accent|highlight|tertiary|(^|[-_])cta([-_]|$)/.test(n)) return 'accent';
  if (/(^|[-_])(brand|primary|main|theme|key)([-_]|$)/.test(n)) return 'primary';
  return undefined;
}

function hintsOf(names: readonly string[]): ColorHint[] {
  return [...new Set(names.map(hintOf).filter((h): h is ColorHint => h !== undefined))];
}

/** Weighted colour evidence from the site's CSS, its theme-color and the logo's own colours. */
export function colorEvidence(crawl: SiteCrawl, logoColors: readonly string[] = []): ColorEvidence[] {
  const css = siteCss(crawl);
  const usage = new UsageIndex(siteDocuments(crawl));
  const out: ColorEvidence[] = [];
  // Stylesheets repeat the same few values thousands of times; each is parsed once.
  const parsed = new Map<string, string[]>();
  const colorsOf = (value: string): string[] => {
    let colors = parsed.get(value);
    if (!colors) {
      colors = colorsIn(value);
      parsed.set(value, colors);
    }
    return colors;
  };

  for (const [name, values] of css.customProperties) {
    const used: string[] = [];
    const first = values[0];
    if (first === undefined) continue;
    const hex = colorsIn(resolveVars(first, css.customProperties, used))[0];
    if (!hex) continue;
    const hints = hintsOf([name, ...used]);
    out.push({
      hex,
      weight: CUSTOM_PROPERTY_WEIGHT,
      backgroundWeight: hints[0] === 'background' ? 3 : 0,
      hints,
      source: 'custom_property',
    });
  }

  for (const decl of css.declarations) {
    const kind = PROPERTY_KINDS[decl.property];
    if (!kind || DARK_THEME.test(decl.selector)) continue;
    const used: string[] = [];
    const colors = colorsOf(resolveVars(decl.value, css.customProperties, used));
    if (colors.length === 0) continue;
    const roles = selectorRoles(decl.selector);
    let factor = 1;
    if (decl.origin !== 'style_attribute') {
      const found = usage.usage(decl.selector);
      if (found) {
        for (const r of found.roles) roles.add(r);
        factor = found.matches === 0 ? UNMATCHED_FACTOR : Math.min(2, 1 + Math.log2(found.matches) / 4);
      }
    }
    if (isStateSelector(decl.selector)) factor *= STATE_FACTOR;
    if (roles.size === 0) roles.add('other');
    const weight = Math.max(...[...roles].map((r) => ROLE_WEIGHTS[r][kind])) * factor;
    const backgroundWeight = kind === 'background' && roles.has('page') ? 4 * factor : 0;
    const hints = hintsOf(used);
    // A gradient's or shorthand's colours share the use; the first one leads.
    colors.forEach((hex, i) =>
      out.push({
        hex,
        weight: weight / (i + 1),
        backgroundWeight: i === 0 ? backgroundWeight : 0,
        hints,
        source: 'css',
      }),
    );
  }

  const home = homeDocument(crawl);
  if (home) {
    home.$('meta[name="theme-color"]').each((_, el) => {
      const media = home.$(el).attr('media') ?? '';
      const hex = toHex(home.$(el).attr('content') ?? '');
      if (hex && !DARK_THEME.test(media))
        out.push({
          hex,
          weight: THEME_COLOR_WEIGHT,
          backgroundWeight: 0,
          hints: ['primary'],
          source: 'theme_color',
        });
    });
  }

  logoColors.forEach((color, i) => {
    const hex = toHex(color);
    if (hex) out.push({ hex, weight: LOGO_WEIGHT / (i + 1), backgroundWeight: 0, hints: [], source: 'logo' });
  });
  return out;
}
