// Turns any media file into the raw audio pocketsphinx reads: 16 kHz, mono, signed 16-bit little-endian PCM.
import { stat } from 'node:fs/promises';
import { runProcess } from '../process/run-process.ts';

export const RECOGNIZER_SAMPLE_RATE = 16000;
const BYTES_PER_SECOND = RECOGNIZER_SAMPLE_RATE * 2;

/** ffmpeg arguments that decode the first audio stream of `input` to raw PCM in `output`. */
export function recognizerPcmArgs(input: string, output: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    input,
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(RECOGNIZER_SAMPLE_RATE),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    output,
  ];
}

/** Decodes `input` to recognizer PCM at `output` and returns the decoded duration in seconds. */
export async function toRecognizerPcm(
  input: string,
  output: string,
  opts: { signal?: AbortSignal } = {},
): Promise<number> {
  await runProcess('ffmpeg', recognizerPcmArgs(input, output), { signal: opts.signal });
  return pcmDurationSec((await stat(output)).size);
}

export function pcmDurationSec(byteLength: number): number {
  return byteLength / BYTES_PER_SECOND;
}
