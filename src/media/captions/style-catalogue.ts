// The caption style catalogue (spec 2 §4.6): 63 named looks in five categories, written as data over
// CaptionStyle so buildAss renders every one of them without per-preset code.
import { findFontFamily } from '../fonts/font-catalogue.ts';
import { isHexColor } from './ass-color.ts';
import { withCaptionFont } from './caption-font.ts';
import type { CaptionChunking, CaptionStyle } from './caption-style.ts';

export type CaptionStyleCategory = 'default' | 'neon' | 'bold' | 'karaoke-highlighted' | 'branded';

export const CAPTION_STYLE_CATEGORIES: readonly CaptionStyleCategory[] = [
  'default',
  'neon',
  'bold',
  'karaoke-highlighted',
  'branded',
];

/** Where a branded preset takes a colour from: a brand colour, or black/white readable on it. */
export type BrandColorSource = 'primary' | 'accent' | 'on-primary' | 'on-accent';
export type BrandableColor = 'primaryColor' | 'highlightColor' | 'outlineColor' | 'shadowColor';

export interface CaptionStylePreset {
  /** Stable kebab-case id, as accepted by `caption_style`. */
  id: string;
  name: string;
  category: CaptionStyleCategory;
  description: string;
  /** The look as rendered; for branded presets, with the default brand colours and the preset's own font. */
  style: CaptionStyle;
  /** Branded presets only: which colours of `style` a brand replaces (a brand's font replaces the font). */
  brandColors?: Readonly<Partial<Record<BrandableColor, BrandColorSource>>>;
}

export interface CaptionBrandColors {
  primaryColor?: string;
  accentColor?: string;
}

/** What branded presets take from a brand: its two colours and its font. */
export interface CaptionBrand extends CaptionBrandColors {
  /** Any family name; used when the font catalogue has it (src/media/fonts/font-catalogue.ts). */
  fontFamily?: string | null;
}

/** A brand as branded presets use it: valid colours (or the defaults) and a catalogue family or null. */
export interface ResolvedCaptionBrand extends Required<CaptionBrandColors> {
  /** null when no font was given or it is not one we have: each preset keeps its own font. */
  fontFamily: string | null;
}

/** The brand colours branded presets use when no brand (or no valid colour) is given. */
export const DEFAULT_BRAND_COLORS: Readonly<Required<CaptionBrandColors>> = {
  primaryColor: '#2563EB',
  accentColor: '#F59E0B',
};

const BASE: CaptionStyle = {
  fontFamily: 'DejaVu Sans',
  fontSize: 80,
  bold: true,
  italic: false,
  uppercase: false,
  letterSpacing: 0,
  primaryColor: '#FFFFFF',
  highlightColor: '#FFD60A',
  outlineColor: '#000000',
  border: 'outline',
  outlineWidth: 5,
  shadowDepth: 2,
  shadowColor: '#000000',
  shadowOpacity: 0.5,
  position: 'lower_third',
  chunking: chunk(4, 24),
  animation: 'none',
};

/** Chunking with the catalogue's usual pause and clause rules. */
function chunk(maxWords: number, maxChars: number): CaptionChunking {
  return { maxWords, maxChars, maxPauseSec: 0.6, breakOnClause: true };
}

type Look = Partial<Omit<CaptionStyle, 'chunking'>> & { words: number; chars: number };

function preset(
  category: CaptionStyleCategory,
  id: string,
  name: string,
  description: string,
  look: Look,
  brandColors?: CaptionStylePreset['brandColors'],
): CaptionStylePreset {
  const { words, chars, ...fields } = look;
  return {
    id,
    name,
    category,
    description,
    style: { ...BASE, ...fields, chunking: chunk(words, chars) },
    ...(brandColors ? { brandColors } : {}),
  };
}

// Neon: pale text with a thick outline in the tube colour, blurred into a glow.
function neon(text: string, tube: string): Partial<CaptionStyle> {
  return {
    primaryColor: text,
    outlineColor: tube,
    outlineWidth: 7,
    blur: 9,
    shadowDepth: 0,
    shadowOpacity: 0,
  };
}

