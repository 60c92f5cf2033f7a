// Caption looks as plain data, so a catalogue of presets can be written without code.

export type CaptionPosition = 'lower_third' | 'center' | 'top';

/**
 * - `none`: each chunk appears whole for its time span.
 * - `highlight`: the chunk stays visible; the word being spoken takes the highlight colour.
 * - `karaoke`: the highlight colour sweeps through each word as it is spoken (`\kf`).
 * - `pop`: words appear one by one, each scaling in as it is spoken.
 */
export type CaptionAnimation = 'none' | 'highlight' | 'karaoke' | 'pop';

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
}

export type CaptionFontSize = 'small' | 'medium' | 'large';

/** Font sizes (px on a 1080-wide frame) behind the API's small / medium / large. */
export const FONT_SIZES: Readonly<Record<CaptionFontSize, number>> = { small: 56, medium: 72, large: 90 };
