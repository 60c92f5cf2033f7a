// A text colour for a given backing that keeps a hint of the brand: it starts as a near-black or near-white
// tinted with the brand hue and moves its OKLCH lightness toward the extreme, one step at a time, until it meets
// the contrast asked for against every colour it sits on. Pure black or white ends the walk; against one backing
// the better of the two always reaches 4.5:1 (their contrasts multiply to 21, so one is at least √21 ≈ 4.58).
import type { Oklch } from 'culori';
import { formatColor } from './color-value.ts';
import { contrastRatio } from './contrast.ts';

const DARK_START_L = 0.22;
const LIGHT_START_L = 0.985;
const TEXT_CHROMA = 0.02;
const L_STEP = 0.01;

const worstContrast = (color: string, backings: readonly string[]): number =>
  Math.min(...backings.map((backing) => contrastRatio(color, backing)));

/** The brand-tinted text colour readable on every one of `backings` at `minContrast`. */
export function readableOn(
  backings: readonly string[],
  hue: number | undefined,
  minContrast: number,
): string {
  const dark = worstContrast('#000000', backings) >= worstContrast('#FFFFFF', backings);
  const step = dark ? -L_STEP : L_STEP;
  const tint: Oklch = { mode: 'oklch', l: dark ? DARK_START_L : LIGHT_START_L, c: TEXT_CHROMA, h: hue };
  if (hue === undefined) tint.c = 0;
  for (let l = tint.l; l > 0 && l < 1; l += step) {
    const candidate = formatColor({ ...tint, l });
    if (worstContrast(candidate, backings) >= minContrast) return candidate;
  }
  return dark ? '#000000' : '#FFFFFF';
}
