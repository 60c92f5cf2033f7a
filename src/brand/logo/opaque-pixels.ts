// One pass over a logo's opaque pixels: a colour histogram (5 bits per channel) and the luma sum. Everything the
// measurements and the colour extraction need is read from this, so a 2048² logo is walked once.
import type { RgbaImage } from './rgba-image.ts';

/** Pixels at least this opaque are "the logo"; fainter ones are anti-aliasing or shadow. */
export const OPAQUE_ALPHA = 128;

export interface ColourBin {
  count: number;
  /** Mean colour of the pixels in the bin, 0–255 per channel. */
  r: number;
  g: number;
  b: number;
}

export interface OpaquePixels {
  total: number;
  /** Mean Rec. 709 luma (0–255) of the opaque pixels, 0 when there are none. */
  meanLuma: number;
  /** Non-empty bins, most populated first. */
  bins: ColourBin[];
}

const BINS = 1 << 15;

export function opaquePixels(image: RgbaImage): OpaquePixels {
  const { data } = image;
  const counts = new Uint32Array(BINS);
  const sums = new Float64Array(BINS * 3);
  let total = 0;
  let lumaSum = 0;
  for (let o = 0; o < data.length; o += 4) {
    if (data[o + 3]! < OPAQUE_ALPHA) continue;
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    counts[key]! += 1;
    sums[key * 3]! += r;
    sums[key * 3 + 1]! += g;
    sums[key * 3 + 2]! += b;
    total += 1;
    lumaSum += 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const bins: ColourBin[] = [];
  for (let key = 0; key < BINS; key++) {
    const count = counts[key]!;
    if (count === 0) continue;
    bins.push({
      count,
      r: sums[key * 3]! / count,
      g: sums[key * 3 + 1]! / count,
      b: sums[key * 3 + 2]! / count,
    });
  }
  bins.sort((a, b) => b.count - a.count);
  return { total, meanLuma: total === 0 ? 0 : lumaSum / total, bins };
}
