import { ReelsmithError } from '../errors.ts';

/** Exit codes of `reelsmith` (docs/integrations.md, "CLI"). */
export const EXIT = {
  ok: 0,
  /** The job failed or was cancelled, a download failed, the server could not be reached or answered 5xx. */
  failed: 1,
  /** Bad usage, or the server refused the request (invalid input, unknown job…). */
  usage: 2,
  /** No API key, or the server refused it. */
  auth: 3,
  /** The price was not confirmed: declined at the prompt, or no terminal to ask on and no --yes. */
  notConfirmed: 4,
  /** The balance does not cover the price (402). */
  credits: 5,
  interrupted: 130,
} as const;

/** An error the CLI reports in one line (no stack) and exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ReelsmithError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status === 402) return EXIT.credits;
    if (error.status >= 400 && error.status < 500 && error.status !== 429) return EXIT.usage;
  }
  return EXIT.failed;
}
