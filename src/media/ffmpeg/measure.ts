// Quality measurements of finished media: loudness, black intervals, and a poster frame.
import { num } from './filter-escape.ts';
import { runFfmpeg, type FfmpegRunOptions } from './runner.ts';

export interface LoudnessStats {
  /** Integrated loudness, LUFS (-70 for silence). */
  integratedLufs: number;
  /** True peak, dBTP (-Infinity for silence). */
  truePeakDb: number;
  /** Loudness range, LU. */
  lra: number;
}

export interface BlackInterval {
  start: number;
  end: number;
  duration: number;
}

export function buildLoudnessArgs(path: string): string[] {
  return ['-i', path, '-vn', '-sn', '-dn', '-af', 'ebur128=peak=true', '-f', 'null', '-'];
}

function summaryValue(summary: string, label: string, unit: string): number {
  const match = new RegExp(`${label}:\\s*(-?inf|-?\\d+(?:\\.\\d+)?)\\s*${unit}`).exec(summary);
  if (!match?.[1]) throw new Error(`ebur128 summary lacks ${label}`);
  const text = match[1];
  if (text === '-inf') return -Infinity;
  if (text === 'inf') return Infinity;
  return Number(text);
}

/** Reads the "Summary:" block the ebur128 filter prints at the end of a run. */
export function parseEbur128Summary(stderr: string): LoudnessStats {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) throw new Error('no ebur128 summary in ffmpeg output');
  const summary = stderr.slice(at);
  return {
    integratedLufs: summaryValue(summary, 'I', 'LUFS'),
    truePeakDb: summaryValue(summary, 'Peak', 'dBFS'),
    lra: summaryValue(summary, 'LRA', 'LU'),
  };
}

export async function measureLoudness(path: string, options: FfmpegRunOptions = {}): Promise<LoudnessStats> {
  const { stderrTail } = await runFfmpeg(buildLoudnessArgs(path), options);
  return parseEbur128Summary(stderrTail);
}

export interface DetectBlackOptions {
  /** Shortest black run reported, seconds. */
  minDuration?: number;
  /** Luma level (0–1) under which a pixel counts as black. */
  pixelThreshold?: number;
}

export function buildBlackDetectArgs(path: string, options: DetectBlackOptions = {}): string[] {
  const d = options.minDuration ?? 0.5;
  const pixTh = options.pixelThreshold ?? 0.1;
  return [
    '-i',
    path,
    '-an',
    '-sn',
    '-dn',
    '-vf',
    `blackdetect=d=${num(d)}:pix_th=${num(pixTh)}`,
    '-f',
    'null',
    '-',
  ];
}

const BLACK_LINE = /black_start:\s*(-?[\d.]+)\s+black_end:\s*(-?[\d.]+)\s+black_duration:\s*(-?[\d.]+)/;

/** One blackdetect log line → interval, or null for any other line. */
export function parseBlackDetectLine(line: string): BlackInterval | null {
  const match = BLACK_LINE.exec(line);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { start: Number(match[1]), end: Number(match[2]), duration: Number(match[3]) };
}

export async function detectBlack(
  path: string,
  options: DetectBlackOptions = {},
  run: FfmpegRunOptions = {},
): Promise<BlackInterval[]> {
  const intervals: BlackInterval[] = [];
  await runFfmpeg(buildBlackDetectArgs(path, options), {
    ...run,
    onStderrLine: (line) => {
      const interval = parseBlackDetectLine(line);
      if (interval) intervals.push(interval);
      run.onStderrLine?.(line);
    },
  });
  return intervals;
}

export function buildPosterArgs(videoPath: string, jpgPath: string, atSec: number): string[] {
  // Input-side seek is fast and frame-accurate when decoding; -update 1 writes a single image file.
  return [
    '-y',
    '-ss',
    num(Math.max(0, atSec), 3),
    '-i',
    videoPath,
    '-frames:v',
    '1',
    '-q:v',
    '2',
    '-update',
    '1',
    jpgPath,
  ];
}

export async function extractPoster(
  videoPath: string,
  jpgPath: string,
  atSec: number,
  options: FfmpegRunOptions = {},
): Promise<void> {
  await runFfmpeg(buildPosterArgs(videoPath, jpgPath, atSec), options);
}
