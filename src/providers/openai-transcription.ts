// Transcription through an OpenAI-compatible endpoint (POST {baseURL}/audio/transcriptions, verbose_json with
// word timestamps), as served by OpenAI and by self-hosted Whisper servers, in the shape of a SpeechRecognizer.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import OpenAI, { toFile } from 'openai';
import {
  baseLanguage,
  type SpeechRecognizer,
  type TranscribeOptions,
  type Transcript,
} from '../media/speech/recognizer.ts';
import type { WordTiming } from '../media/types.ts';

export interface OpenAiTranscriptionConfig {
  /** e.g. "https://api.openai.com/v1"; the client appends "/audio/transcriptions". */
  baseURL: string;
  /** Self-hosted servers often need none. */
  apiKey?: string;
  /** e.g. "whisper-1", or the model name a self-hosted server expects. */
  model: string;
  timeoutMs?: number;
  /** Retries of timeouts, 408/409/429 and 5xx answers, with backoff; other 4xx answers are never retried. */
  maxRetries?: number;
}

export class TranscriptionServiceError extends Error {
  constructor(
    message: string,
    /** HTTP status from the service, when it answered. */
    readonly status: number | undefined,
    /** Whether trying again later may succeed (server error, rate limit, network) or not (bad request, auth). */
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TranscriptionServiceError';
  }
}

/** Whisper's languages: ISO 639-1 code → the English name OpenAI reports in verbose_json. */
const WHISPER_LANGUAGES: Readonly<Record<string, string>> = {
  en: 'english',
  zh: 'chinese',
  de: 'german',
  es: 'spanish',
  ru: 'russian',
  ko: 'korean',
  fr: 'french',
  ja: 'japanese',
  pt: 'portuguese',
  tr: 'turkish',
  pl: 'polish',
  ca: 'catalan',
  nl: 'dutch',
  ar: 'arabic',
  sv: 'swedish',
  it: 'italian',
  id: 'indonesian',
  hi: 'hindi',
  fi: 'finnish',
  vi: 'vietnamese',
  he: 'hebrew',
  uk: 'ukrainian',
  el: 'greek',
  ms: 'malay',
  cs: 'czech',
  ro: 'romanian',
  da: 'danish',
  hu: 'hungarian',
  ta: 'tamil',
  no: 'norwegian',
  th: 'thai',
  ur: 'urdu',
  hr: 'croatian',
  bg: 'bulgarian',
  lt: 'lithuanian',
  la: 'latin',
  mi: 'maori',
  ml: 'malayalam',
  cy: 'welsh',
  sk: 'slovak',
  te: 'telugu',
  fa: 'persian',
  lv: 'latvian',
  bn: 'bengali',
  sr: 'serbian',
  az: 'azerbaijani',
  sl: 'slovenian',
  kn: 'kannada',
  et: 'estonian',
  mk: 'macedonian',
  br: 'breton',
  eu: 'basque',
  is: 'icelandic',
  hy: 'armenian',
  ne: 'nepali',
  mn: 'mongolian',
  bs: 'bosnian',
  kk: 'kazakh',
  sq: 'albanian',
  sw: 'swahili',
  gl: 'galician',
  mr: 'marathi',
  pa: 'punjabi',
  si: 'sinhala',
  km: 'khmer',
  sn: 'shona',
  yo: 'yoruba',
  so: 'somali',
  af: 'afrikaans',
  oc: 'occitan',
  ka: 'georgian',
  be: 'belarusian',
  tg: 'tajik',
  sd: 'sindhi',
  gu: 'gujarati',
  am: 'amharic',
  yi: 'yiddish',
  lo: 'lao',
  uz: 'uzbek',
  fo: 'faroese',
  ht: 'haitian creole',
  ps: 'pashto',
  tk: 'turkmen',
  nn: 'nynorsk',
  mt: 'maltese',
  sa: 'sanskrit',
  lb: 'luxembourgish',
  my: 'myanmar',
  bo: 'tibetan',
  tl: 'tagalog',
  mg: 'malagasy',
  as: 'assamese',
  tt: 'tatar',
  haw: 'hawaiian',
  ln: 'lingala',
  ha: 'hausa',
  ba: 'bashkir',
  jw: 'javanese',
  su: 'sundanese',
  yue: 'cantonese',
};

const CODE_BY_NAME = new Map(Object.entries(WHISPER_LANGUAGES).map(([code, name]) => [name, code]));

/** The language as an ISO code, whether the server answered "english" (OpenAI) or "en" (many self-hosted). */
export function languageCode(reported: string): string {
  const value = reported.trim().toLowerCase();
  return CODE_BY_NAME.get(value) ?? baseLanguage(value);
}

interface VerboseWord {
  word: string;
  start: number;
  end: number;
  /** faster-whisper based servers report a per-word probability; OpenAI does not. */
  probability?: number;
}

interface VerboseSegment {
  start: number;
  end: number;
  avg_logprob?: number;
}

export interface VerboseTranscription {
  text: string;
  language: string;
  duration: number;
  words?: VerboseWord[];
  segments?: VerboseSegment[];
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * Converts a verbose_json answer. A word's confidence is its own probability where the server gives one, else
 * the mean token probability of the segment it falls in (exp of the segment's avg_logprob).
 */
export function fromVerboseJson(body: VerboseTranscription): Transcript {
  const segments = body.segments ?? [];
  const words: WordTiming[] = (body.words ?? [])
    .map((w): WordTiming => {
      const timing: WordTiming = { word: w.word.trim(), start: w.start, end: w.end };
      const middle = (w.start + w.end) / 2;
      const segment = segments.find((s) => middle >= s.start && middle <= s.end);
      if (typeof w.probability === 'number') timing.confidence = clamp01(w.probability);
      else if (typeof segment?.avg_logprob === 'number')
        timing.confidence = clamp01(Math.exp(segment.avg_logprob));
      return timing;
    })
    .filter((w) => w.word.length > 0);
  return {
    language: languageCode(body.language),
    durationSec: body.duration,
    words,
    text: body.text.trim(),
  };
}

export class OpenAiTranscriber implements SpeechRecognizer {
  readonly id: string;
  private readonly client: OpenAI;

  constructor(private readonly config: OpenAiTranscriptionConfig) {
    this.id = `openai-transcription:${config.model}`;
    this.client = new OpenAI({
      baseURL: config.baseURL,
      // The SDK insists on a key; self-hosted servers ignore the header.
      apiKey: config.apiKey || 'unused',
      timeout: config.timeoutMs ?? 600_000,
      maxRetries: config.maxRetries ?? 2,
    });
  }

  languages(): string[] {
    return Object.keys(WHISPER_LANGUAGES);
  }

  async transcribe(audioPath: string, opts: TranscribeOptions = {}): Promise<Transcript> {
    opts.onProgress?.(0);
    const file = await toFile(createReadStream(audioPath), basename(audioPath));
    let body: VerboseTranscription;
    try {
      body = await this.client.audio.transcriptions.create(
        {
          file,
          model: this.config.model,
          response_format: 'verbose_json',
          timestamp_granularities: ['word'],
          ...(opts.languageHint ? { language: baseLanguage(opts.languageHint) } : {}),
        },
        { signal: opts.signal },
      );
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const status = error instanceof OpenAI.APIError ? error.status : undefined;
      const retryable =
        status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
      const detail = error instanceof Error ? error.message : String(error);
      throw new TranscriptionServiceError(`Transcription request failed: ${detail}`, status, retryable, {
        cause: error,
      });
    }
    const transcript = fromVerboseJson(body);
    opts.onProgress?.(1);
    return transcript;
  }
}