// A box behind the text in `color`; `padding` is the box margin around the glyphs.
function box(color: string, opacity: number, padding: number): Partial<CaptionStyle> {
  return {
    border: 'box',
    outlineColor: color,
    outlineOpacity: opacity,
    outlineWidth: padding,
    shadowDepth: 0,
    shadowOpacity: 0,
  };
}

// Word-box looks: outlined text; the spoken word sits on a box in the highlight colour.
function wordBox(highlight: string): Partial<CaptionStyle> {
  return { highlightColor: highlight, outlineWidth: 5, shadowDepth: 2, animation: 'word-box' };
}

const DEFAULT_PRESETS: CaptionStylePreset[] = [
  preset(
    'default',
    'clean-white',
    'Clean White',
    'White sans-serif with a black outline; the everyday look.',
    {
      fontSize: 76,
      words: 4,
      chars: 24,
    },
  ),
  preset(
    'default',
    'subtitle-classic',
    'Classic Subtitle',
    'Regular-weight TV subtitles: long lines, thin outline.',
    {
      fontFamily: 'Liberation Sans',
      bold: false,
      fontSize: 62,
      outlineWidth: 3,
      shadowDepth: 1,
      words: 7,
      chars: 42,
    },
  ),
  preset('default', 'subtitle-yellow', 'Yellow Subtitle', 'Film-subtitle yellow with a black outline.', {
    fontFamily: 'Liberation Sans',
    fontSize: 64,
    primaryColor: '#FFE14D',
    outlineWidth: 4,
    words: 6,
    chars: 36,
  }),
  preset(
    'default',
    'cinema-serif',
    'Cinema Serif',
    'Off-white serif without outline, soft shadow, fading in.',
    {
      fontFamily: 'Liberation Serif',
      bold: false,
      fontSize: 70,
      primaryColor: '#F5F1E8',
      outlineWidth: 0,
      shadowDepth: 3,
      shadowOpacity: 0.8,
      blur: 2,
      animation: 'fade',
      words: 6,
      chars: 36,
    },
  ),
  preset('default', 'soft-box', 'Soft Box', 'White text on a translucent dark box.', {
    fontSize: 66,
    ...box('#000000', 0.55, 14),
    words: 5,
    chars: 28,
  }),
  preset('default', 'solid-box', 'Solid Box', 'White text on an opaque black box.', {
    fontFamily: 'Liberation Sans',
    fontSize: 68,
    ...box('#000000', 1, 12),
    words: 5,
    chars: 28,
  }),
  preset('default', 'paper-box', 'Paper Box', 'Near-black text on a white box.', {
    fontSize: 66,
    primaryColor: '#111111',
    ...box('#FFFFFF', 1, 14),
    words: 4,
    chars: 24,
  }),
  preset(
    'default',
    'minimal-light',
    'Minimal Light',
    'Thin light type in the centre with a soft shadow, fading in.',
    {
      fontFamily: 'DejaVu Sans Light',
      bold: false,
      fontSize: 78,
      outlineWidth: 2,
      shadowOpacity: 0.7,
      blur: 1,
      position: 'center',
      animation: 'fade',
      words: 4,
      chars: 24,
    },
  ),
  preset(
    'default',
    'mono-terminal',
    'Terminal',
    'Green monospace on a near-black box, words appearing one by one.',
    {
      fontFamily: 'DejaVu Sans Mono',
      fontSize: 58,
      primaryColor: '#7CFC9A',
      ...box('#0B0F0C', 1, 12),
      animation: 'pop',
      words: 5,
      chars: 30,
    },
  ),
  preset(
    'default',
    'top-caption',
    'Top Caption',
    'White outlined captions placed under the top safe margin.',
    {
      fontSize: 68,
      position: 'top',
      words: 5,
      chars: 28,
    },
  ),
  preset(
    'default',
    'center-caption',
    'Center Caption',
    'Condensed white captions in the middle of the frame.',
    {
      fontFamily: 'DejaVu Sans Condensed',
      fontSize: 84,
      outlineWidth: 6,
      position: 'center',
      words: 3,
      chars: 20,
    },
  ),
  preset('default', 'word-by-word', 'Word by Word', 'One large word at a time in the centre.', {
    fontSize: 96,
    outlineWidth: 6,
    shadowDepth: 3,
    position: 'center',
    words: 1,
    chars: 16,
  }),
  preset(
    'default',
    'news-ticker',
    'News Ticker',
    'Upper-case white on a navy box, like a news lower third.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 60,
      uppercase: true,
      ...box('#0A2A66', 0.9, 12),
      words: 6,
      chars: 36,
    },
  ),
  preset(
    'default',
    'drop-shadow',
    'Drop Shadow',
    'White text without outline over a deep, soft drop shadow.',
    {
      fontSize: 80,
      outlineWidth: 0,
      shadowDepth: 6,
      shadowOpacity: 0.85,
      blur: 3,
      words: 4,
      chars: 24,
    },
  ),
  preset(
    'default',
    'clean-highlight',
    'Clean Highlight',
    'Clean white captions; the spoken word turns sky blue.',
    {
      fontSize: 78,
      highlightColor: '#8FD3FF',
      animation: 'highlight',
      words: 3,
      chars: 20,
    },
  ),
];

