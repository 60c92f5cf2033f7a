// The one place that spawns ffmpeg and ffprobe: progress, cancellation, timeouts and error capture.
import { spawn } from 'node:child_process';
import { createProgressParser } from './progress.ts';

export type FfmpegFailure = 'exit' | 'aborted' | 'timeout' | 'spawn';

export class FfmpegError extends Error {
  override readonly name = 'FfmpegError';
  constructor(
    message: string,
    readonly reason: FfmpegFailure,
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    /** Last few KB of the tool's stderr: enough to see the actual ffmpeg error. */
    readonly stderrTail: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  cwd?: string;
  /** Binary to run; defaults to 'ffmpeg' / 'ffprobe' on PATH. */
  binary?: string;
  /** Time between SIGTERM (lets ffmpeg finalize) and SIGKILL. */
  killGraceMs?: number;
  /** Called with each complete stderr line (filters such as blackdetect report there). */
  onStderrLine?: (line: string) => void;
}

export interface FfmpegRunOptions extends RunOptions {
  /** Output time written so far, in seconds. */
  onProgress?: (seconds: number) => void;
}

export interface FfmpegResult {
  stderrTail: string;
}

export interface FfprobeResult {
  stdout: string;
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 4096;
const DEFAULT_KILL_GRACE_MS = 2000;

/** Arguments actually passed to ffmpeg: quiet banner, no stdin, machine-readable progress on stdout. */
export function ffmpegProcessArgs(args: readonly string[]): string[] {
  return ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', ...args];
}

/** Keeps the last `limit` characters of a growing string. */
export function appendTail(tail: string, chunk: string, limit: number = STDERR_TAIL_BYTES): string {
  const joined = tail + chunk;
  return joined.length > limit ? joined.slice(joined.length - limit) : joined;
}

interface SpawnResult {
  stdout: string;
  stderrTail: string;
}

function runTool(
  binary: string,
  args: string[],
  options: RunOptions,
  onStdout: ((chunk: string) => void) | null,
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new FfmpegError(`${binary} aborted before start`, 'aborted', null, null, ''));
      return;
    }
    const child = spawn(binary, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderrTail = '';
    let stderrPending = '';
    let stopReason: 'aborted' | 'timeout' | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const stop = (reason: 'aborted' | 'timeout') => {
      if (stopReason || child.exitCode !== null) return;
      stopReason = reason;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    };
    const onAbort = () => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timeout =
      options.timeoutMs !== undefined ? setTimeout(() => stop('timeout'), options.timeoutMs) : undefined;

    const cleanup = () => {
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (onStdout) onStdout(chunk);
      else stdout += chunk;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderrTail = appendTail(stderrTail, chunk);
      if (!options.onStderrLine) return;
      stderrPending += chunk;
      const lines = stderrPending.split(/\r?\n|\r/);
      stderrPending = lines.pop() ?? '';
      for (const line of lines) options.onStderrLine(line);
    });

    child.on('error', (err) => {
      if (settled) return;
      cleanup();
      reject(new FfmpegError(`cannot run ${binary}: ${err.message}`, 'spawn', null, null, stderrTail));
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      cleanup();
      if (stderrPending && options.onStderrLine) options.onStderrLine(stderrPending);
      if (stopReason) {
        const what = stopReason === 'timeout' ? `timed out after ${options.timeoutMs} ms` : 'aborted';
        reject(new FfmpegError(`${binary} ${what}`, stopReason, code, signal, stderrTail));
      } else if (code !== 0) {
        const lastLine = stderrTail.trimEnd().split('\n').pop() ?? '';
        const status = code === null ? `signal ${signal}` : `code ${code}`;
        reject(
          new FfmpegError(`${binary} exited with ${status}: ${lastLine}`, 'exit', code, signal, stderrTail),
        );
      } else {
        resolve({ stdout, stderrTail });
      }
    });
  });
}

/** Runs ffmpeg with `args` (everything after the global options this runner adds). */
export async function runFfmpeg(args: string[], options: FfmpegRunOptions = {}): Promise<FfmpegResult> {
  const onProgress = options.onProgress;
  const feed = onProgress ? createProgressParser(onProgress) : () => {};
  const { stderrTail } = await runTool(options.binary ?? 'ffmpeg', ffmpegProcessArgs(args), options, feed);
  return { stderrTail };
}

/** Runs ffprobe with `args` and returns its full stdout. */
export async function runFfprobe(args: string[], options: RunOptions = {}): Promise<FfprobeResult> {
  return runTool(options.binary ?? 'ffprobe', args, options, null);
}
