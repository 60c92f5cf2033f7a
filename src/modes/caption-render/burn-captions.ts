// Burning an ASS caption track into a caller's video: the picture is re-encoded at its own size and frame
// timing, the sound is copied untouched whenever MP4 can carry it (re-encoded only by a render corrected after
// the quality gate).
import type { CaptionPosition, CaptionStyle } from '../../media/captions/caption-style.ts';
import { escapeFilterValue } from '../../media/ffmpeg/filter-escape.ts';

/** Audio codecs an MP4 file carries as they are; anything else (PCM, Vorbis, FLAC…) becomes AAC. */
const MP4_AUDIO = new Set(['aac', 'mp3', 'ac3', 'eac3', 'alac', 'opus']);

export type AudioHandling = 'copy' | 'encode' | 'none';

export function audioHandling(codec: string | undefined): AudioHandling {
  if (codec === undefined) return 'none';
  return MP4_AUDIO.has(codec) ? 'copy' : 'encode';
}

export interface BurnPlan {
  input: string;
  assPath: string;
  fontsDir: string;
  output: string;
  /** x264 preset (RENDER_PRESET). */
  preset: string;
  width: number;
  height: number;
  audio: AudioHandling;
  /** Audio filter of a render corrected after the quality gate (level, length); the sound is then re-encoded. */
  audioFilter?: string;
}

/** Quality of the re-encode: a caller's video is re-encoded once, so it is kept close to the original. */
const CRF = 18;

export function burnCaptionsArgs(plan: BurnPlan): string[] {
  // 4:2:0 needs even sizes; an odd-sized video keeps its size with full-resolution colour instead.
  const pixelFormat = plan.width % 2 === 0 && plan.height % 2 === 0 ? 'yuv420p' : 'yuv444p';
  const audio =
    plan.audio === 'none'
      ? ['-an']
      : plan.audio === 'copy' && !plan.audioFilter
        ? ['-map', '0:a:0', '-c:a', 'copy']
        : [
            '-map',
            '0:a:0',
            ...(plan.audioFilter ? ['-af', plan.audioFilter] : []),
            '-c:a',
            'aac',
            '-b:a',
            '256k',
          ];
  return [
    '-y',
    '-i',
    plan.input,
    '-map',
    '0:v:0',
    '-vf',
    `subtitles=filename=${escapeFilterValue(plan.assPath)}:fontsdir=${escapeFilterValue(plan.fontsDir)}`,
    '-c:v',
    'libx264',
    '-preset',
    plan.preset,
    '-crf',
    String(CRF),
    '-pix_fmt',
    pixelFormat,
    '-fps_mode',
    'passthrough',
    ...audio,
    '-movflags',
    '+faststart',
    plan.output,
  ];
}

export interface StyleOverrides {
  position?: CaptionPosition;
  maxWordsPerLine?: number;
  highlightActiveWord?: boolean;
}

/** Animations that mark the word being spoken; `highlight_active_word: false` turns them off. */
const MARKS_ACTIVE_WORD = new Set<CaptionStyle['animation']>([
  'highlight',
  'karaoke',
  'emphasis',
  'word-box',
]);

/** Roughly the characters one more word needs on a line, so max_words_per_line is not cut short by maxChars. */
const CHARS_PER_WORD = 7;

/** A preset with the request's position, words per line and active-word highlight applied. */
export function applyOverrides(style: CaptionStyle, overrides: StyleOverrides): CaptionStyle {
  const out: CaptionStyle = { ...style, chunking: { ...style.chunking } };
  if (overrides.position) out.position = overrides.position;
  if (overrides.maxWordsPerLine !== undefined) {
    out.chunking.maxWords = overrides.maxWordsPerLine;
    out.chunking.maxChars = Math.max(style.chunking.maxChars, overrides.maxWordsPerLine * CHARS_PER_WORD);
  }
  if (overrides.highlightActiveWord === true && !MARKS_ACTIVE_WORD.has(style.animation))
    out.animation = 'highlight';
  if (overrides.highlightActiveWord === false && MARKS_ACTIVE_WORD.has(style.animation))
    out.animation = 'none';
  return out;
}
