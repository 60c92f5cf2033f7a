// Loudness normalisation of the final mix, planned from ebur128 measurements of audio-only passes.
//
// Measuring with ebur128 and applying one exact gain is what makes the result land on target: loudnorm's
// own first-pass meter read 1.1 LU lower than ebur128 on a 6 s mix with a faded tail, so its "linear"
// second pass missed -14 LUFS by that much. When the gain would push peaks over the ceiling, a
// look-ahead limiter holds them and further measurements correct the gain for what the limiter removed.
import { num } from '../ffmpeg/filter-escape.ts';
import type { LoudnessStats } from '../ffmpeg/measure.ts';

export interface LoudnessTarget {
  /** Integrated loudness, LUFS. */
  integratedLufs: number;
  /** Highest true peak allowed, dBTP. */
  truePeakDb: number;
}

/** The gain stage the render applies to the mix. */
export interface LoudnessGain {
  gainDb: number;
  /** Peak-limit after the gain (needed when the gain alone would exceed the true-peak ceiling). */
  limiter: boolean;
}

/** ebur128 reports -70 LUFS for silence: nothing to normalise. */
export const SILENCE_LUFS = -70;
/**
 * The limiter works on sample peaks, and AAC encoding adds overshoot on transients (measured +0.3 dB on
 * tone bursts, +1.1 dB on clicks), so it limits 1 dB under the true-peak target.
 */
export const LIMITER_HEADROOM_DB = 1;

export function isSilent(stats: LoudnessStats): boolean {
  return !Number.isFinite(stats.integratedLufs) || stats.integratedLufs <= SILENCE_LUFS;
}

/** Gain from the first measurement of the raw mix. */
export function initialGain(stats: LoudnessStats, target: LoudnessTarget): LoudnessGain {
  if (isSilent(stats)) return { gainDb: 0, limiter: false };
  const gainDb = target.integratedLufs - stats.integratedLufs;
  // Peaks left between the limiter's ceiling and the target come out of the AAC encoder over the target (a
  // 2 s phrase planned at −1.6 dBTP was delivered at −0.7): anything above the ceiling is limited.
  return { gainDb, limiter: stats.truePeakDb + gainDb > target.truePeakDb - LIMITER_HEADROOM_DB };
}

/** A gain tried on the limited mix and the loudness measured with it. */
export interface GainTrial {
  gainDb: number;
  measuredLufs: number;
}

/**
 * Next gain for a limited mix. The limiter absorbs part of any extra gain, so loudness grows less than
 * 1 dB per dB: the first correction assumes 1:1, later ones use the slope through the last two trials
 * (kept within 0.25–1 so a noisy measurement cannot send the gain far off).
 */
export function nextLimitedGain(trials: readonly GainTrial[], target: LoudnessTarget): LoudnessGain {
  const last = trials[trials.length - 1];
  if (!last) throw new Error('nextLimitedGain needs at least one trial');
  const previous = trials[trials.length - 2];
  let slope = 1;
  if (previous && last.gainDb !== previous.gainDb) {
    slope = (last.measuredLufs - previous.measuredLufs) / (last.gainDb - previous.gainDb);
    slope = Math.min(1, Math.max(0.25, slope));
  }
  return { gainDb: last.gainDb + (target.integratedLufs - last.measuredLufs) / slope, limiter: true };
}

/** Filter chain (without labels) for a gain stage. */
export function gainFilter(gain: LoudnessGain, target: LoudnessTarget): string {
  const volume = `volume=${num(gain.gainDb, 2)}dB`;
  if (!gain.limiter) return volume;
  const ceiling = Math.pow(10, (target.truePeakDb - LIMITER_HEADROOM_DB) / 20);
  return `${volume},alimiter=limit=${num(ceiling, 4)}:attack=5:release=50:level=false:latency=true`;
}
