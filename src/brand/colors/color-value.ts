// Colours cross module boundaries as `#RRGGBB` strings (the spec's form). This is the one place they are parsed
// and formatted, so every module agrees on case and on what counts as a colour.
import { clampChroma, formatHex, parse, type Color } from 'culori';

/** Any CSS colour culori can read, as `#RRGGBB`; null when it is not a colour. */
export function toHexColor(value: string): string | null {
  const color = parse(value.trim());
  return color ? formatColor(color) : null;
}

/** Parses a CSS colour, throwing RangeError for anything else (callers pass validated input). */
export function parseColor(value: string): Color {
  const color = parse(value.trim());
  if (!color) throw new RangeError(`not a colour: ${JSON.stringify(value)}`);
  return color;
}

/** `#RRGGBB`, reducing chroma first (in OKLCH) when the colour lies outside sRGB, so hue and lightness survive. */
export function formatColor(color: Color): string {
  return formatHex(clampChroma(color, 'oklch')).toUpperCase();
}
