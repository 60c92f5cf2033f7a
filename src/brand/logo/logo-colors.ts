// The logo's own colours. Histogram bins are grouped in OKLab, a perceptual space where a fixed distance looks
// like a fixed difference, by "leader" clustering: the most used bin founds a cluster, each following bin joins
// the nearest cluster within CLUSTER_RADIUS or founds its own. A cluster is reported by its most used bin, so a
// flat brand colour comes back exactly rather than averaged with its anti-aliased edge.
import { converter, formatHex } from 'culori';
import type { ColourBin, OpaquePixels } from './opaque-pixels.ts';

/** OKLab distance under which two colours are one logo colour (JPEG noise, anti-aliasing). */
export const CLUSTER_RADIUS = 0.08;
/** OKLCH chroma under which a colour is a grey (black, white and greys are not brand colours). */
export const GREY_MAX_CHROMA = 0.04;
/** A colour must cover at least this share of the logo to count. */
export const MIN_COLOUR_SHARE = 0.02;
export const MAX_LOGO_COLOURS = 6;

const toOklab = converter('oklab');

export interface ColourCluster {
  /** Share of the logo's opaque pixels, 0–1. */
  share: number;
  /** The cluster's most used colour, `#RRGGBB`. */
  hex: string;
  /** OKLCH chroma of that colour. */
  chroma: number;
}

interface Growing {
  count: number;
  l: number;
  a: number;
  b: number;
  mode: ColourBin;
}

const rgb = (bin: ColourBin) => ({ mode: 'rgb' as const, r: bin.r / 255, g: bin.g / 255, b: bin.b / 255 });

/** Clusters of the opaque pixels, greys included, most used first. */
export function colourClusters(pixels: OpaquePixels): ColourCluster[] {
  const clusters: Growing[] = [];
  for (const bin of pixels.bins) {
    const { l, a, b } = toOklab(rgb(bin));
    let nearest: Growing | null = null;
    let nearestDistance = CLUSTER_RADIUS;
    for (const cluster of clusters) {
      const distance = Math.hypot(cluster.l - l, cluster.a - a, cluster.b - b);
      if (distance <= nearestDistance) {
        nearest = cluster;
        nearestDistance = distance;
      }
    }
    if (!nearest) {
      clusters.push({ count: bin.count, l, a, b, mode: bin });
      continue;
    }
    const count = nearest.count + bin.count;
    nearest.l += ((l - nearest.l) * bin.count) / count;
    nearest.a += ((a - nearest.a) * bin.count) / count;
    nearest.b += ((b - nearest.b) * bin.count) / count;
    nearest.count = count;
  }
  return clusters
    .sort((x, y) => y.count - x.count)
    .map((cluster) => {
      const { a, b } = toOklab(rgb(cluster.mode));
      return {
        share: cluster.count / pixels.total,
        hex: formatHex(rgb(cluster.mode)).toUpperCase(),
        chroma: Math.hypot(a, b),
      };
    });
}

/** The logo's brand colours: clusters that are not grey and not a speck, most used first, `#RRGGBB`. */
export function brandColours(clusters: ColourCluster[]): string[] {
  return clusters
    .filter((c) => c.chroma >= GREY_MAX_CHROMA && c.share >= MIN_COLOUR_SHARE)
    .slice(0, MAX_LOGO_COLOURS)
    .map((c) => c.hex);
}