const NEON_PRESETS: CaptionStylePreset[] = [
  preset('neon', 'neon-pink', 'Neon Pink', 'Pale pink text glowing hot pink, centred.', {
    ...neon('#FFE3F6', '#FF2BD6'),
    fontSize: 84,
    position: 'center',
    words: 3,
    chars: 20,
  }),
  preset('neon', 'neon-cyan', 'Neon Cyan', 'Ice-white text with a cyan glow.', {
    ...neon('#E0FFFF', '#00E5FF'),
    fontFamily: 'Liberation Sans',
    fontSize: 84,
    words: 3,
    chars: 20,
  }),
  preset('neon', 'neon-lime', 'Neon Lime', 'Condensed upper-case with an acid-green glow, fading in.', {
    ...neon('#F0FFE0', '#39FF14'),
    fontFamily: 'DejaVu Sans Condensed',
    fontSize: 88,
    uppercase: true,
    position: 'center',
    animation: 'fade',
    words: 3,
    chars: 18,
  }),
  preset('neon', 'neon-violet', 'Neon Violet', 'Lavender text in a wide violet glow, fading in.', {
    ...neon('#F3E5FF', '#B026FF'),
    blur: 12,
    animation: 'fade',
    words: 4,
    chars: 24,
  }),
  preset('neon', 'neon-orange', 'Neon Orange', 'Upper-case warm white with an orange glow, at the top.', {
    ...neon('#FFF0DE', '#FF7A00'),
    fontFamily: 'Liberation Sans',
    fontSize: 82,
    uppercase: true,
    position: 'top',
    words: 3,
    chars: 20,
  }),
  preset('neon', 'neon-red', 'Neon Red', 'Two words at a time popping in with a red glow.', {
    ...neon('#FFE4E4', '#FF1744'),
    fontSize: 86,
    outlineWidth: 8,
    blur: 11,
    position: 'center',
    animation: 'pop',
    words: 2,
    chars: 14,
  }),
  preset('neon', 'neon-blue', 'Neon Tube Blue', 'Thin light letters like a blue neon tube, fading in.', {
    ...neon('#E6EEFF', '#2979FF'),
    fontFamily: 'DejaVu Sans Light',
    bold: false,
    fontSize: 92,
    outlineWidth: 6,
    blur: 8,
    position: 'center',
    animation: 'fade',
    words: 3,
    chars: 20,
  }),
  preset('neon', 'neon-gold', 'Neon Gold', 'Bold italic serif with a golden glow.', {
    ...neon('#FFF8DC', '#FFC400'),
    fontFamily: 'Liberation Serif',
    italic: true,
    fontSize: 84,
    words: 4,
    chars: 24,
  }),
  preset('neon', 'neon-sign', 'Neon Sign', 'Tilted italic serif in white with a pink sign glow.', {
    ...neon('#FFFFFF', '#FF4FA3'),
    fontFamily: 'Liberation Serif',
    bold: false,
    italic: true,
    fontSize: 96,
    outlineWidth: 5,
    blur: 12,
    rotation: 4,
    position: 'center',
    words: 3,
    chars: 18,
  }),
  preset(
    'neon',
    'neon-karaoke',
    'Neon Karaoke',
    'Cyan-glow captions filled with hot pink as each word is sung.',
    {
      ...neon('#D8F8FF', '#00E5FF'),
      highlightColor: '#FF2BD6',
      fontSize: 82,
      animation: 'karaoke',
      words: 4,
      chars: 24,
    },
  ),
  preset('neon', 'neon-pop', 'Neon Pop', 'Upper-case aqua glow, words popping in two at a time.', {
    ...neon('#E5FFF9', '#00FFC6'),
    fontFamily: 'DejaVu Sans Condensed',
    fontSize: 92,
    uppercase: true,
    position: 'center',
    animation: 'pop',
    words: 2,
    chars: 14,
  }),
  preset(
    'neon',
    'neon-highlight',
    'Neon Highlight',
    'White text with an ultraviolet glow; the spoken word turns yellow.',
    {
      ...neon('#FFFFFF', '#7C4DFF'),
      fontFamily: 'Liberation Sans',
      highlightColor: '#FFE600',
      animation: 'highlight',
      words: 3,
      chars: 20,
    },
  ),
];

