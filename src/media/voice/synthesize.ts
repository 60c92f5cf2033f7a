// Local narration: the voice's engine (flite, festival or espeak-ng) speaks the script sentence by sentence (so
// every sentence boundary is exact), the pieces are joined into one 48 kHz mono WAV, and every word gets a
// timing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { sentenceEstimateTimer } from './estimate-timer.ts';
import { NARRATION_SAMPLE_RATE, concatWavArgs } from './ffmpeg-args.ts';
import { pocketsphinxTimer } from './pocketsphinx-timer.ts';
import { splitScript } from './script-words.ts';
import { checkSpeed } from './speed.ts';
import { synthesisCommand } from './synthesis-command.ts';
import type { VoiceInfo } from './voice-catalogue.ts';
import { parseWav } from './wav-file.ts';
import { timeWords, type TimingSegment, type TimingSource, type WordTimer } from './word-timer.ts';

export interface SynthesizeOptions {
  text: string;
  voice: VoiceInfo;
  /** 0.7–1.3; 1 is the voice's normal rate. */
  speed?: number;
  /** Where the WAV is written. */
  outPath: string;
  signal?: AbortSignal;
  /** Timing methods to try in order; by default pocketsphinx alignment (English), then sentence estimates. */
  timers?: readonly WordTimer[];
}

export interface SynthesizedSpeech {
  audioPath: string;
  durationSec: number;
  sampleRate: number;
  words: WordTiming[];
  voiceId: string;
  timingSource: TimingSource;
  /** Words the aligner missed and that were placed between their neighbours. */
  interpolatedWords: number;
  /** Timing methods that were tried first and why they were not used. */
  timingFallbacks: { source: TimingSource; reason: string }[];
}

export function defaultWordTimers(): WordTimer[] {
  return [pocketsphinxTimer(), sentenceEstimateTimer()];
}

// The engines are single-threaded; two at a time keeps a shared 2-core machine responsive.
const CONCURRENCY = 2;

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function synthesize(options: SynthesizeOptions): Promise<SynthesizedSpeech> {
  const { voice, signal } = options;
  const speed = checkSpeed(options.speed ?? 1);
  const sentences = splitScript(options.text, voice.language);
  if (sentences.length === 0) throw new Error('Narration text has no words to speak.');

  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-voice-'));
  try {
    const pieces = await mapLimited(sentences, CONCURRENCY, async (sentence, i) => {
      const path = join(dir, `sentence-${i}.wav`);
      const { command, args, input } = synthesisCommand(voice, sentence.text, speed, path);
      await runProcess(command, args, { input, signal });
      return { path, durationSec: parseWav(await readFile(path)).durationSec };
    });
    await runProcess(
      'ffmpeg',
      concatWavArgs(
        pieces.map((p) => p.path),
        options.outPath,
      ),
      { signal },
    );

    let cursor = 0;
    const segments: TimingSegment[] = sentences.map((sentence, i) => {
      const start = cursor;
      cursor += pieces[i]!.durationSec;
      return { start, end: cursor, words: sentence.words };
    });
    const durationSec = parseWav(await readFile(options.outPath)).durationSec;
    const timed = await timeWords(
      {
        audioPath: options.outPath,
        language: voice.language,
        segments,
        espeakVoice: voice.espeakVoice,
        signal,
      },
      options.timers ?? defaultWordTimers(),
    );
    return {
      audioPath: options.outPath,
      durationSec,
      sampleRate: NARRATION_SAMPLE_RATE,
      words: timed.words,
      voiceId: voice.id,
      timingSource: timed.source,
      interpolatedWords: timed.interpolated,
      timingFallbacks: timed.fallbacks,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
