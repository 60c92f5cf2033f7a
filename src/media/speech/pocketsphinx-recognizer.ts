// Local English transcription with pocketsphinx: decode to 16 kHz PCM, cut long audio at pauses, decode the
// chunks in parallel and put the words back on the original timeline.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { RECOGNIZER_SAMPLE_RATE, toRecognizerPcm } from './audio-prep.ts';
import { DEBIAN_EN_US_MODEL, type PocketsphinxModel } from './model.ts';
import { parseTimedWords, transcribeArgs, type DecoderTuning } from './pocketsphinx.ts';
import {
  baseLanguage,
  UnsupportedLanguageError,
  type SpeechRecognizer,
  type TranscribeOptions,
  type Transcript,
} from './recognizer.ts';
import { parseSilences, planChunks, silenceDetectArgs, type Interval } from './silence-split.ts';

/**
 * Chosen with bench/speech/evaluate.ts on pocketsphinx-testdata's recordings: a lower language weight than the
 * default 6.5 / 8.5 / 9.5 (first pass / flat pass / lattice) trusts the acoustics more, which cut WER from 37.5 %
 * to 31.3 %. Wider beams, more Gaussians (-topn), other insertion penalties and VAD settings changed nothing or
 * made it worse. The VAD (-remove_silence) is off because with it this pocketsphinx version misplaces the words
 * of every utterance after the first one by seconds; chunks are cut at pauses instead.
 */
export const RECOGNIZE_TUNING: DecoderTuning = { lw: 6, fwdflatlw: 8, bestpathlw: 9, removeSilence: false };

export interface PocketsphinxRecognizerOptions {
  model?: PocketsphinxModel;
  tuning?: DecoderTuning;
  /** Chunks decoded at once; one pocketsphinx process each. */
  concurrency?: number;
  /**
   * Chunk length bounds for long audio. Each chunk is decoded as one utterance (about 0.4 s CPU to load the
   * model); on the joined testdata recordings 5–15 s gave 26 % WER where 10–20 s gave 37 % and 2–8 s 40 %.
   */
  minChunkSec?: number;
  maxChunkSec?: number;
}

export class PocketsphinxRecognizer implements SpeechRecognizer {
  readonly id = 'pocketsphinx-en-us';
  private readonly model: PocketsphinxModel;
  private readonly tuning: DecoderTuning;
  private readonly concurrency: number;
  private readonly minChunkSec: number;
  private readonly maxChunkSec: number;

  constructor(opts: PocketsphinxRecognizerOptions = {}) {
    this.model = opts.model ?? DEBIAN_EN_US_MODEL;
    this.tuning = opts.tuning ?? RECOGNIZE_TUNING;
    this.concurrency = Math.max(1, opts.concurrency ?? 2);
    this.minChunkSec = opts.minChunkSec ?? 5;
    this.maxChunkSec = opts.maxChunkSec ?? 15;
  }

  languages(): string[] {
    return ['en'];
  }

  async transcribe(audioPath: string, opts: TranscribeOptions = {}): Promise<Transcript> {
    if (opts.languageHint && baseLanguage(opts.languageHint) !== 'en') {
      throw new UnsupportedLanguageError(this.id, opts.languageHint);
    }
    const dir = await mkdtemp(join(tmpdir(), 'reelsmith-asr-'));
    try {
      const pcmPath = join(dir, 'audio.raw');
      const durationSec = await toRecognizerPcm(audioPath, pcmPath, { signal: opts.signal });
      const chunks = await this.chunksOf(pcmPath, durationSec, opts.signal);
      const perChunk: WordTiming[][] = new Array<WordTiming[]>(chunks.length);
      let doneSec = 0;
      opts.onProgress?.(0);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < chunks.length) {
          const index = next++;
          const chunk = chunks[index]!;
          perChunk[index] = await this.decodeChunk(
            pcmPath,
            chunk,
            join(dir, `chunk-${index}.raw`),
            opts.signal,
          );
          doneSec += chunk.end - chunk.start;
          opts.onProgress?.(durationSec > 0 ? Math.min(1, doneSec / durationSec) : 1);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, chunks.length) }, worker));
      const words = perChunk.flat();
      return { language: 'en', durationSec, words, text: words.map((w) => w.word).join(' ') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async chunksOf(pcmPath: string, durationSec: number, signal?: AbortSignal): Promise<Interval[]> {
    if (durationSec <= this.maxChunkSec) return [{ start: 0, end: durationSec }];
    // silencedetect reports every silence on stderr: more lines than an error's stderr tail keeps.
    const log: string[] = [];
    await runProcess('ffmpeg', silenceDetectArgs(pcmPath, -35, 0.3), {
      signal,
      onStderrLine: (l) => log.push(l),
    });
    const silences = parseSilences(log.join('\n'), durationSec);
    return planChunks(durationSec, silences, this.minChunkSec, this.maxChunkSec);
  }

  private async decodeChunk(
    pcmPath: string,
    chunk: Interval,
    chunkPath: string,
    signal?: AbortSignal,
  ): Promise<WordTiming[]> {
    const firstSample = Math.round(chunk.start * RECOGNIZER_SAMPLE_RATE);
    const sampleCount = Math.round(chunk.end * RECOGNIZER_SAMPLE_RATE) - firstSample;
    const buffer = Buffer.alloc(sampleCount * 2);
    const file = await open(pcmPath, 'r');
    try {
      await file.read(buffer, 0, buffer.length, firstSample * 2);
    } finally {
      await file.close();
    }
    await writeFile(chunkPath, buffer);
    const { stdout } = await runProcess(
      'pocketsphinx_continuous',
      transcribeArgs(this.model, chunkPath, this.tuning),
      {
        signal,
      },
    );
    const offset = firstSample / RECOGNIZER_SAMPLE_RATE;
    return parseTimedWords(stdout).map((token) => ({
      word: token.word,
      start: round3(token.start + offset),
      end: round3(Math.min(token.end, sampleCount / RECOGNIZER_SAMPLE_RATE) + offset),
      confidence: token.posterior,
    }));
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