const BOLD_PRESETS: CaptionStylePreset[] = [
  preset('bold', 'bold-impact', 'Bold Impact', 'Heavy upper-case white with a thick outline, centred.', {
    fontFamily: 'Liberation Sans',
    fontSize: 96,
    uppercase: true,
    outlineWidth: 9,
    shadowDepth: 4,
    shadowOpacity: 0.7,
    position: 'center',
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-pop', 'Bold Pop', 'Big upper-case words popping in two at a time.', {
    fontSize: 100,
    uppercase: true,
    outlineWidth: 8,
    shadowDepth: 4,
    position: 'center',
    animation: 'pop',
    words: 2,
    chars: 14,
  }),
  preset('bold', 'bold-yellow', 'Bold Yellow', 'Upper-case yellow with a heavy black outline.', {
    fontSize: 96,
    uppercase: true,
    primaryColor: '#FFE600',
    outlineWidth: 9,
    shadowDepth: 3,
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-condensed', 'Bold Condensed', 'Tall condensed upper-case with wide letter spacing.', {
    fontFamily: 'DejaVu Sans Condensed',
    fontSize: 110,
    uppercase: true,
    letterSpacing: 3,
    outlineWidth: 8,
    position: 'center',
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-one-word', 'Bold One Word', 'One huge upper-case word at a time, popping in.', {
    fontSize: 128,
    uppercase: true,
    outlineWidth: 10,
    shadowDepth: 5,
    position: 'center',
    animation: 'pop',
    words: 1,
    chars: 12,
  }),
  preset('bold', 'bold-red-box', 'Bold Red Box', 'Upper-case white on a solid red box.', {
    fontFamily: 'Liberation Sans',
    fontSize: 88,
    uppercase: true,
    ...box('#E11D2E', 1, 16),
    position: 'center',
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-black-on-yellow', 'Black on Yellow', 'Upper-case black on a solid yellow box.', {
    fontSize: 88,
    uppercase: true,
    primaryColor: '#111111',
    ...box('#FFD400', 1, 16),
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-retro-shadow', 'Retro Shadow', 'Cream upper-case over a hard pink offset shadow.', {
    fontSize: 96,
    uppercase: true,
    primaryColor: '#FFF4D6',
    outlineWidth: 0,
    shadowDepth: 9,
    shadowColor: '#FF3D7F',
    shadowOpacity: 1,
    position: 'center',
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-sticker', 'Sticker', 'Tilted black upper-case on a white sticker, popping in.', {
    fontFamily: 'DejaVu Sans Condensed',
    fontSize: 92,
    uppercase: true,
    primaryColor: '#111111',
    ...box('#FFFFFF', 1, 14),
    rotation: 4,
    position: 'center',
    animation: 'pop',
    words: 2,
    chars: 14,
  }),
  preset('bold', 'bold-serif', 'Bold Serif', 'Heavy upper-case serif with a thick outline, fading in.', {
    fontFamily: 'Liberation Serif',
    fontSize: 96,
    uppercase: true,
    outlineWidth: 8,
    shadowDepth: 3,
    animation: 'fade',
    words: 3,
    chars: 18,
  }),
  preset('bold', 'bold-top', 'Bold Top', 'Heavy upper-case white at the top, fading in.', {
    fontFamily: 'Liberation Sans',
    fontSize: 92,
    uppercase: true,
    outlineWidth: 9,
    position: 'top',
    animation: 'fade',
    words: 3,
    chars: 18,
  }),
  preset(
    'bold',
    'bold-emphasis',
    'Bold Emphasis',
    'Upper-case white; the spoken word grows and turns green.',
    {
      fontSize: 92,
      uppercase: true,
      highlightColor: '#3CFF5A',
      outlineWidth: 8,
      position: 'center',
      animation: 'emphasis',
      words: 3,
      chars: 18,
    },
  ),
];

