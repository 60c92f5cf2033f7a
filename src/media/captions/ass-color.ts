// Colour conversion from the API's #RRGGBB to ASS subtitle colour syntax (byte order BGR, alpha inverted).

interface Rgb {
  r: string;
  g: string;
  b: string;
}

function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(hex);
  if (!match?.[1] || !match[2] || !match[3])
    throw new RangeError(`colour must be #RRGGBB, got ${JSON.stringify(hex)}`);
  return { r: match[1].toUpperCase(), g: match[2].toUpperCase(), b: match[3].toUpperCase() };
}

/** True for a well-formed #RRGGBB string. */
export function isHexColor(value: string): boolean {
  return /^#[0-9a-fA-F]{6}$/.test(value);
}

/**
 * Style-line colour `&HAABBGGRR`. `opacity` is 0–1; ASS stores transparency, so opacity 1 is alpha 00.
 */
export function assColor(hex: string, opacity = 1): string {
  const { r, g, b } = parseHex(hex);
  const clamped = Math.min(1, Math.max(0, opacity));
  const alpha = Math.round((1 - clamped) * 255)
    .toString(16)
    .toUpperCase()
    .padStart(2, '0');
  return `&H${alpha}${b}${g}${r}`;
}

/** Override-tag colour `&HBBGGRR&`, as used in `{\1c...}`. */
export function assInlineColor(hex: string): string {
  const { r, g, b } = parseHex(hex);
  return `&H${b}${g}${r}&`;
}
