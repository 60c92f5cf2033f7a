// ASS subtitle script from word timings and a caption style, for burning in with ffmpeg's subtitles filter.
import type { WordTiming } from '../types.ts';
import { assColor, assInlineColor } from './ass-color.ts';
import type { CaptionStyle } from './caption-style.ts';
import { chunkWords, isLongPause } from './chunk-words.ts';
import { platformSafeZone, type FrameSize } from './safe-zone.ts';

/** Reference width the style's pixel sizes are written for. */
const STYLE_WIDTH = 1080;
/** Gap between the caption block and the safe-zone edge, px on a 1920-high frame. */
const EDGE_GAP = { bottom: 20, top: 60 } as const;
/** Duration of the `pop` scale-in, ms, and its starting scale, %. */
export const POP_MS = 120;
export const POP_FROM_PERCENT = 60;

const STYLE_NAME = 'Caption';
const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, ' +
  'Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, ' +
  'MarginR, MarginV, Encoding';
const EVENT_FORMAT = 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text';

function round2(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Seconds → centiseconds, the resolution of ASS timestamps. */
function toCs(seconds: number): number {
  return Math.max(0, Math.round(seconds * 100));
}

/** Centiseconds → `H:MM:SS.cc`. */
export function formatAssTime(cs: number): string {
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${h}:${two(m)}:${two(s)}.${two(c)}`;
}

/**
 * Makes a word literal in ASS event text: braces would open override blocks and a backslash could form
 * `\N`, `\n` or `\h`. libass understands `\{` and `\}`; a backslash is followed by an invisible word joiner.
 */
export function escapeAssText(text: string): string {
  return text.replace(/[\\{}]/g, (ch) => (ch === '\\' ? '\\\u2060' : `\\${ch}`));
}

/** Alignment (numpad layout) and vertical margin for the style's position. */
function placement(style: CaptionStyle, frame: FrameSize): { alignment: number; marginV: number } {
  const safe = platformSafeZone(frame);
  const sy = frame.height / 1920;
  switch (style.position) {
    case 'lower_third':
      return { alignment: 2, marginV: safe.bottom + Math.round(EDGE_GAP.bottom * sy) };
    case 'top':
      return { alignment: 8, marginV: safe.top + Math.round(EDGE_GAP.top * sy) };
    case 'center':
      return { alignment: 5, marginV: 0 };
  }
}

function styleLine(style: CaptionStyle, frame: FrameSize): string {
  const scale = frame.width / STYLE_WIDTH;
  const safe = platformSafeZone(frame);
  const { alignment, marginV } = placement(style, frame);
  // Karaoke fills from SecondaryColour to PrimaryColour, so the highlight is the primary colour there.
  const karaoke = style.animation === 'karaoke';
  const primary = karaoke ? style.highlightColor : style.primaryColor;
  const secondary = karaoke ? style.primaryColor : style.highlightColor;
  const fields = [
    STYLE_NAME,
    style.fontFamily,
    String(Math.round(style.fontSize * scale)),
    assColor(primary),
    assColor(secondary),
    assColor(style.outlineColor),
    assColor(style.shadowColor, style.shadowOpacity),
    style.bold ? '-1' : '0',
    style.italic ? '-1' : '0',
    '0',
    '0',
    '100',
    '100',
    round2(style.letterSpacing * scale),
    '0',
    style.border === 'box' ? '3' : '1',
    round2(style.outlineWidth * scale),
    round2(style.shadowDepth * scale),
    String(alignment),
    String(safe.left),
    String(safe.right),
    String(marginV),
    '1',
  ];
  return `Style: ${fields.join(',')}`;
}

function dialogue(startCs: number, endCs: number, text: string): string {
  return `Dialogue: 0,${formatAssTime(startCs)},${formatAssTime(endCs)},${STYLE_NAME},,0,0,0,,${text}`;
}

/** Chunk text where word `active` is drawn in the highlight colour. */
function highlightedText(words: readonly string[], active: number, style: CaptionStyle): string {
  return words
    .map((w, i) =>
      i === active
        ? `{\\1c${assInlineColor(style.highlightColor)}}${w}{\\1c${assInlineColor(style.primaryColor)}}`
        : w,
    )
    .join(' ');
}

/** Chunk text with words before `active` shown, `active` scaling in, and later words invisible. */
function popText(words: readonly string[], active: number): string {
  const shown = words.slice(0, active);
  const popping =
    `{\\fscx${POP_FROM_PERCENT}\\fscy${POP_FROM_PERCENT}\\t(0,${POP_MS},\\fscx100\\fscy100)}` +
    `${words[active] ?? ''}{\\fscx100\\fscy100}`;
  const later = words.slice(active + 1);
  // Invisible later words keep their space, so the line does not re-centre as words appear.
  const hidden = later.length > 0 ? ` {\\alpha&HFF&}${later.join(' ')}` : '';
  return [...shown, popping].join(' ') + hidden;
}

/**
 * Builds a complete ASS script. Times come from the words; each chunk stays up until the next one when the
 * silence between them is short, so captions do not flicker off between phrases.
 */
export function buildAss(words: readonly WordTiming[], style: CaptionStyle, frame: FrameSize): string {
  const display = words.map((w) => ({ ...w, word: style.uppercase ? w.word.toUpperCase() : w.word }));
  const chunks = chunkWords(display, style.chunking);
  const events: string[] = [];
  chunks.forEach((chunk, index) => {
    const first = chunk[0];
    const last = chunk[chunk.length - 1];
    if (!first || !last) return;
    const next = chunks[index + 1]?.[0];
    const holdUntilNext =
      next !== undefined && !isLongPause(next.start - last.end, style.chunking.maxPauseSec);
    const startCs = toCs(first.start);
    const endCs = Math.max(startCs, toCs(holdUntilNext ? next.start : last.end));
    if (endCs <= startCs) return;
    const texts = chunk.map((w) => escapeAssText(w.word));
    // Word i owns [its start, next word's start), clamped into the chunk's span and kept monotonic.
    const bounds = [startCs];
    for (let i = 1; i < chunk.length; i++) {
      const at = toCs(chunk[i]?.start ?? 0);
      bounds.push(Math.min(endCs, Math.max(bounds[i - 1] ?? startCs, at)));
    }
    bounds.push(endCs);

    switch (style.animation) {
      case 'none':
        events.push(dialogue(startCs, endCs, texts.join(' ')));
        break;
      case 'karaoke': {
        const parts = texts.map((t, i) => `{\\kf${(bounds[i + 1] ?? endCs) - (bounds[i] ?? startCs)}}${t}`);
        events.push(dialogue(startCs, endCs, parts.join(' ')));
        break;
      }
      case 'highlight':
      case 'pop':
        texts.forEach((_, i) => {
          const from = bounds[i] ?? startCs;
          const to = bounds[i + 1] ?? endCs;
          if (to <= from) return;
          const text = style.animation === 'pop' ? popText(texts, i) : highlightedText(texts, i, style);
          events.push(dialogue(from, to, text));
        });
        break;
    }
  });

  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${frame.width}`,
    `PlayResY: ${frame.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    '',
    '[V4+ Styles]',
    STYLE_FORMAT,
    styleLine(style, frame),
    '',
    '[Events]',
    EVENT_FORMAT,
    ...events,
    '',
  ].join('\n');
}
