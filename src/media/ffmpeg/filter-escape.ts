// Escaping of values placed inside an ffmpeg filter graph string.
//
// A value is unescaped twice: first by the graph parser (which splits on `[ ] , ;`), then by the
// filter's option parser (which splits on `:`). Both honour backslash escapes and single quotes, so we
// backslash-escape for the option level first and then escape that result for the graph level.

function backslashEscape(value: string, special: string): string {
  let out = '';
  for (const ch of value) out += special.includes(ch) ? `\\${ch}` : ch;
  return out;
}

/** Escapes one option value (a path, a text) for use as `key=<value>` inside `-filter_complex`. */
export function escapeFilterValue(value: string): string {
  // Whitespace is escaped too: both parsers trim unescaped leading/trailing whitespace.
  const optionLevel = backslashEscape(value, "\\': \t");
  return backslashEscape(optionLevel, "\\'[],; \t");
}

/** `#RRGGBB` → ffmpeg colour syntax `0xRRGGBB`, validating the input. */
export function ffmpegColor(hex: string): string {
  const match = /^#([0-9a-fA-F]{6})$/.exec(hex);
  if (!match?.[1]) throw new RangeError(`colour must be #RRGGBB, got ${JSON.stringify(hex)}`);
  return `0x${match[1].toUpperCase()}`;
}

/** Short decimal for filter arguments: at most `digits` decimals, no trailing zeros. */
export function num(value: number, digits = 6): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const fixed = value.toFixed(digits);
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}
