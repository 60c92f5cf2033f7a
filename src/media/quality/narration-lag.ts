// Where the narration sits in the delivered audio: the lag at which the narration's loudness envelope best
// matches the mix's. Music under the voice, ducking and the loudness stage change levels, not the rhythm of
// the syllables, so the correlation of log-energy envelopes peaks where the narration really is.

/** Envelope step, seconds (5 ms: well under the 40 ms and 100 ms the gate cares about). */
export const ENVELOPE_STEP_SEC = 0.005;
/** Lags searched either way, seconds. */
export const MAX_LAG_SEC = 1;

/** Log-energy per step of mono samples at `sampleRate`. */
export function logEnvelope(samples: Float32Array, sampleRate: number): Float64Array {
  const step = Math.max(1, Math.round(sampleRate * ENVELOPE_STEP_SEC));
  const out = new Float64Array(Math.floor(samples.length / step));
  for (let i = 0; i < out.length; i++) {
    let energy = 0;
    for (let j = i * step; j < (i + 1) * step; j++) energy += samples[j]! * samples[j]!;
    out[i] = Math.log10(energy / step + 1e-10);
  }
  return out;
}

function pearson(a: Float64Array, b: Float64Array, lag: number): number {
  // a[i] is compared with b[i + lag].
  const from = Math.max(0, -lag);
  const to = Math.min(a.length, b.length - lag);
  const n = to - from;
  if (n < 20) return -1;
  let sa = 0;
  let sb = 0;
  for (let i = from; i < to; i++) {
    sa += a[i]!;
    sb += b[i + lag]!;
  }
  const ma = sa / n;
  const mb = sb / n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = from; i < to; i++) {
    const da = a[i]! - ma;
    const db = b[i + lag]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : -1;
}

export interface NarrationLag {
  /** Seconds the narration starts later in the mix than in its own file (negative: earlier). */
  lagSec: number;
  /** Correlation at that lag, −1..1: how sure the finding is. */
  correlation: number;
}

/** The lag of `narration` inside `mix` (both envelopes from logEnvelope at the same rate). */
export function findNarrationLag(narration: Float64Array, mix: Float64Array): NarrationLag {
  const maxSteps = Math.round(MAX_LAG_SEC / ENVELOPE_STEP_SEC);
  let best = 0;
  let bestScore = -Infinity;
  const scores = new Map<number, number>();
  for (let lag = -maxSteps; lag <= maxSteps; lag++) {
    const score = pearson(narration, mix, lag);
    scores.set(lag, score);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  // A parabola through the peak and its neighbours places it between steps.
  const left = scores.get(best - 1);
  const right = scores.get(best + 1);
  let offset = 0;
  if (left !== undefined && right !== undefined) {
    const curve = left - 2 * bestScore + right;
    if (curve < 0) offset = Math.max(-0.5, Math.min(0.5, (0.5 * (left - right)) / curve));
  }
  return { lagSec: (best + offset) * ENVELOPE_STEP_SEC, correlation: bestScore };
}
