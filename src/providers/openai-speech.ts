// Narration from an OpenAI-compatible speech endpoint (POST {baseURL}/audio/speech), with word timings
// added afterwards: forced alignment for English, sentence estimates otherwise.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { MAX_SPEED, MIN_SPEED } from '../media/voice/speed.ts';
import { NARRATION_SAMPLE_RATE, toWavArgs } from '../media/voice/ffmpeg-args.ts';
import { runProcess } from '../media/process/run-process.ts';
import type { SynthesizedSpeech } from '../media/voice/synthesize.ts';
import { timeRecordedSpeech } from '../media/voice/time-recorded-speech.ts';
import { resolveVoice, VoiceUnavailableError } from '../media/voice/voice-catalogue.ts';
import type { WordTimer } from '../media/voice/word-timer.ts';

export interface OpenAiSpeechConfig {
  /** e.g. "https://api.openai.com/v1"; the client appends "/audio/speech". */
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface SpeechRequest {
  text: string;
  /** The service's voice name, e.g. "alloy". */
  voice: string;
  /** Language of the text, for word timing. */
  language: string;
  /** 0.7–1.3, like local narration. */
  speed?: number;
  /** Where the 48 kHz mono WAV is written. */
  outPath: string;
  signal?: AbortSignal;
  /** Timing methods to try in order (default: recordedSpeechTimers(), alignment for English, else estimates). */
  timers?: readonly WordTimer[];
}

export class SpeechServiceError extends Error {
  constructor(
    message: string,
    /** HTTP status from the service, when it answered. */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpeechServiceError';
  }
}

/** espeak voice for the language, whose phonemes help place words; none when espeak can't speak it. */
function espeakVoiceFor(language: string): string | undefined {
  try {
    return resolveVoice({ language }).espeakVoice;
  } catch (error) {
    if (error instanceof VoiceUnavailableError) return undefined;
    throw error;
  }
}

export class OpenAiSpeechClient {
  private readonly client: OpenAI;

  constructor(private readonly config: OpenAiSpeechConfig) {
    this.client = new OpenAI({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      timeout: config.timeoutMs ?? 120_000,
      maxRetries: config.maxRetries ?? 2,
    });
  }

  async synthesize(request: SpeechRequest): Promise<SynthesizedSpeech> {
    const speed = request.speed ?? 1;
    if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
      throw new RangeError(`speed must be between ${MIN_SPEED} and ${MAX_SPEED}, got ${speed}`);
    }
    const audio = await this.fetchAudio(request.text, request.voice, speed, request.signal);
    const dir = await mkdtemp(join(tmpdir(), 'reelsmith-speech-'));
    try {
      const downloaded = join(dir, 'speech');
      await writeFile(downloaded, audio);
      // ffmpeg reads whatever container came back (some compatible servers ignore response_format).
      await runProcess('ffmpeg', toWavArgs(downloaded, request.outPath), { signal: request.signal });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const timed = await timeRecordedSpeech({
      audioPath: request.outPath,
      text: request.text,
      language: request.language,
      espeakVoice: espeakVoiceFor(request.language),
      signal: request.signal,
      timers: request.timers,
    });
    return {
      audioPath: request.outPath,
      durationSec: timed.durationSec,
      sampleRate: NARRATION_SAMPLE_RATE,
      words: timed.words,
      voiceId: `${this.config.model}:${request.voice}`,
      timingSource: timed.source,
      interpolatedWords: timed.interpolated,
      timingFallbacks: timed.fallbacks,
    };
  }

  private async fetchAudio(
    input: string,
    voice: string,
    speed: number,
    signal?: AbortSignal,
  ): Promise<Buffer> {
    try {
      const response = await this.client.audio.speech.create(
        { model: this.config.model, voice, input, response_format: 'wav', speed },
        { signal },
      );
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const status = error instanceof OpenAI.APIError ? error.status : undefined;
      const detail = error instanceof Error ? error.message : String(error);
      throw new SpeechServiceError(`Speech service request failed: ${detail}`, status, { cause: error });
    }
  }
}
