// Where a clip is cut: around its first and last word, padded into the silence on each side but never past
// the middle of that silence, so no word of the moment or of its neighbours is cut.

/** Most silence kept before the first word and after the last (s): a breath, and room for the last word's tail. */
export const PAD_BEFORE_SEC = 0.25;
export const PAD_AFTER_SEC = 0.45;

export interface MomentSpan {
  /** First word's start and last word's end, s. */
  startSec: number;
  endSec: number;
  /** Silence before the first word and after the last, s. */
  gapBefore: number;
  gapAfter: number;
}

export interface ClipBounds {
  startSec: number;
  endSec: number;
  durationSec: number;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function clipBounds(span: MomentSpan, sourceDurationSec: number): ClipBounds {
  const before = Math.min(PAD_BEFORE_SEC, Math.max(0, span.gapBefore) / 2);
  const after = Math.min(PAD_AFTER_SEC, Math.max(0, span.gapAfter) / 2);
  const startSec = round3(Math.max(0, span.startSec - before));
  const endSec = round3(Math.min(Math.max(sourceDurationSec, span.endSec), span.endSec + after));
  return { startSec, endSec, durationSec: round3(endSec - startSec) };
}
