// Mel-frequency cepstral coefficients of 16 kHz mono samples (25 ms frames every 10 ms), the usual description
// of a voice's spectral envelope for telling speakers apart.

const SAMPLE_RATE = 16000;
const FRAME = 400;
export const MFCC_HOP = 160;
const FFT_SIZE = 512;
const MEL_BANDS = 24;
export const MFCC_DIMS = 12;

function melOf(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}

/** Triangular mel filters over the FFT bins, 100–7000 Hz. */
function melFilterbank(): Float64Array[] {
  const low = melOf(100);
  const high = melOf(7000);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => {
    const mel = low + ((high - low) * i) / (MEL_BANDS + 1);
    return Math.round(((700 * (10 ** (mel / 2595) - 1)) / SAMPLE_RATE) * FFT_SIZE);
  });
  return Array.from({ length: MEL_BANDS }, (_, b) => {
    const filter = new Float64Array(FFT_SIZE / 2 + 1);
    const [left, centre, right] = [edges[b]!, edges[b + 1]!, edges[b + 2]!];
    for (let k = left; k < centre; k++) filter[k] = (k - left) / Math.max(1, centre - left);
    for (let k = centre; k <= right; k++) filter[k] = (right - k) / Math.max(1, right - centre);
    return filter;
  });
}

const FILTERS = melFilterbank();
const WINDOW = Float64Array.from(
  { length: FRAME },
  (_, n) => 0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (FRAME - 1)),
);

/** In-place iterative radix-2 FFT of (re, im); the length must be a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const step = (-2 * Math.PI) / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const cos = Math.cos(step * k);
        const sin = Math.sin(step * k);
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b]! * cos - im[b]! * sin;
        const ti = re[b]! * sin + im[b]! * cos;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

/**
 * MFCCs 1–12 of the frame starting at sample `at`, or undefined for a frame quieter than about −50 dBFS (room
 * noise, not voice).
 */
export function frameMfcc(samples: Int16Array, at: number): Float64Array | undefined {
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  let energy = 0;
  for (let n = 0; n < FRAME; n++) {
    const x = (samples[at + n] ?? 0) / 32768;
    energy += x * x;
    re[n] = x * WINDOW[n]!;
  }
  if (energy / FRAME < 1e-5) return undefined;
  fft(re, im);
  const logMel = FILTERS.map((filter) => {
    let sum = 0;
    for (let k = 0; k < filter.length; k++) {
      const weight = filter[k]!;
      if (weight > 0) sum += weight * (re[k]! * re[k]! + im[k]! * im[k]!);
    }
    return Math.log(sum + 1e-10);
  });
  const out = new Float64Array(MFCC_DIMS);
  for (let c = 0; c < MFCC_DIMS; c++) {
    let acc = 0;
    for (let b = 0; b < MEL_BANDS; b++)
      acc += logMel[b]! * Math.cos((Math.PI * (c + 1) * (b + 0.5)) / MEL_BANDS);
    out[c] = acc;
  }
  return out;
}

/** The audible frames' MFCCs between `start` and `end` seconds. */
export function mfccFrames(samples: Int16Array, start: number, end: number): Float64Array[] {
  const first = Math.max(0, Math.floor(start * SAMPLE_RATE));
  const last = Math.min(samples.length - FRAME, Math.floor(end * SAMPLE_RATE) - FRAME);
  const frames: Float64Array[] = [];
  for (let at = first; at <= last; at += MFCC_HOP) {
    const frame = frameMfcc(samples, at);
    if (frame) frames.push(frame);
  }
  return frames;
}
