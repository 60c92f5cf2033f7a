// The transcript of spec 2 §2.6 from a recognizer's words, and the files of its output_formats.
import type { CaptionStyle } from '../../media/captions/caption-style.ts';
import { buildAss } from '../../media/captions/build-ass.ts';
import type { FrameSize } from '../../media/captions/safe-zone.ts';
import type { SpeakerSummary } from '../../media/speech/diarize.ts';
import { toText } from '../../media/subtitles/plain-text.ts';
import { toSrt } from '../../media/subtitles/srt.ts';
import { toVtt } from '../../media/subtitles/vtt.ts';
import type { WordTiming } from '../../media/types.ts';
import { maskProfanity } from './profanity.ts';

export const OUTPUT_FORMATS = ['json', 'srt', 'vtt', 'ass', 'txt'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  /** 0–1; null when the engine reports none for the word. */
  confidence: number | null;
  /** Speaker id ("S1", "S2"…) with diarization; null without. */
  speaker: string | null;
}

export interface TranscriptSpeaker {
  id: string;
  estimated_minutes_active: number;
}

export interface Transcript {
  text: string;
  language: string;
  /** Mean word confidence, 0–1; null when the engine reports none. */
  confidence: number | null;
  duration_sec: number;
  word_count: number;
  words: TranscriptWord[];
  speakers: TranscriptSpeaker[];
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Letters and digits only, lower case: how a recognized word and a token of the text are compared. */
function bare(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** How far ahead in the text a word's token is looked for (the text may hold tokens the words lack). */
const LOOKAHEAD = 3;

/**
 * Services return bare words plus a punctuated, cased text: each word takes its spelling from the matching
 * token of the text, so subtitles can break at sentence ends. Words without a match stay as they are.
 */
export function punctuateWords(text: string, words: readonly WordTiming[]): WordTiming[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  let next = 0;
  return words.map((word) => {
    const key = bare(word.word);
    for (let k = next; k < Math.min(tokens.length, next + LOOKAHEAD); k++) {
      if (key !== '' && bare(tokens[k]!) === key) {
        next = k + 1;
        return { ...word, word: tokens[k]! };
      }
    }
    return { ...word };
  });
}

export interface TranscriptInput {
  text: string;
  language: string;
  durationSec: number;
  words: readonly WordTiming[];
  /** Present with diarization (words then carry `speaker`). */
  speakers?: readonly SpeakerSummary[];
  filterProfanity: boolean;
}

export function buildTranscript(input: TranscriptInput): Transcript {
  const clean = input.filterProfanity ? maskProfanity : (s: string) => s;
  const words: TranscriptWord[] = punctuateWords(input.text, input.words).map((w) => ({
    text: clean(w.word),
    start: round3(w.start),
    end: round3(w.end),
    confidence: w.confidence === undefined ? null : round3(w.confidence),
    speaker: input.speakers ? (w.speaker ?? null) : null,
  }));
  const scored = words.flatMap((w) => (w.confidence === null ? [] : [w.confidence]));
  const text = input.text.trim() || input.words.map((w) => w.word).join(' ');
  return {
    text: clean(text),
    language: input.language,
    confidence: scored.length > 0 ? round3(scored.reduce((a, b) => a + b, 0) / scored.length) : null,
    duration_sec: round3(input.durationSec),
    word_count: words.length,
    words,
    speakers: (input.speakers ?? []).map((s) => ({
      id: s.id,
      estimated_minutes_active: round3(s.activeMinutes),
    })),
  };
}

/** The transcript's words as the subtitle writers take them. */
export function transcriptTimings(transcript: Pick<Transcript, 'words'>): WordTiming[] {
  return transcript.words.map((w) => ({ word: w.text, start: w.start, end: w.end }));
}

export interface TranscriptFile {
  format: OutputFormat;
  name: string;
  contentType: string;
  role: 'transcript' | 'subtitle';
  content: string;
}

export interface FileOptions {
  /** Caption look of the `ass` file. */
  style: CaptionStyle;
  /** Frame the `ass` file is laid out for (the source video's, or a vertical 1080×1920 for audio). */
  frame: FrameSize;
}

export function transcriptFile(
  transcript: Transcript,
  format: OutputFormat,
  options: FileOptions,
): TranscriptFile {
  const timings = transcriptTimings(transcript);
  const name = `transcript.${format}`;
  switch (format) {
    case 'json':
      return {
        format,
        name,
        contentType: 'application/json',
        role: 'transcript',
        content: `${JSON.stringify(transcript, null, 2)}\n`,
      };
    case 'txt':
      return { format, name, contentType: 'text/plain', role: 'transcript', content: toText(timings) };
    case 'srt':
      return { format, name, contentType: 'application/x-subrip', role: 'subtitle', content: toSrt(timings) };
    case 'vtt':
      return { format, name, contentType: 'text/vtt', role: 'subtitle', content: toVtt(timings) };
    case 'ass':
      return {
        format,
        name,
        contentType: 'text/x-ssa',
        role: 'subtitle',
        content: buildAss(timings, options.style, options.frame),
      };
  }
}