const KARAOKE_PRESETS: CaptionStylePreset[] = [
  preset(
    'karaoke-highlighted',
    'karaoke-yellow',
    'Karaoke Yellow',
    'Yellow sweeps through each white word as it is spoken.',
    {
      fontSize: 84,
      outlineWidth: 6,
      shadowDepth: 3,
      animation: 'karaoke',
      words: 4,
      chars: 22,
    },
  ),
  preset('karaoke-highlighted', 'karaoke-cyan', 'Karaoke Cyan', 'Cyan sweeps through each word, centred.', {
    fontFamily: 'Liberation Sans',
    fontSize: 84,
    highlightColor: '#00D1FF',
    outlineWidth: 6,
    position: 'center',
    animation: 'karaoke',
    words: 4,
    chars: 22,
  }),
  preset(
    'karaoke-highlighted',
    'karaoke-green',
    'Karaoke Green',
    'Condensed upper-case filled with green as it is spoken.',
    {
      fontFamily: 'DejaVu Sans Condensed',
      fontSize: 92,
      uppercase: true,
      highlightColor: '#3CFF5A',
      outlineWidth: 7,
      position: 'center',
      animation: 'karaoke',
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'karaoke-box',
    'Karaoke Box',
    'Yellow fill sweeping through white text on a dark box.',
    {
      fontSize: 76,
      ...box('#1A1A1A', 1, 12),
      animation: 'karaoke',
      words: 4,
      chars: 24,
    },
  ),
  preset(
    'karaoke-highlighted',
    'karaoke-serif',
    'Karaoke Serif',
    'Ivory serif filled with gold as each word is spoken.',
    {
      fontFamily: 'Liberation Serif',
      fontSize: 86,
      primaryColor: '#F5F1E8',
      highlightColor: '#FFB000',
      outlineWidth: 5,
      animation: 'karaoke',
      words: 4,
      chars: 24,
    },
  ),
  preset(
    'karaoke-highlighted',
    'highlight-yellow',
    'Highlight Yellow',
    'Short white phrases; the spoken word turns yellow.',
    {
      fontSize: 90,
      outlineWidth: 6,
      shadowDepth: 3,
      animation: 'highlight',
      words: 3,
      chars: 20,
    },
  ),
  preset(
    'karaoke-highlighted',
    'highlight-green-caps',
    'Highlight Green Caps',
    'Heavy upper-case; the spoken word turns bright green.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 96,
      uppercase: true,
      highlightColor: '#3CFF5A',
      outlineWidth: 9,
      position: 'center',
      animation: 'highlight',
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'highlight-red',
    'Highlight Red',
    'Condensed white; the spoken word turns red.',
    {
      fontFamily: 'DejaVu Sans Condensed',
      fontSize: 88,
      highlightColor: '#FF3B30',
      outlineWidth: 6,
      animation: 'highlight',
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'word-box-red',
    'Word Box Red',
    'The spoken word sits on a red box, centred.',
    {
      fontSize: 84,
      ...wordBox('#E11D2E'),
      position: 'center',
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'word-box-purple',
    'Word Box Purple',
    'Upper-case; the spoken word sits on a purple box.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 84,
      uppercase: true,
      ...wordBox('#7C3AED'),
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'word-box-blue',
    'Word Box Blue',
    'Condensed; the spoken word sits on a blue box, at the top.',
    {
      fontFamily: 'DejaVu Sans Condensed',
      fontSize: 88,
      ...wordBox('#1D7BFF'),
      position: 'top',
      words: 3,
      chars: 18,
    },
  ),
  preset(
    'karaoke-highlighted',
    'emphasis-orange',
    'Emphasis Orange',
    'The spoken word grows and turns orange.',
    {
      fontSize: 86,
      highlightColor: '#FF8A00',
      outlineWidth: 7,
      animation: 'emphasis',
      words: 3,
      chars: 18,
    },
  ),
];

const { primaryColor: BRAND_PRIMARY, accentColor: BRAND_ACCENT } = DEFAULT_BRAND_COLORS;

const BRANDED_PRESETS: CaptionStylePreset[] = [
  preset(
    'branded',
    'brand-highlight',
    'Brand Highlight',
    'White captions; the spoken word takes the brand accent colour.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 80,
      highlightColor: BRAND_ACCENT,
      animation: 'highlight',
      words: 4,
      chars: 22,
    },
    { highlightColor: 'accent' },
  ),
  preset(
    'branded',
    'brand-box',
    'Brand Box',
    'Text on a box in the brand primary colour, in black or white, whichever reads better.',
    { fontSize: 76, ...box(BRAND_PRIMARY, 1, 14), words: 5, chars: 28 },
    { outlineColor: 'primary', primaryColor: 'on-primary' },
  ),
  preset(
    'branded',
    'brand-karaoke',
    'Brand Karaoke',
    'The brand accent sweeps through each word; outline in the brand primary colour.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 84,
      highlightColor: BRAND_ACCENT,
      outlineColor: BRAND_PRIMARY,
      outlineWidth: 6,
      position: 'center',
      animation: 'karaoke',
      words: 4,
      chars: 22,
    },
    { highlightColor: 'accent', outlineColor: 'primary' },
  ),
  preset(
    'branded',
    'brand-outline',
    'Brand Outline',
    'Upper-case white with a thick outline in the brand primary colour.',
    {
      fontSize: 88,
      uppercase: true,
      outlineColor: BRAND_PRIMARY,
      outlineWidth: 9,
      shadowDepth: 3,
      position: 'center',
      words: 3,
      chars: 18,
    },
    { outlineColor: 'primary' },
  ),
  preset(
    'branded',
    'brand-word-box',
    'Brand Word Box',
    'The spoken word sits on a box in the brand primary colour.',
    { fontSize: 84, ...wordBox(BRAND_PRIMARY), words: 3, chars: 18 },
    { highlightColor: 'primary' },
  ),
  preset(
    'branded',
    'brand-neon',
    'Brand Neon',
    'White text glowing in the brand primary colour, fading in.',
    {
      ...neon('#FFFFFF', BRAND_PRIMARY),
      fontSize: 84,
      position: 'center',
      animation: 'fade',
      words: 3,
      chars: 20,
    },
    { outlineColor: 'primary' },
  ),
  preset(
    'branded',
    'brand-bold',
    'Brand Bold',
    'Upper-case in the brand primary colour, outlined in black or white for contrast, popping in.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 96,
      uppercase: true,
      primaryColor: BRAND_PRIMARY,
      outlineColor: '#FFFFFF',
      outlineWidth: 8,
      position: 'center',
      animation: 'pop',
      words: 3,
      chars: 18,
    },
    { primaryColor: 'primary', outlineColor: 'on-primary' },
  ),
  preset(
    'branded',
    'brand-emphasis',
    'Brand Emphasis',
    'The spoken word grows in the brand accent; outline in the brand primary colour.',
    {
      fontFamily: 'DejaVu Sans Condensed',
      fontSize: 88,
      highlightColor: BRAND_ACCENT,
      outlineColor: BRAND_PRIMARY,
      outlineWidth: 6,
      animation: 'emphasis',
      words: 3,
      chars: 18,
    },
    { highlightColor: 'accent', outlineColor: 'primary' },
  ),
  preset(
    'branded',
    'brand-banner-top',
    'Brand Banner',
    'Upper-case banner at the top on the brand accent colour, fading in.',
    {
      fontFamily: 'Liberation Sans',
      fontSize: 68,
      uppercase: true,
      primaryColor: '#111111',
      ...box(BRAND_ACCENT, 1, 16),
      position: 'top',
      animation: 'fade',
      words: 5,
      chars: 28,
    },
    { outlineColor: 'accent', primaryColor: 'on-accent' },
  ),
  preset(
    'branded',
    'brand-shadow',
    'Brand Shadow',
    'Upper-case white over a hard offset shadow in the brand accent colour.',
    {
      fontSize: 92,
      uppercase: true,
      outlineWidth: 0,
      shadowDepth: 8,
      shadowColor: BRAND_ACCENT,
      shadowOpacity: 1,
      position: 'center',
      words: 3,
      chars: 18,
    },
    { shadowColor: 'accent' },
  ),
  preset(
    'branded',
    'brand-serif',
    'Brand Serif',
    'Serif text in the brand primary colour on a black or white box, whichever reads better.',
    {
      fontFamily: 'Liberation Serif',
      fontSize: 80,
      primaryColor: BRAND_PRIMARY,
      ...box('#FFFFFF', 1, 14),
      words: 4,
      chars: 24,
    },
    { primaryColor: 'primary', outlineColor: 'on-primary' },
  ),
  preset(
    'branded',
    'brand-accent-pop',
    'Brand Accent Pop',
    'Upper-case words in the brand accent colour popping in two at a time.',
    {
      fontSize: 96,
      uppercase: true,
      primaryColor: BRAND_ACCENT,
      outlineWidth: 8,
      shadowDepth: 3,
      position: 'center',
      animation: 'pop',
      words: 2,
      chars: 14,
    },
    { primaryColor: 'accent' },
  ),
];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const CAPTION_STYLE_PRESETS: readonly CaptionStylePreset[] = deepFreeze([
  ...DEFAULT_PRESETS,
  ...NEON_PRESETS,
  ...BOLD_PRESETS,
  ...KARAOKE_PRESETS,
  ...BRANDED_PRESETS,
]);

