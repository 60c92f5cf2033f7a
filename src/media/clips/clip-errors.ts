// Errors of the clip engine that the caller can explain to the user (a source it cannot clip).

export type ClipSourceProblem = 'NO_VIDEO_STREAM' | 'UNREADABLE_SOURCE';

export class ClipSourceError extends Error {
  override readonly name = 'ClipSourceError';
  constructor(
    readonly problem: ClipSourceProblem,
    message: string,
  ) {
    super(message);
  }
}
