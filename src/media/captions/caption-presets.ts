// The product's stock caption presets, built from the caption fields of a render request.
import { FALLBACK_FONT_FAMILY } from '../fonts/font-catalogue.ts';
import { isHexColor } from './ass-color.ts';
import { withCaptionFont } from './caption-font.ts';
import {
  FONT_SIZES,
  type CaptionFontSize,
  type CaptionPosition,
  type CaptionStyle,
} from './caption-style.ts';

export type CaptionPresetName = 'highlight' | 'classic' | 'none';

/** Caption fields as they arrive in the API request. */
export interface CaptionOptions {
  text_color?: string;
  highlight_color?: string;
  position?: CaptionPosition;
  font_size?: CaptionFontSize;
}

export interface CaptionRequest extends CaptionOptions {
  style: CaptionPresetName;
}

export const DEFAULT_TEXT_COLOR = '#FFFFFF';
export const DEFAULT_HIGHLIGHT_COLOR = '#FFD60A';

function color(value: string | undefined, fallback: string, field: string): string {
  if (value === undefined) return fallback;
  if (!isHexColor(value)) throw new RangeError(`${field} must be #RRGGBB, got ${JSON.stringify(value)}`);
  return value.toUpperCase();
}

/**
 * 1–3 word chunks; the spoken word in the highlight colour. Drawn in `fontFamily` (a brand's font) when the
 * font catalogue has it, else in the fallback family.
 */
export function highlightPreset(options: CaptionOptions = {}, fontFamily?: string | null): CaptionStyle {
  return withCaptionFont(
    {
      fontFamily: FALLBACK_FONT_FAMILY,
      fontSize: FONT_SIZES[options.font_size ?? 'large'],
      bold: true,
      italic: false,
      uppercase: false,
      letterSpacing: 0,
      primaryColor: color(options.text_color, DEFAULT_TEXT_COLOR, 'text_color'),
      highlightColor: color(options.highlight_color, DEFAULT_HIGHLIGHT_COLOR, 'highlight_color'),
      outlineColor: '#000000',
      border: 'outline',
      outlineWidth: 6,
      shadowDepth: 3,
      shadowColor: '#000000',
      shadowOpacity: 0.5,
      position: options.position ?? 'lower_third',
      chunking: { maxWords: 3, maxChars: 20, maxPauseSec: 0.6, breakOnClause: false },
      animation: 'highlight',
    },
    fontFamily,
  );
}

/** Bold upper-case phrases of up to ~6 words / 30 characters, no per-word colour; font as highlightPreset. */
export function classicPreset(options: CaptionOptions = {}, fontFamily?: string | null): CaptionStyle {
  const textColor = color(options.text_color, DEFAULT_TEXT_COLOR, 'text_color');
  return withCaptionFont(
    {
      fontFamily: FALLBACK_FONT_FAMILY,
      fontSize: FONT_SIZES[options.font_size ?? 'medium'],
      bold: true,
      italic: false,
      uppercase: true,
      letterSpacing: 0,
      primaryColor: textColor,
      highlightColor: color(options.highlight_color, textColor, 'highlight_color'),
      outlineColor: '#000000',
      border: 'outline',
      outlineWidth: 5,
      shadowDepth: 2,
      shadowColor: '#000000',
      shadowOpacity: 0.5,
      position: options.position ?? 'lower_third',
      chunking: { maxWords: 6, maxChars: 30, maxPauseSec: 0.6, breakOnClause: true },
      animation: 'none',
    },
    fontFamily,
  );
}

/**
 * The caption style for a request, or null when the request asks for no captions. `fontFamily` is the brand
 * kit's font, used when the font catalogue has it (see highlightPreset).
 */
export function captionStyleFromRequest(
  request: CaptionRequest,
  fontFamily?: string | null,
): CaptionStyle | null {
  const { style, ...options } = request;
  switch (style) {
    case 'highlight':
      return highlightPreset(options, fontFamily);
    case 'classic':
      return classicPreset(options, fontFamily);
    case 'none':
      return null;
  }
}
