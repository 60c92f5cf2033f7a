// Caption looks as plain data, so a catalogue of presets can be written without code.
import { findFontFamily } from '../fonts/font-catalogue.ts';

export type CaptionPosition = 'lower_third' | 'center' | 'top';

/**
 * - `none`: each chunk appears whole for its time span.
 * - `highlight`: the chunk stays visible; the word being spoken takes the highlight colour.
 * - `karaoke`: the highlight colour sweeps through each word as it is spoken (`\kf`).
 * - `pop`: words appear one by one, each scaling in as it is spoken.
 * - `fade`: each chunk fades in as a whole.
 * - `emphasis`: the spoken word takes the highlight colour and grows.
 * - `word-box`: the spoken word sits on a box in the highlight colour, under the outlined text (needs
 *   `border: 'outline'`).
 */
export type CaptionAnimation = 'none' | 'highlight' | 'karaoke' | 'pop' | 'fade' | 'emphasis' | 'word-box';

export const CAPTION_ANIMATIONS: readonly CaptionAnimation[] = [
  'none',
  'highlight',
  'karaoke',
  'pop',
  'fade',
  'emphasis',
  'word-box',
];

export interface CaptionChunking {
  /** Most words shown at once. */
  maxWords: number;
  /** Most characters (including spaces) shown at once; a longer single word still gets its own chunk. */
  maxChars: number;
  /** A silence longer than this (seconds) always ends a chunk. */
  maxPauseSec: number;
  /** Also end chunks after `,` `;` `:` (sentence ends `.` `!` `?` always end a chunk). */
  breakOnClause: boolean;
}

/** Lengths are pixels on a 1080-wide frame; the ASS builder scales them to the output width. */
export interface CaptionStyle {
  /** A family of the font catalogue (src/media/fonts/font-catalogue.ts), spelled as there. */
  fontFamily: string;
  fontSize: number;
  bold: boolean;
  italic: boolean;
  uppercase: boolean;
  /** Extra space between letters. */
  letterSpacing: number;
  /** #RRGGBB colours. */
  primaryColor: string;
  highlightColor: string;
  outlineColor: string;
  /** `outline` strokes each glyph; `box` draws an opaque box in the outline colour behind the text. */
  border: 'outline' | 'box';
  outlineWidth: number;
  shadowDepth: number;
  shadowColor: string;
  /** 0–1. */
  shadowOpacity: number;
  position: CaptionPosition;
  chunking: CaptionChunking;
  animation: CaptionAnimation;
  // Optional looks: absent means the plain rendering the stock presets have always had.
  /** 0–1 opacity of the outline, or of the box behind the text; 1 when absent. */
  outlineOpacity?: number;
  /** Softens the outline and shadow edges (px); with a coloured outline this is a neon glow. */
  blur?: number;
  /** Horizontal glyph scale in percent (condensed below 100, wide above); 100 when absent. */
  scaleX?: number;
  /** Counter-clockwise tilt of the caption block in degrees; 0 when absent. */
  rotation?: number;
  /**
   * Output-frame y (px) the caption line is centred on, overriding `position`: the seam between B-roll and
   * presenter in the presenter layouts.
   */
  seamY?: number;
}

export type CaptionFontSize = 'small' | 'medium' | 'large';

/** Font sizes (px on a 1080-wide frame) behind the API's small / medium / large. */
export const FONT_SIZES: Readonly<Record<CaptionFontSize, number>> = { small: 56, medium: 72, large: 90 };

const HEX = /^#[0-9A-Fa-f]{6}$/;

function inRange(value: number | undefined, min: number, max: number): boolean {
  return value === undefined || (Number.isFinite(value) && value >= min && value <= max);
}

/** What is wrong with a style (empty when it can be rendered as written). */
export function captionStyleProblems(style: CaptionStyle): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, message: string) => {
    if (!ok) problems.push(message);
  };
  check(
    findFontFamily(style.fontFamily) === style.fontFamily,
    `font ${JSON.stringify(style.fontFamily)} is not a caption font (src/media/fonts/font-catalogue.ts)`,
  );
  check(inRange(style.fontSize, 24, 200), 'fontSize must be 24–200');
  check(inRange(style.letterSpacing, -5, 20), 'letterSpacing must be -5–20');
  for (const field of ['primaryColor', 'highlightColor', 'outlineColor', 'shadowColor'] as const)
    check(HEX.test(style[field]), `${field} must be #RRGGBB`);
  check(inRange(style.outlineWidth, 0, 40), 'outlineWidth must be 0–40');
  check(inRange(style.shadowDepth, 0, 30), 'shadowDepth must be 0–30');
  check(inRange(style.shadowOpacity, 0, 1), 'shadowOpacity must be 0–1');
  check(inRange(style.outlineOpacity, 0, 1), 'outlineOpacity must be 0–1');
  check(inRange(style.blur, 0, 30), 'blur must be 0–30');
  check(inRange(style.scaleX, 50, 200), 'scaleX must be 50–200');
  check(inRange(style.rotation, -15, 15), 'rotation must be -15–15');
  const { chunking } = style;
  check(
    Number.isInteger(chunking.maxWords) && inRange(chunking.maxWords, 1, 12),
    'chunking.maxWords must be 1–12',
  );
  check(
    Number.isInteger(chunking.maxChars) && inRange(chunking.maxChars, 4, 80),
    'chunking.maxChars must be 4–80',
  );
  check(inRange(chunking.maxPauseSec, 0.05, 5), 'chunking.maxPauseSec must be 0.05–5');
  check(CAPTION_ANIMATIONS.includes(style.animation), `unknown animation ${JSON.stringify(style.animation)}`);
  check(
    style.animation !== 'word-box' || style.border === 'outline',
    "the word-box animation needs border 'outline'",
  );
  return problems;
}