export const CAPTION_STYLE_IDS: readonly string[] = Object.freeze(CAPTION_STYLE_PRESETS.map((p) => p.id));

const BY_ID: ReadonlyMap<string, CaptionStylePreset> = new Map(CAPTION_STYLE_PRESETS.map((p) => [p.id, p]));

export function captionStylePreset(id: string): CaptionStylePreset | undefined {
  return BY_ID.get(id);
}

const DARK_TEXT = '#111111';
const LIGHT_TEXT = '#FFFFFF';

/** WCAG relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Black or white, whichever has the higher contrast ratio against `hex`. */
export function readableOn(hex: string): string {
  const l = luminance(hex);
  const againstWhite = 1.05 / (l + 0.05);
  const againstDark = (l + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return againstDark >= againstWhite ? DARK_TEXT : LIGHT_TEXT;
}

/** The brand colours a branded preset uses: valid given colours, the defaults for the rest. */
export function resolveBrandColors(brand?: CaptionBrandColors): Required<CaptionBrandColors> {
  const pick = (value: string | undefined, fallback: string) =>
    value !== undefined && isHexColor(value) ? value.toUpperCase() : fallback;
  return {
    primaryColor: pick(brand?.primaryColor, DEFAULT_BRAND_COLORS.primaryColor),
    accentColor: pick(brand?.accentColor, DEFAULT_BRAND_COLORS.accentColor),
  };
}

/** The brand's colours (see resolveBrandColors) and its font as a catalogue family, or null. */
export function resolveCaptionBrand(brand?: CaptionBrand): ResolvedCaptionBrand {
  return { ...resolveBrandColors(brand), fontFamily: findFontFamily(brand?.fontFamily) ?? null };
}

/**
 * The style of preset `id` (a fresh copy the caller may change), or undefined for an unknown id. Branded
 * presets take the brand's primary and accent colours, and its font when the font catalogue has it; other
 * presets ignore `brand`.
 */
export function captionStyleById(id: string, brand?: CaptionBrand): CaptionStyle | undefined {
  const found = BY_ID.get(id);
  if (!found) return undefined;
  const copy = structuredClone(found.style);
  if (!found.brandColors) return copy;
  const style = withCaptionFont(copy, brand?.fontFamily);
  const colors = resolveBrandColors(brand);
  const source: Record<BrandColorSource, string> = {
    primary: colors.primaryColor,
    accent: colors.accentColor,
    'on-primary': readableOn(colors.primaryColor),
    'on-accent': readableOn(colors.accentColor),
  };
  for (const [field, from] of Object.entries(found.brandColors) as [BrandableColor, BrandColorSource][])
    style[field] = source[from];
  return style;
}
