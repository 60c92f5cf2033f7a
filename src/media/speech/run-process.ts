// Runs one external tool (ffmpeg, espeak-ng, pocketsphinx) to completion, honouring an AbortSignal.
import { spawn } from 'node:child_process';

export interface ProcessResult {
  stdout: string;
  stderr: string;
}

export class ProcessError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(
      `${command} exited with ${exitCode ?? 'a signal'}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
    this.name = 'ProcessError';
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Written to the child's standard input, which is then closed. */
  input?: string;
  cwd?: string;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');
}

export function runProcess(
  command: string,
  args: readonly string[],
  opts: RunOptions = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(abortReason(opts.signal));
      return;
    }
    const child = spawn(command, args, {
      cwd: opts.cwd,
      signal: opts.signal,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (opts.signal?.aborted) reject(abortReason(opts.signal));
      else if (code === 0) resolve({ stdout, stderr });
      else reject(new ProcessError(command, code, stderr));
    });
    if (opts.input !== undefined && child.stdin) {
      // A child that exits before reading all input raises EPIPE here; its exit status is what gets reported.
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input);
    }
  });
}
