// The brand palette (primary, secondary, accent, background) chosen from weighted colour evidence:
// shades that look alike are pooled, named roles (--primary, --accent, theme-color) lead, and greys are
// brand colours only when a site has nothing else.
import { interpolate } from 'culori';
import { formatColor } from '../colors/color-value.ts';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import type { BrandColors } from './brand-profile.ts';
import { DEFAULT_COLORS } from './default-colors.ts';
import { colorEvidence, type ColorEvidence, type ColorHint } from './color-evidence.ts';
import { chroma, deltaE, isNearGrey, lightness } from './color-values.ts';

export { DEFAULT_COLORS };

/** Colours closer than this (CIEDE2000) are one colour: a hover shade, a rounding difference. */
const SAME_COLOR = 8;
/** Palette colours at least this far apart, so secondary and accent are not the primary again. */
const DISTINCT_COLOR = 12;
/** A role named by a custom property (or theme-color) outweighs this much plain usage. */
const HINT_BONUS = 10;
/** Less use than one ordinary rule on the pages (say, a framework's unused alert colour) is no brand colour. */
const MIN_WEIGHT = 1;

export interface ColorCluster {
  /** The heaviest single colour of the cluster. */
  hex: string;
  weight: number;
  hints: Record<ColorHint, number>;
}

/** Pools evidence into clusters of near-identical colours, heaviest first. */
export function clusterColors(evidence: readonly ColorEvidence[]): ColorCluster[] {
  const byHex = new Map<string, ColorEvidence[]>();
  for (const e of evidence) {
    const items = byHex.get(e.hex);
    if (items) items.push(e);
    else byHex.set(e.hex, [e]);
  }
  const singles = [...byHex.entries()]
    .map(([hex, items]) => ({ hex, items, weight: items.reduce((s, e) => s + e.weight, 0) }))
    .sort((a, b) => b.weight - a.weight || a.hex.localeCompare(b.hex));
  const clusters: ColorCluster[] = [];
  for (const single of singles) {
    let cluster = clusters.find((c) => deltaE(c.hex, single.hex) < SAME_COLOR);
    if (!cluster) {
      cluster = {
        hex: single.hex,
        weight: 0,
        hints: { primary: 0, secondary: 0, accent: 0, background: 0, text: 0 },
      };
      clusters.push(cluster);
    }
    for (const e of single.items) {
      cluster.weight += e.weight;
      for (const h of e.hints) cluster.hints[h] += e.weight;
    }
  }
  return clusters.sort((a, b) => b.weight - a.weight || a.hex.localeCompare(b.hex));
}

function best(
  clusters: readonly ColorCluster[],
  score: (c: ColorCluster) => number,
): ColorCluster | undefined {
  let top: { c: ColorCluster; s: number } | undefined;
  for (const c of clusters) {
    const s = score(c);
    if (s > 0 && (!top || s > top.s)) top = { c, s };
  }
  return top?.c;
}

/** A role's score: usage plus a bonus when a name or the theme-color gave the colour that role. */
const roleScore =
  (role: ColorHint) =>
  (c: ColorCluster): number =>
    c.weight +
    (c.hints[role] > 0 ? HINT_BONUS + c.hints[role] : 0) -
    (c.hints.text > c.weight / 2 ? c.weight / 2 : 0);

/** A lighter shade of a dark colour, a darker one of a light colour: the secondary of a one-colour site. */
function shadeOf(hex: string): string {
  const toward = lightness(hex) > 50 ? '#000000' : '#FFFFFF';
  return formatColor(interpolate([hex, toward], 'rgb')(0.35));
}

/**
 * Picks the palette:
 * - background: given (pageBackground);
 * - primary: the best chromatic colour (usage, with a bonus for --brand/--primary/theme-color);
 * - accent and secondary: the next distinct chromatic colours, a name (--accent, --secondary) leading,
 *   else the more saturated of the next two is the accent;
 * - when colours run out: greys stand in (a site with no chromatic colour), then a shade of the primary
 *   for secondary and the primary itself for accent.
 */
export function choosePalette(clusters: readonly ColorCluster[], background: string): BrandColors {
  const notBackground = clusters.filter((c) => deltaE(c.hex, background) >= DISTINCT_COLOR);
  const chromatic = notBackground.filter((c) => !isNearGrey(c.hex));
  const greys = notBackground.filter((c) => isNearGrey(c.hex));

  const primaryCluster = best(chromatic, roleScore('primary')) ?? best(greys, roleScore('primary'));
  if (!primaryCluster) return { ...DEFAULT_COLORS, background };
  const primary = primaryCluster.hex;
  const distinct = (c: ColorCluster, from: string[]): boolean =>
    from.every((h) => deltaE(c.hex, h) >= DISTINCT_COLOR);
  const rest = chromatic.filter(
    (c) => distinct(c, [primary]) && (c.weight >= MIN_WEIGHT || c.hints.accent + c.hints.secondary > 0),
  );

  let accent = best(rest, (c) => (c.hints.accent > 0 ? roleScore('accent')(c) : 0));
  let secondary = best(
    rest.filter((c) => c !== accent),
    (c) => (c.hints.secondary > 0 ? roleScore('secondary')(c) : 0),
  );
  const unnamed = rest.filter((c) => c !== accent && c !== secondary);
  if (!accent && !secondary) {
    const [a, b] = unnamed;
    if (a && b) [accent, secondary] = chroma(a.hex) >= chroma(b.hex) ? [a, b] : [b, a];
    else accent = a;
  } else if (!accent) accent = unnamed[0];
  else if (!secondary) secondary = unnamed[0];

  const taken = [primary, accent?.hex].filter((h): h is string => h !== undefined);
  secondary ??= greys.find((c) => distinct(c, taken));
  return {
    primary,
    secondary: secondary?.hex ?? shadeOf(primary),
    accent: accent?.hex ?? primary,
    background,
  };
}

/**
 * The page background: the exact colour with the most page-background use (not its cluster's heaviest
 * member: an off-white page and white cards are one cluster, but the page is the off-white).
 */
export function pageBackground(evidence: readonly ColorEvidence[]): string {
  const totals = new Map<string, number>();
  for (const e of evidence)
    if (e.backgroundWeight > 0) totals.set(e.hex, (totals.get(e.hex) ?? 0) + e.backgroundWeight);
  let best: [string, number] | undefined;
  for (const entry of totals) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0] ?? DEFAULT_COLORS.background;
}

/** The brand palette of a crawled site, with the logo's pixel colours (dominant first) as evidence. */
export function extractColors(crawl: SiteCrawl, logoColors: readonly string[] = []): BrandColors {
  const evidence = colorEvidence(crawl, logoColors);
  return choosePalette(clusterColors(evidence), pageBackground(evidence));
}
