// One pass over the source's audio: the 16 kHz mono WAV the recognizer reads, and ebur128's momentary
// loudness every 100 ms (which prices every later loudness question: moment energy, clip gain).
import type { LoudnessBlock } from '../moments/loudness-track.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';

/** Sample rate of the recognizer copy: what local recognizers decode to anyway, and a small file. */
export const SPEECH_SAMPLE_RATE = 16000;

export function buildSourceAudioArgs(sourcePath: string, wavPath: string): string[] {
  return [
    '-y',
    '-i',
    sourcePath,
    '-filter_complex',
    '[0:a:0]ebur128=peak=true:framelog=info[meter]',
    '-map',
    '[meter]',
    '-f',
    'null',
    '-',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(SPEECH_SAMPLE_RATE),
    '-c:a',
    'pcm_s16le',
    wavPath,
  ];
}

const FRAME_LINE =
  /\bt:\s*([\d.]+)\s+TARGET:.*?\bM:\s*(-?[\d.]+|-?inf)\b.*?\bFTPK:((?:\s+(?:-?[\d.]+|-?inf))+)\s+dBFS/;

function parseLevel(text: string): number {
  if (text === '-inf') return -Infinity;
  if (text === 'inf') return Infinity;
  return Number(text);
}

/** One ebur128 frame-log line (`t: … M: … FTPK: L R dBFS …`) → a block, or null for any other line. */
export function parseEbur128FrameLine(line: string): LoudnessBlock | null {
  const match = FRAME_LINE.exec(line);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const peaks = match[3].trim().split(/\s+/).map(parseLevel);
  return { t: Number(match[1]), momentaryLufs: parseLevel(match[2]), peakDb: Math.max(...peaks) };
}

export interface SourceAudio {
  wavPath: string;
  loudness: LoudnessBlock[];
}

export async function extractSourceAudio(
  sourcePath: string,
  wavPath: string,
  run: FfmpegRunOptions = {},
): Promise<SourceAudio> {
  const loudness: LoudnessBlock[] = [];
  await runFfmpeg(buildSourceAudioArgs(sourcePath, wavPath), {
    ...run,
    onStderrLine: (line) => {
      const block = parseEbur128FrameLine(line);
      if (block) loudness.push(block);
    },
  });
  return { wavPath, loudness };
}
