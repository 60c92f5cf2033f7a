// Small builders of ffmpeg expression and option strings shared by the footage families.

export type Rgb = readonly [number, number, number];

/** '#rrggbb' → [r, g, b] in 0–255. */
export function hexToRgb(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

/** '#rrggbb' → '0xrrggbb', the colour syntax of ffmpeg options. */
export function ffColor(hex: string): string {
  hexToRgb(hex);
  return `0x${hex.slice(1).toLowerCase()}`;
}

/** Rounds to at most `digits` decimals and drops trailing zeros, so expressions stay short and exact. */
export function num(value: number, digits = 4): string {
  const rounded = Number(value.toFixed(digits));
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/**
 * A lutrgb expression for one channel mapping `val` (0–255) through evenly spaced colour stops,
 * linearly between neighbours: the palette lookup that turns a grey field into colour.
 */
export function colormapChannelExpr(stops: readonly number[]): string {
  if (stops.length < 2) throw new Error('a colour map needs at least two stops');
  const step = 255 / (stops.length - 1);
  const segment = (i: number): string => {
    const from = stops[i]!;
    const to = stops[i + 1]!;
    const start = num(i * step, 2);
    const slope = num((to - from) / step, 5);
    return i === 0 ? `${from}+${slope}*val` : `${from}+${slope}*(val-${start})`;
  };
  let expr = segment(stops.length - 2);
  for (let i = stops.length - 3; i >= 0; i--)
    expr = `if(lt(val,${num((i + 1) * step, 2)}),${segment(i)},${expr})`;
  return expr;
}

/** A lutrgb filter mapping grey levels through the palette `colors` (dark to light). */
export function colormapFilter(colors: readonly string[]): string {
  const rgb = colors.map(hexToRgb);
  const channel = (c: 0 | 1 | 2): string => colormapChannelExpr(rgb.map((v) => v[c]));
  return `lutrgb=r='${channel(0)}':g='${channel(1)}':b='${channel(2)}'`;
}

/**
 * A stateless pseudo-random value in [0,1) for integer coordinates (the classic shader hash), so a
 * field drawn from it is the same on every run and thread count. Uses expression register 9; the
 * `;` sequence fixes the order in which the register is written and read.
 */
export function hashExpr(x: string, y: string, seed: number): string {
  return `(st(9,sin((${x})*12.9898+(${y})*78.233+${seed})*43758.5453);ld(9)-floor(ld(9)))`;
}

/** Phase in radians that completes exactly `turns` cycles over `periodSec`: motion that loops seamlessly. */
export function loopPhase(periodSec: number, turns = 1, time = 'T'): string {
  return `(${num((2 * Math.PI * turns) / periodSec, 6)}*${time})`;
}
