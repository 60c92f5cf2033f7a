// ASS subtitle script from word timings and a caption style, for burning in with ffmpeg's subtitles filter.
import type { WordTiming } from '../types.ts';
import { assColor, assInlineColor } from './ass-color.ts';
import type { CaptionStyle } from './caption-style.ts';
import { chunkWords, isLongPause } from './chunk-words.ts';
import { frameScale, platformSafeZone, type FrameSize } from './safe-zone.ts';

/** Gap between the caption block and the safe-zone edge, px at the reference scale (1080×1920). */
const EDGE_GAP = { bottom: 20, top: 60 } as const;
/** Duration of the `pop` scale-in, ms, and its starting scale, %. */
export const POP_MS = 120;
export const POP_FROM_PERCENT = 60;
/** Fade-in of each chunk for the `fade` animation, ms. */
export const FADE_MS = 150;
/** Size of the spoken word for the `emphasis` animation, %. */
export const EMPHASIS_PERCENT = 120;

const STYLE_NAME = 'Caption';
/** Second style of `word-box` captions: only the box behind the spoken word, drawn under the text. */
const BOX_STYLE_NAME = 'CaptionBox';
/** Margin of the `word-box` box around the word, px at the reference scale (1080×1920). */
export const WORD_BOX_PADDING = 14;
const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, ' +
  'Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, ' +
  'MarginR, MarginV, Encoding';
const EVENT_FORMAT = 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text';

