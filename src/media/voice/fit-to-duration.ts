// How much to speed narration up so it fits its target length, and where its words land afterwards.
import type { WordTiming } from '../types.ts';

/** Faster than this sounds rushed; a longer narration has to be shortened instead. */
export const MAX_TEMPO = 1.35;

export interface FitInput {
  targetSec: number;
  durationSec: number;
  words: readonly WordTiming[];
  maxTempo?: number;
}

export interface FitResult {
  /** Tempo to apply (1 = unchanged), never above maxTempo. */
  tempo: number;
  /** Tempo that would make the narration fit exactly; above maxTempo means the script must be shortened. */
  requiredTempo: number;
  fits: boolean;
  /** Length after the tempo is applied. */
  durationSec: number;
  /** Word timings after the tempo is applied. */
  words: WordTiming[];
}

export function fitToDuration({ targetSec, durationSec, words, maxTempo = MAX_TEMPO }: FitInput): FitResult {
  if (!(targetSec > 0)) throw new RangeError(`target duration must be positive, got ${targetSec}`);
  const requiredTempo = Math.max(1, durationSec / targetSec);
  // Rounded up to 1/1000 (what ffmpeg's atempo is given) so the result never overruns the target.
  const tempo = Math.min(maxTempo, Math.ceil(requiredTempo * 1000 - 1e-9) / 1000);
  return {
    tempo,
    requiredTempo,
    fits: requiredTempo <= maxTempo,
    durationSec: durationSec / tempo,
    words: words.map((w) => ({ ...w, start: w.start / tempo, end: w.end / tempo })),
  };
}
