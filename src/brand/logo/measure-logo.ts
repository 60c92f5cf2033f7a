// The measured properties a renderer chooses placement and backing by (spec 2 §2.4 `logo`).
import { wcagLuminance } from 'culori';
import type { ColourCluster } from './logo-colors.ts';
import type { LogoAspectClass, LogoLuminance } from './normalized-logo.ts';
import type { OpaquePixels } from './opaque-pixels.ts';

/** Wider than 3:2 is a wordmark, taller than 2:3 is tall, anything between reads as an icon. */
export const WORDMARK_MIN_RATIO = 1.5;
export const TALL_MAX_RATIO = 1 / 1.5;
/**
 * A colour is "light" when it contrasts more with black than with white (WCAG relative luminance above
 * ~0.179, where the two contrasts are equal): it needs a dark backing.
 */
const LIGHT_MIN_RELATIVE_LUMINANCE = Math.sqrt(1.05 * 0.05) - 0.05;
/** A logo is light (or dark) when at least this share of its opaque pixels is. */
const LUMINANCE_MAJORITY = 0.8;
/** A logo is monochrome when one colour covers at least this share of it (the rest is anti-aliasing). */
const MONOCHROME_SHARE = 0.95;

export interface PixelMeasurements {
  aspect_ratio: number;
  aspect_class: LogoAspectClass;
  luminance: LogoLuminance;
  mean_luma: number;
  monochrome: boolean;
}

export function aspectClass(ratio: number): LogoAspectClass {
  if (ratio > WORDMARK_MIN_RATIO) return 'wordmark';
  if (ratio < TALL_MAX_RATIO) return 'tall';
  return 'icon';
}

function luminanceClass(pixels: OpaquePixels): LogoLuminance {
  let light = 0;
  for (const bin of pixels.bins) {
    const y = wcagLuminance({ mode: 'rgb', r: bin.r / 255, g: bin.g / 255, b: bin.b / 255 });
    if (y > LIGHT_MIN_RELATIVE_LUMINANCE) light += bin.count;
  }
  const share = light / pixels.total;
  if (share >= LUMINANCE_MAJORITY) return 'light';
  if (share <= 1 - LUMINANCE_MAJORITY) return 'dark';
  return 'mixed';
}

export function measurePixels(
  width: number,
  height: number,
  pixels: OpaquePixels,
  clusters: ColourCluster[],
): PixelMeasurements {
  const ratio = width / height;
  return {
    aspect_ratio: Math.round(ratio * 1000) / 1000,
    aspect_class: aspectClass(ratio),
    luminance: luminanceClass(pixels),
    mean_luma: Math.round(pixels.meanLuma * 10) / 10,
    monochrome: (clusters[0]?.share ?? 0) >= MONOCHROME_SHARE,
  };
}
