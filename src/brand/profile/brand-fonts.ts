// The brand's headline and body fonts, from the font-family of its headings and body text, its Google
// Fonts links and its @font-face rules, each checked against the Google Fonts catalogue. A family that is
// not a web font (a system stack, a proprietary face) gives way to a safe web default.
import * as csstree from 'css-tree';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import type { BrandFonts } from './brand-profile.ts';
import { googleFont, SAFE_DEFAULTS, systemFamilyKind, type CatalogueFont } from './font-catalogue.ts';
import { resolveVars, siteCss, stringOrIdent, type CssDeclaration } from './site-css.ts';
import { absoluteUrl, baseUrlOf, siteDocuments } from './site-documents.ts';
import { selectorRoles, UsageIndex } from './usage-roles.ts';

/** Hosts that serve the Google Fonts CSS API (Bunny Fonts mirrors it). */
const FONT_API_HOSTS = new Set(['fonts.googleapis.com', 'fonts.bunny.net']);
/** Values of font-family that name no family. */
const CSS_WIDE = new Set([
  'inherit',
  'initial',
  'unset',
  'revert',
  'revert-layer',
  'caption',
  'icon',
  'menu',
  'message-box',
  'small-caption',
  'status-bar',
]);

export interface FontChoice {
  /** The family to use: the site's own when it is a web font, else a safe default. */
  family: string;
  /** The family the site declared for this slot (first of its stack), if any. */
  declared: string | null;
  /** 'google': the family is in the Google Fonts catalogue; 'default': a safe web default stands in. */
  source: 'google' | 'default';
}

export interface FontReport {
  headline: FontChoice;
  body: FontChoice;
  /** Families named by Google Fonts links and @import rules, in page order. */
  googleFontLinks: string[];
  /** Families declared by @font-face rules. */
  fontFaces: string[];
}

/** Family names requested by a Google Fonts CSS URL (css2: one `family` per face; css: `|`-separated). */
export function googleFontsFamilies(href: string): string[] {
  let url: URL;
  try {
    url = new URL(href, 'https://fonts.googleapis.com/');
  } catch {
    return [];
  }
  if (!FONT_API_HOSTS.has(url.hostname) || !/^\/css2?$/.test(url.pathname)) return [];
  const values = url.searchParams.getAll('family');
  const specs = url.pathname === '/css2' ? values : values.flatMap((v) => v.split('|'));
  return specs.map((spec) => spec.split(':')[0]!.replace(/\+/g, ' ').trim()).filter(Boolean);
}

/** The family names of a font-family value, or of the family part of a `font` shorthand. */
export function familyStack(value: string, shorthand = false): string[] {
  const ast = csstree.parse(value, { context: 'value', onParseError: () => undefined });
  if (ast.type !== 'Value') return [];
  const groups: csstree.CssNode[][] = [[]];
  for (const node of ast.children) {
    if (node.type === 'Operator' && node.value === ',') groups.push([]);
    else groups.at(-1)!.push(node);
  }
  return groups
    .map((group, i) => {
      let nodes = group;
      // In the shorthand, the first family is the run of names after the size (and line height).
      if (shorthand && i === 0) {
        const last = nodes.findLastIndex((n) => stringOrIdent(n) === undefined);
        nodes = nodes.slice(last + 1);
      }
      if (nodes.length === 0 || nodes.some((n) => stringOrIdent(n) === undefined)) return '';
      return nodes
        .map((n) => stringOrIdent(n)!)
        .join(' ')
        .trim();
    })
    .filter((f) => f !== '' && !CSS_WIDE.has(f.toLowerCase()));
}

/**
 * The web font a stack resolves to: the first Google font before any system or generic family (a stack
 * that starts with a proprietary face may name a Google font as its own fallback). A system family ends
 * the search: the site asked for the visitor's system font, which is no web font.
 */
function resolveStack(stack: readonly string[]): { font?: string; kind: 'sans-serif' | 'serif' } {
  for (const family of stack) {
    const system = systemFamilyKind(family);
    if (system) return { kind: system === 'serif' ? 'serif' : 'sans-serif' };
    const google = googleFont(family);
    if (google) return { font: google.family, kind: google.category === 'serif' ? 'serif' : 'sans-serif' };
  }
  return { kind: 'sans-serif' };
}

interface StackUse {
  stack: string[];
  priority: number;
  order: number;
}

