// ffmpeg and ffprobe over the one process runner: the global options every ffmpeg run takes, and its progress.
import { runProcess, type ProcessResult, type RunProcessOptions } from '../process/run-process.ts';
import { createProgressParser } from './progress.ts';

export interface RunOptions extends Omit<RunProcessOptions, 'input' | 'onStdout'> {
  /** Binary to run; defaults to 'ffmpeg' / 'ffprobe' on PATH. */
  binary?: string;
}

export interface FfmpegRunOptions extends RunOptions {
  /** Output time written so far, in seconds. */
  onProgress?: (seconds: number) => void;
}

export interface FfmpegResult {
  stderrTail: string;
}

/** Arguments actually passed to ffmpeg: quiet banner, no stdin, machine-readable progress on stdout. */
export function ffmpegProcessArgs(args: readonly string[]): string[] {
  return ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', ...args];
}

/** Runs ffmpeg with `args` (everything after the global options this adds). */
export async function runFfmpeg(args: string[], options: FfmpegRunOptions = {}): Promise<FfmpegResult> {
  const { binary = 'ffmpeg', onProgress, ...run } = options;
  // stdout carries only the progress reports: parsed when someone listens, never collected.
  const onStdout = onProgress ? createProgressParser(onProgress) : () => {};
  const { stderrTail } = await runProcess(binary, ffmpegProcessArgs(args), { ...run, onStdout });
  return { stderrTail };
}

/** Runs ffprobe with `args` and returns its full stdout. */
export function runFfprobe(args: string[], options: RunOptions = {}): Promise<ProcessResult> {
  const { binary = 'ffprobe', ...run } = options;
  return runProcess(binary, args, run);
}
