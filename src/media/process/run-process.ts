// The one place that runs an external tool (ffmpeg, ffprobe, espeak-ng, pocketsphinx): its input and output,
// cancellation, time limit and priority, and an error that carries what the tool said.
import { spawn } from 'node:child_process';
import { commandAt, type ProcessPriority } from './lower-priority.ts';

export type ProcessFailure = 'exit' | 'aborted' | 'timeout' | 'spawn';

export interface ProcessErrorDetails {
  reason: ProcessFailure;
  command: string;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** Last few KB of the tool's stderr: enough to see what actually went wrong. */
  stderrTail: string;
  cause?: unknown;
}

export class ProcessError extends Error {
  override readonly name = 'ProcessError';
  readonly reason: ProcessFailure;
  readonly command: string;
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly stderrTail: string;

  constructor(message: string, details: ProcessErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = details.reason;
    this.command = details.command;
    this.exitCode = details.exitCode;
    this.exitSignal = details.exitSignal;
    this.stderrTail = details.stderrTail;
  }
}

export interface RunProcessOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  cwd?: string;
  /** Written to the child's stdin, which is then closed; without it the child reads an empty stdin. */
  input?: string;
  /** Time between SIGTERM (lets ffmpeg finalize its output) and SIGKILL. */
  killGraceMs?: number;
  /** 'background' for work nobody waits for: it then yields the CPU and disk to everything else. */
  priority?: ProcessPriority;
  /** Receives stdout as it arrives instead of collecting it (ffmpeg's progress reports). */
  onStdout?: (chunk: string) => void;
  /** Called with each stderr line (ffmpeg filters such as blackdetect and silencedetect report there). */
  onStderrLine?: (line: string) => void;
}

export interface ProcessResult {
  /** Everything the tool wrote to stdout, or '' when `onStdout` took it. */
  stdout: string;
  stderrTail: string;
}

const STDERR_TAIL_CHARS = 4096;
const DEFAULT_KILL_GRACE_MS = 2000;

function appendTail(tail: string, chunk: string): string {
  const joined = tail + chunk;
  return joined.length > STDERR_TAIL_CHARS ? joined.slice(joined.length - STDERR_TAIL_CHARS) : joined;
}

function lastLines(text: string, count: number): string {
  const lines = text.split(/\r?\n|\r/).filter((line) => line.trim() !== '');
  return lines.slice(-count).join(' | ');
}

/**
 * What an aborted run rejects with: the caller's own reason, as fetch and node:timers/promises do, so a
 * cancelled job reads as cancelled; a reason that is not an Error is kept as the cause of a ProcessError.
 */
function abortError(command: string, signal: AbortSignal, stderrTail: string): Error {
  if (signal.reason instanceof Error) return signal.reason;
  return new ProcessError(`${command} aborted`, {
    reason: 'aborted',
    command,
    exitCode: null,
    exitSignal: null,
    stderrTail,
    cause: signal.reason,
  });
}

/**
 * Runs `command` with `args` to completion. It resolves when the tool exits with status 0 and rejects with a
 * ProcessError otherwise; on abort or time-out the tool is stopped (SIGTERM, then SIGKILL) before it settles.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortError(command, options.signal, ''));
      return;
    }
    const launch = commandAt(options.priority ?? 'normal', command, args);
    const child = spawn(launch.command, launch.args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
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
    const settle = () => {
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (options.onStdout) options.onStdout(chunk);
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
    // A tool that exits before reading all its input raises EPIPE here; its exit status tells the real story.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');

    child.on('error', (error) => {
      if (settled) return;
      settle();
      reject(
        new ProcessError(`cannot run ${command}: ${error.message}`, {
          reason: 'spawn',
          command,
          exitCode: null,
          exitSignal: null,
          stderrTail,
          cause: error,
        }),
      );
    });
    child.on('close', (code, exitSignal) => {
      if (settled) return;
      settle();
      if (stderrPending && options.onStderrLine) options.onStderrLine(stderrPending);
      const details = { command, exitCode: code, exitSignal, stderrTail };
      if (stopReason === 'aborted' && options.signal) {
        reject(abortError(command, options.signal, stderrTail));
      } else if (stopReason === 'timeout') {
        reject(
          new ProcessError(`${command} timed out after ${options.timeoutMs} ms`, {
            ...details,
            reason: 'timeout',
          }),
        );
      } else if (code !== 0) {
        const status = code === null ? `signal ${exitSignal}` : `code ${code}`;
        reject(
          new ProcessError(`${command} exited with ${status}: ${lastLines(stderrTail, 3)}`, {
            ...details,
            reason: 'exit',
          }),
        );
      } else {
        resolve({ stdout, stderrTail });
      }
    });
  });
}
