// ffmpeg argument lists for the voice pipeline.

export const NARRATION_SAMPLE_RATE = 48_000;
export const ALIGNMENT_SAMPLE_RATE = 16_000;

const WAV_OUT = ['-ac', '1', '-c:a', 'pcm_s16le'];

/** Joins WAV pieces end to end into one mono 16-bit WAV at `sampleRate`. */
export function concatWavArgs(
  inputs: readonly string[],
  outPath: string,
  sampleRate = NARRATION_SAMPLE_RATE,
): string[] {
  const labels = inputs.map((_, i) => `[${i}:a]`).join('');
  return [
    ...['-v', 'error', '-y'],
    ...inputs.flatMap((input) => ['-i', input]),
    ...['-filter_complex', `${labels}concat=n=${inputs.length}:v=0:a=1[out]`, '-map', '[out]'],
    ...['-ar', String(sampleRate), ...WAV_OUT, outPath],
  ];
}

/** Any audio file → mono 16-bit WAV at `sampleRate`. */
export function toWavArgs(input: string, outPath: string, sampleRate = NARRATION_SAMPLE_RATE): string[] {
  return ['-v', 'error', '-y', '-i', input, '-vn', '-ar', String(sampleRate), ...WAV_OUT, outPath];
}

/** Headerless 16 kHz mono 16-bit audio for pocketsphinx, with `padSec` of silence appended. */
export function alignmentRawArgs(input: string, outPath: string, padSec: number): string[] {
  return [
    ...['-v', 'error', '-y', '-i', input, '-vn', '-af', `apad=pad_dur=${padSec}`],
    ...['-ar', String(ALIGNMENT_SAMPLE_RATE), '-ac', '1', '-f', 's16le', outPath],
  ];
}

/** Changes tempo without changing pitch. */
export function tempoArgs(input: string, outPath: string, tempo: number): string[] {
  return ['-v', 'error', '-y', '-i', input, '-af', `atempo=${tempo}`, ...WAV_OUT, outPath];
}
