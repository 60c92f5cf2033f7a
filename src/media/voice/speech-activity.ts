// Finds where speech is and where it pauses, from short-time energy.

export interface Interval {
  start: number;
  end: number;
}

export interface LevelTrack {
  frameSec: number;
  /** RMS level of each frame, samples in [-1, 1]. */
  levels: Float32Array;
}

export function levelTrack(samples: Float32Array, sampleRate: number, frameSec = 0.01): LevelTrack {
  const size = Math.max(1, Math.round(sampleRate * frameSec));
  const count = Math.ceil(samples.length / size);
  const levels = new Float32Array(count);
  for (let f = 0; f < count; f++) {
    let sum = 0;
    const end = Math.min(samples.length, (f + 1) * size);
    for (let i = f * size; i < end; i++) sum += samples[i]! * samples[i]!;
    levels[f] = Math.sqrt(sum / (end - f * size));
  }
  return { frameSec, levels };
}

export interface ActivityOptions {
  /** Frames quieter than this fraction of the loudest frame in the range count as silence. */
  relativeThreshold?: number;
  /** Shortest silence reported as a pause, in seconds. */
  minPauseSec?: number;
  /** Voiced runs shorter than this at the edges of the range are ignored (resampling ringing, clicks). */
  minSpeechSec?: number;
}

export interface Activity {
  /** From the first to the last voiced frame; null when the range is silent. */
  speech: Interval | null;
  /** Silences of at least minPauseSec strictly inside `speech`. */
  pauses: Interval[];
}

export function findActivity(track: LevelTrack, range: Interval, opts: ActivityOptions = {}): Activity {
  const { frameSec, levels } = track;
  const framesPerSec = Math.round(1 / frameSec);
  // The epsilon keeps float noise (0.91 * 100 = 91.00000000000001) from adding a frame.
  const first = Math.max(0, Math.floor(range.start * framesPerSec + 1e-9));
  const last = Math.min(levels.length, Math.ceil(range.end * framesPerSec - 1e-9));
  const sorted = levels.slice(first, last).sort();
  const peak = sorted[sorted.length - 1] ?? 0;
  // Recordings have a noise floor: silence is judged against the quietest tenth of the frames as well as
  // the peak; the absolute floor keeps dither in a silent range from counting as speech.
  const noiseFloor = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const threshold = Math.max(peak * (opts.relativeThreshold ?? 0.02), noiseFloor * 3, 1e-4);
  const voiced = (f: number) => levels[f]! > threshold;
  const minRun = Math.max(1, Math.round((opts.minSpeechSec ?? 0.03) / frameSec));
  const runFrom = (f: number, step: 1 | -1) => {
    let n = 0;
    while (n < minRun && f + n * step >= first && f + n * step < last && voiced(f + n * step)) n++;
    return n;
  };
  let from = first;
  while (from < last && runFrom(from, 1) < minRun) from++;
  let to = last - 1;
  while (to >= from && runFrom(to, -1) < minRun) to--;
  if (from > to) return { speech: null, pauses: [] };
  const at = (f: number) => Math.min(range.end, Math.max(range.start, f / framesPerSec));
  const minFrames = Math.round((opts.minPauseSec ?? 0.1) / frameSec);
  const pauses: Interval[] = [];
  let run = 0;
  for (let f = from; f <= to; f++) {
    if (!voiced(f)) {
      run++;
      continue;
    }
    if (run >= minFrames) pauses.push({ start: at(f - run), end: at(f) });
    run = 0;
  }
  return { speech: { start: at(from), end: at(to + 1) }, pauses };
}
