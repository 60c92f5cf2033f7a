// Runs one external binary (espeak-ng, ffmpeg, pocketsphinx) and collects its output.
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

export class ProcessError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(
      `${command} exited with ${exitCode ?? 'a signal'}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`,
    );
    this.name = 'ProcessError';
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason });
}

export function runProcess(
  command: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    opts.signal?.throwIfAborted();
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], signal: opts.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(opts.signal?.aborted ? abortReason(opts.signal) : error));
    child.on('close', (code) => {
      if (opts.signal?.aborted) return reject(abortReason(opts.signal));
      const stderr = Buffer.concat(err).toString('utf8');
      if (code !== 0) return reject(new ProcessError(command, code, stderr));
      resolve({ stdout: Buffer.concat(out), stderr });
    });
    // A child that exits before reading all of stdin raises EPIPE; its exit code reports the real problem.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}
