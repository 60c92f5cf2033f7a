// Turns synthesized speech plus a fit decision into the final narration track.
import { readFile } from 'node:fs/promises';
import type { Narration } from '../types.ts';
import { runProcess } from '../process/run-process.ts';
import { tempoArgs } from './ffmpeg-args.ts';
import type { FitResult } from './fit-to-duration.ts';
import type { SynthesizedSpeech } from './synthesize.ts';
import { parseWav } from './wav-file.ts';

/** Applies `fit.tempo` with ffmpeg's atempo (pitch kept) into `outPath`; at tempo 1 the audio is used as is. */
export async function applyTempo(
  speech: SynthesizedSpeech,
  fit: FitResult,
  outPath: string,
  signal?: AbortSignal,
): Promise<Narration> {
  if (fit.tempo === 1) {
    return {
      audioPath: speech.audioPath,
      durationSec: speech.durationSec,
      words: speech.words,
      voiceId: speech.voiceId,
      tempo: 1,
    };
  }
  await runProcess('ffmpeg', tempoArgs(speech.audioPath, outPath, fit.tempo), { signal });
  return {
    audioPath: outPath,
    durationSec: parseWav(await readFile(outPath)).durationSec,
    words: fit.words,
    voiceId: speech.voiceId,
    tempo: fit.tempo,
  };
}