function round2(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** Override-tag alpha `&HAA&` for an opacity 0–1 (ASS stores transparency). */
function inlineAlpha(opacity: number): string {
  const alpha = Math.round((1 - Math.min(1, Math.max(0, opacity))) * 255);
  return `&H${alpha.toString(16).toUpperCase().padStart(2, '0')}&`;
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
  const scale = frameScale(frame);
  if (style.seamY !== undefined) {
    // Centred on the seam: bottom-aligned text whose baseline sits half a line below it.
    const halfLine = Math.round((style.fontSize * scale) / 2);
    return { alignment: 2, marginV: Math.max(0, Math.round(frame.height - style.seamY - halfLine)) };
  }
  switch (style.position) {
    case 'lower_third':
      return { alignment: 2, marginV: safe.bottom + Math.round(EDGE_GAP.bottom * scale) };
    case 'top':
      return { alignment: 8, marginV: safe.top + Math.round(EDGE_GAP.top * scale) };
    case 'center':
      return { alignment: 5, marginV: 0 };
  }
}

function styleLine(style: CaptionStyle, frame: FrameSize, name: string = STYLE_NAME): string {
  const scale = frameScale(frame);
  const safe = platformSafeZone(frame);
  const { alignment, marginV } = placement(style, frame);
  // Karaoke fills from SecondaryColour to PrimaryColour, so the highlight is the primary colour there.
  const karaoke = style.animation === 'karaoke';
  const primary = karaoke ? style.highlightColor : style.primaryColor;
  const secondary = karaoke ? style.primaryColor : style.highlightColor;
  const fields = [
    name,
    style.fontFamily,
    String(Math.round(style.fontSize * scale)),
    assColor(primary),
    assColor(secondary),
    assColor(style.outlineColor, style.outlineOpacity ?? 1),
    assColor(style.shadowColor, style.shadowOpacity),
    style.bold ? '-1' : '0',
    style.italic ? '-1' : '0',
    '0',
    '0',
    round2(style.scaleX ?? 100),
    '100',
    round2(style.letterSpacing * scale),
    round2(style.rotation ?? 0),
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

function dialogue(startCs: number, endCs: number, text: string, layer = 0, styleName = STYLE_NAME): string {
  return `Dialogue: ${layer},${formatAssTime(startCs)},${formatAssTime(endCs)},${styleName},,0,0,0,,${text}`;
}

/**
 * The box style of `word-box`: same font and placement as the text, so its invisible glyphs line up with
 * the text drawn above; its box (the outline colour) is transparent until a word switches it on.
 */
function wordBoxStyle(style: CaptionStyle): CaptionStyle {
  return {
    ...style,
    border: 'box',
    outlineColor: style.highlightColor,
    outlineOpacity: 0,
    outlineWidth: WORD_BOX_PADDING,
    shadowDepth: 0,
    shadowOpacity: 0,
  };
}

/** Override tags every event of the style starts with (blurred edges, chunk fade-in), or ''. */
function leadingTags(style: CaptionStyle, frame: FrameSize): string {
  const tags: string[] = [];
  if (style.blur !== undefined && style.blur > 0)
    tags.push(`\\blur${round2(style.blur * frameScale(frame))}`);
  if (style.animation === 'fade') tags.push(`\\fad(${FADE_MS},0)`);
  return tags.length > 0 ? `{${tags.join('')}}` : '';
}

/** Chunk text where word `active` is drawn in the highlight colour and enlarged. */
function emphasisText(words: readonly string[], active: number, style: CaptionStyle): string {
  const on = `\\1c${assInlineColor(style.highlightColor)}\\fscx${EMPHASIS_PERCENT}\\fscy${EMPHASIS_PERCENT}`;
  const off = `\\1c${assInlineColor(style.primaryColor)}\\fscx100\\fscy100`;
  return words.map((w, i) => (i === active ? `{${on}}${w}{${off}}` : w)).join(' ');
}

/** Box-layer text of `word-box`: glyphs invisible, only word `active` has its (opaque) box. */
function wordBoxText(words: readonly string[], active: number): string {
  const on = `\\3a${inlineAlpha(1)}`;
  const off = `\\3a${inlineAlpha(0)}`;
  return (
    `{\\1a${inlineAlpha(0)}}` + words.map((w, i) => (i === active ? `{${on}}${w}{${off}}` : w)).join(' ')
  );
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

/** Text of the event shown while word `active` of the chunk is spoken, for per-word animations. */
function wordText(
  animation: 'highlight' | 'pop' | 'emphasis',
  style: CaptionStyle,
  texts: readonly string[],
  active: number,
): string {
  switch (animation) {
    case 'highlight':
      return highlightedText(texts, active, style);
    case 'pop':
      return popText(texts, active);
    case 'emphasis':
      return emphasisText(texts, active, style);
  }
}

/**
 * Builds a complete ASS script. Times come from the words; each chunk stays up until the next one when the
 * silence between them is short, so captions do not flicker off between phrases.
 */
export function buildAss(words: readonly WordTiming[], style: CaptionStyle, frame: FrameSize): string {
  const display = words.map((w) => ({ ...w, word: style.uppercase ? w.word.toUpperCase() : w.word }));
  const chunks = chunkWords(display, style.chunking);
  const lead = leadingTags(style, frame);
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
      case 'fade':
        events.push(dialogue(startCs, endCs, lead + texts.join(' ')));
        break;
      case 'karaoke': {
        const parts = texts.map((t, i) => `{\\kf${(bounds[i + 1] ?? endCs) - (bounds[i] ?? startCs)}}${t}`);
        events.push(dialogue(startCs, endCs, lead + parts.join(' ')));
        break;
      }
      case 'word-box':
        // The text stays for the whole chunk; under it, one box event per spoken word.
        texts.forEach((_, i) => {
          const from = bounds[i] ?? startCs;
          const to = bounds[i + 1] ?? endCs;
          if (to > from) events.push(dialogue(from, to, wordBoxText(texts, i), 0, BOX_STYLE_NAME));
        });
        events.push(dialogue(startCs, endCs, lead + texts.join(' '), 1));
        break;
      case 'highlight':
      case 'pop':
      case 'emphasis': {
        const animation = style.animation;
        texts.forEach((_, i) => {
          const from = bounds[i] ?? startCs;
          const to = bounds[i + 1] ?? endCs;
          if (to <= from) return;
          events.push(dialogue(from, to, lead + wordText(animation, style, texts, i)));
        });
        break;
      }
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
    ...(style.animation === 'word-box' ? [styleLine(wordBoxStyle(style), frame, BOX_STYLE_NAME)] : []),
    '',
    '[Events]',
    EVENT_FORMAT,
    ...events,
    '',
  ].join('\n');
}
