// A publish or notify call that did not go through. It never fails the article: the service reports it in the
// answer under its destination, with `retryable` saying whether sending again later may work.

export type DestinationErrorCode =
  'unauthorized' | 'rejected' | 'rate_limited' | 'unavailable' | 'unreachable' | 'bad_response';

export class DestinationError extends Error {
  constructor(
    readonly code: DestinationErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DestinationError';
  }
}

/** The failure as the answer shows it. */
export function destinationFailure(error: unknown): { code: string; message: string; retryable: boolean } {
  if (error instanceof DestinationError)
    return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'internal', message: 'The call failed on our side; it has been logged.', retryable: true };
}

/** A provider's own explanation, kept short enough for an answer and a log line. */
export function clipped(message: string, max = 300): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
