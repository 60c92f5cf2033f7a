// Colour values read from CSS text: every CSS colour form (hex, rgb(), hsl(), hwb(), lab(), lch(),
// oklab(), oklch(), color(), named) normalized to #RRGGBB (src/brand/colors, on culori), plus the measures
// the brand palette is chosen by.
import * as csstree from 'css-tree';
import { colorsNamed, converter, parse } from 'culori';
import { formatColor } from '../colors/color-value.ts';
import { deltaE2000 } from '../colors/contrast.ts';

const COLOR_FUNCTIONS = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
]);
/** Below this opacity a colour is a tint or a shadow laid over something else, not a colour of its own. */
const MIN_ALPHA = 0.5;
/** LCh chroma under which a colour reads as grey (white, black and tinted greys included). */
const GREY_CHROMA = 12;

const toLch = converter('lch');

/** #RRGGBB (upper case) of a CSS colour, or undefined when it is not one or is mostly transparent. */
export function toHex(css: string): string | undefined {
  const color = parse(css.trim());
  if (!color || (color.alpha ?? 1) < MIN_ALPHA) return undefined;
  return formatColor(color);
}

/** Every colour a CSS value names, in order (a gradient or a shorthand can name several). */
export function colorsIn(value: string): string[] {
  const found: string[] = [];
  const ast = csstree.parse(value, { context: 'value', onParseError: () => undefined });
  csstree.walk(ast, {
    enter(this: csstree.WalkContext, node: csstree.CssNode) {
      let css: string | undefined;
      if (node.type === 'Hash') css = `#${node.value}`;
      else if (node.type === 'Identifier' && node.name.toLowerCase() in colorsNamed) css = node.name;
      else if (node.type === 'Function' && COLOR_FUNCTIONS.has(node.name.toLowerCase()))
        css = csstree.generate(node);
      else if (node.type === 'Url') return this.skip;
      if (css === undefined) return undefined;
      const hex = toHex(css);
      if (hex) found.push(hex);
      return this.skip;
    },
  });
  return found;
}

export function chroma(hex: string): number {
  return toLch(hex)?.c ?? 0;
}

export function lightness(hex: string): number {
  return toLch(hex)?.l ?? 0;
}

/** Greys, near-white and near-black: not brand colours unless a site has nothing else. */
export function isNearGrey(hex: string): boolean {
  return chroma(hex) < GREY_CHROMA;
}

/** CIEDE2000 colour difference: about 2 is barely visible, above 10 clearly another colour. */
export const deltaE = deltaE2000;
