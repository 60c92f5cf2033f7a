// What the rest of the service needs from a speech recognizer, whichever engine is behind it.
import type { WordTiming } from '../types.ts';

export interface TranscribeOptions {
  /** BCP 47 tag of the expected language, e.g. "en" or "en-US"; engines may detect the language without it. */
  languageHint?: string;
  signal?: AbortSignal;
  /** Called with the fraction of the audio done so far, 0–1. */
  onProgress?: (fraction: number) => void;
}

export interface Transcript {
  /** Language of the transcript (ISO 639-1, e.g. "en"). */
  language: string;
  durationSec: number;
  /** Recognized words in order, each with a confidence 0–1. */
  words: WordTiming[];
  text: string;
}

export interface SpeechRecognizer {
  readonly id: string;
  /** ISO 639-1 codes this recognizer can transcribe. */
  languages(): string[];
  transcribe(audioPath: string, opts?: TranscribeOptions): Promise<Transcript>;
}

export class UnsupportedLanguageError extends Error {
  constructor(
    readonly recognizerId: string,
    readonly language: string,
  ) {
    super(`recognizer ${recognizerId} cannot transcribe language "${language}"`);
    this.name = 'UnsupportedLanguageError';
  }
}

/** The ISO 639-1 part of a BCP 47 tag ("en-GB" → "en"). */
export function baseLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}