function pick(uses: readonly StackUse[]): string[] | undefined {
  let best: StackUse | undefined;
  // The most specific place wins; among equals, the later declaration, as in the cascade.
  for (const use of uses) if (!best || use.priority >= best.priority) best = use;
  return best?.stack;
}

function declaredStacks(crawl: SiteCrawl): { heading: StackUse[]; body: StackUse[] } {
  const css = siteCss(crawl);
  const usage = new UsageIndex(siteDocuments(crawl));
  const heading: StackUse[] = [];
  const body: StackUse[] = [];
  css.declarations.forEach((decl: CssDeclaration, order) => {
    if (decl.property !== 'font-family' && decl.property !== 'font') return;
    const stack = familyStack(resolveVars(decl.value, css.customProperties), decl.property === 'font');
    if (stack.length === 0) return;
    const parts = decl.selector.split(',').map((p) => p.trim().toLowerCase());
    const roles = selectorRoles(decl.selector);
    const used = decl.origin === 'style_attribute' ? undefined : usage.usage(decl.selector);
    if (parts.some((p) => /^h[1-3]$/.test(p))) heading.push({ stack, priority: 3, order });
    else if (roles.has('heading') || used?.roles.has('heading')) heading.push({ stack, priority: 2, order });
    if (parts.includes('body')) body.push({ stack, priority: 3, order });
    else if (parts.some((p) => p === 'html' || p === ':root')) body.push({ stack, priority: 2, order });
    else if (parts.some((p) => p === 'p' || p === 'main')) body.push({ stack, priority: 1, order });
  });
  return { heading, body };
}

function linkedGoogleFonts(crawl: SiteCrawl): string[] {
  const families: string[] = [];
  for (const doc of siteDocuments(crawl)) {
    const base = baseUrlOf(doc);
    doc.$('link[href]').each((_, el) => {
      const href = absoluteUrl(doc.$(el).attr('href'), base);
      if (href) families.push(...googleFontsFamilies(href));
    });
  }
  for (const url of siteCss(crawl).imports) families.push(...googleFontsFamilies(url));
  return [...new Set(families)];
}

function choice(
  slot: 'headline' | 'body',
  stack: readonly string[] | undefined,
  loaded: readonly CatalogueFont[],
): FontChoice {
  if (stack) {
    const { font, kind } = resolveStack(stack);
    if (font) return { family: font, declared: stack[0] ?? null, source: 'google' };
    return { family: SAFE_DEFAULTS[kind][slot], declared: stack[0] ?? null, source: 'default' };
  }
  // No rule names a family for this slot: a web font the site loads is the best evidence left; body
  // text is set in a text face, not a display or handwriting one.
  const text = loaded.find((f) => f.category === 'sans-serif' || f.category === 'serif');
  const found = slot === 'body' ? text : loaded[0];
  if (found) return { family: found.family, declared: found.family, source: 'google' };
  return { family: SAFE_DEFAULTS['sans-serif'][slot], declared: null, source: 'default' };
}

/** The headline and body fonts of a crawled site, with where each came from. */
export function extractFonts(crawl: SiteCrawl): FontReport {
  const css = siteCss(crawl);
  const googleFontLinks = linkedGoogleFonts(crawl);
  const fontFaces = css.fontFaces;
  // Web fonts the site loads, whether from Google's servers or self-hosted copies of Google fonts.
  const loaded = [...googleFontLinks, ...fontFaces]
    .map((f) => googleFont(f))
    .filter((f): f is CatalogueFont => f !== undefined)
    .filter((f, i, all) => all.findIndex((g) => g.family === f.family) === i);
  const stacks = declaredStacks(crawl);
  const bodyStack = pick(stacks.body);
  const headingStack = pick(stacks.heading);
  const body = choice('body', bodyStack, loaded);
  let headline: FontChoice;
  if (headingStack) headline = choice('headline', headingStack, loaded);
  else {
    // Headings not styled apart show in the body font, unless the site loads a second web font for them.
    const other = loaded.find((f) => f.family !== body.family);
    headline = other
      ? { family: other.family, declared: other.family, source: 'google' }
      : body.source === 'google'
        ? body
        : choice('headline', bodyStack, []);
  }
  return { headline, body, googleFontLinks, fontFaces };
}

export function brandFonts(report: FontReport): BrandFonts {
  return { headline: report.headline.family, body: report.body.family };
}
