// Motion measured on decoded frames, independent of how they were made: FFT phase correlation between
// patches of consecutive frames gives each patch's displacement to a fraction of a pixel; patches around
// the centre give the frame-to-frame scale change. Used by the motion tests and benchmarks.

/** In-place radix-2 FFT of length re.length (a power of two); `inverse` without the 1/n scaling. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
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
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = start + k;
        const b = a + len / 2;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/** 2-D FFT of an n×n array (row-major), in place. */
export function fft2(re: Float64Array, im: Float64Array, n: number, inverse = false): void {
  const rr = new Float64Array(n);
  const ri = new Float64Array(n);
  for (let pass = 0; pass < 2; pass++) {
    for (let line = 0; line < n; line++) {
      for (let k = 0; k < n; k++) {
        const at = pass === 0 ? line * n + k : k * n + line;
        rr[k] = re[at]!;
        ri[k] = im[at]!;
      }
      fft(rr, ri, inverse);
      for (let k = 0; k < n; k++) {
        const at = pass === 0 ? line * n + k : k * n + line;
        re[at] = rr[k]!;
        im[at] = ri[k]!;
      }
    }
  }
}

export interface GrayFrame {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Shift {
  dx: number;
  dy: number;
  /** Height of the phase-correlation peak (1 for a pure shift; near 0 when the patches do not match). */
  peak: number;
}

function windowedPatch(frame: GrayFrame, cx: number, cy: number, n: number): Float64Array {
  const out = new Float64Array(n * n);
  const x0 = Math.round(cx - n / 2);
  const y0 = Math.round(cy - n / 2);
  if (x0 < 0 || y0 < 0 || x0 + n > frame.width || y0 + n > frame.height)
    throw new RangeError('patch leaves the frame');
  let mean = 0;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) mean += frame.data[(y0 + y) * frame.width + x0 + x]!;
  mean /= n * n;
  for (let y = 0; y < n; y++) {
    const wy = 0.5 - 0.5 * Math.cos((2 * Math.PI * (y + 0.5)) / n);
    for (let x = 0; x < n; x++) {
      const wx = 0.5 - 0.5 * Math.cos((2 * Math.PI * (x + 0.5)) / n);
      out[y * n + x] = (frame.data[(y0 + y) * frame.width + x0 + x]! - mean) * wx * wy;
    }
  }
  return out;
}

/**
 * How far the content of the n×n patch centred at (cx, cy) moved from frame `a` to frame `b`. Phase
 * correlation with a low-pass mask: the cross-power spectrum divided by the square root of its magnitude
 * (halfway to pure phase correlation, which lets noisy bins count as much as the picture's) and tapered to
 * zero at a quarter of the sampling rate. Its surface is a symmetric peak centred on the shift: the integer
 * maximum is searched on the inverse FFT, then the exact maximum by Newton steps on the surface evaluated
 * analytically between pixels (fitting a parabola to the samples instead would pull toward whole pixels).
 */
export function patchShift(a: GrayFrame, b: GrayFrame, cx: number, cy: number, n = 128): Shift {
  const ar = windowedPatch(a, cx, cy, n);
  const br = windowedPatch(b, cx, cy, n);
  const ai = new Float64Array(n * n);
  const bi = new Float64Array(n * n);
  fft2(ar, ai, n);
  fft2(br, bi, n);
  const band = n / 4;
  const signed = (k: number) => (k >= n / 2 ? k - n : k);
  // Weighted cross-power spectrum B·conj(A): phase -2π(u·dx + v·dy)/n for content moved by (dx, dy).
  const pr = new Float64Array(n * n);
  const pi = new Float64Array(n * n);
  let total = 0;
  for (let k = 0; k < n * n; k++) {
    const r = Math.hypot(signed(k % n), signed(Math.floor(k / n))) / band;
    if (r >= 1) continue;
    const mask = Math.cos((Math.PI / 2) * r) ** 2;
    const cr = br[k]! * ar[k]! + bi[k]! * ai[k]!;
    const ci = bi[k]! * ar[k]! - br[k]! * ai[k]!;
    const w = mask / (Math.sqrt(Math.hypot(cr, ci)) || 1);
    pr[k] = cr * w;
    pi[k] = ci * w;
    total += Math.hypot(cr, ci) * w;
  }
  const terms: { fu: number; fv: number; re: number; im: number }[] = [];
  for (let k = 0; k < n * n; k++) {
    if (pr[k] !== 0 || pi[k] !== 0)
      terms.push({ fu: signed(k % n), fv: signed(Math.floor(k / n)), re: pr[k]!, im: pi[k]! });
  }
  fft2(pr, pi, n, true);
  let best = 0;
  for (let k = 1; k < n * n; k++) if (pr[k]! > pr[best]!) best = k;
  let x = signed(best % n);
  let y = signed(Math.floor(best / n));
  const step = (2 * Math.PI) / n;
  let value = 0;
  for (let iteration = 0; iteration < 8; iteration++) {
    let gx = 0;
    let gy = 0;
    let hxx = 0;
    let hxy = 0;
    let hyy = 0;
    value = 0;
    for (const t of terms) {
      const phase = step * (t.fu * x + t.fv * y);
      const c = Math.cos(phase);
      const s = Math.sin(phase);
      const re = t.re * c - t.im * s;
      const im = t.re * s + t.im * c;
      const u = step * t.fu;
      const v = step * t.fv;
      value += re;
      gx -= u * im;
      gy -= v * im;
      hxx -= u * u * re;
      hxy -= u * v * re;
      hyy -= v * v * re;
    }
    const det = hxx * hyy - hxy * hxy;
    if (!(det > 0 && hxx < 0)) break;
    const dx = (hyy * gx - hxy * gy) / det;
    const dy = (hxx * gy - hxy * gx) / det;
    x -= Math.max(-0.5, Math.min(0.5, dx));
    y -= Math.max(-0.5, Math.min(0.5, dy));
    if (Math.abs(dx) < 1e-6 && Math.abs(dy) < 1e-6) break;
  }
  return { dx: x, dy: y, peak: total > 0 ? value / total : 0 };
}

export interface FrameMotion {
  /** Mean displacement of the patches, px (positive: content moved right / down). */
  dx: number;
  dy: number;
  /** Relative scale change from one frame to the next (positive: the picture grew, a zoom in). */
  expansion: number;
  /** Weakest patch match of the pair. */
  peak: number;
}

/**
 * Motion between two frames from four patches at ±radius (x) and ±radius (y) around the centre: their mean
 * displacement is the translation, their mean outward displacement over the radius the scale change.
 */
export function frameMotion(
  a: GrayFrame,
  b: GrayFrame,
  radius: { x: number; y: number },
  n = 128,
): FrameMotion {
  const cx = a.width / 2;
  const cy = a.height / 2;
  const points = [
    { x: cx - radius.x, y: cy, ux: -1, uy: 0, r: radius.x },
    { x: cx + radius.x, y: cy, ux: 1, uy: 0, r: radius.x },
    { x: cx, y: cy - radius.y, ux: 0, uy: -1, r: radius.y },
    { x: cx, y: cy + radius.y, ux: 0, uy: 1, r: radius.y },
  ];
  let dx = 0;
  let dy = 0;
  let expansion = 0;
  let peak = 1;
  for (const p of points) {
    const s = patchShift(a, b, p.x, p.y, n);
    dx += s.dx / 4;
    dy += s.dy / 4;
    expansion += (s.dx * p.ux + s.dy * p.uy) / p.r / 4;
    peak = Math.min(peak, s.peak);
  }
  return { dx, dy, expansion, peak };
}

export interface Smoothness {
  mean: number;
  /**
   * Smallest ratio of a value to the mean of its four nearest neighbours (two each side): near 0 where the
   * picture stalls between moving frames, near 1 for eased motion.
   */
  minLocalRatio: number;
  /** RMS of the second differences over the mean: large for steps and stalls, small for eased motion. */
  jerk: number;
}

/**
 * How evenly a per-frame motion series (expansion or displacement) moves. `average` first averages each
 * value with its neighbours (3 → one each side), to look past noise of single frames.
 */
export function smoothness(series: readonly number[], average = 1): Smoothness {
  const half = Math.floor(average / 2);
  const values = series.map((_, i) => {
    const part = series.slice(Math.max(0, i - half), i + half + 1);
    return part.reduce((a, b) => a + b, 0) / part.length;
  });
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  let minLocalRatio = Infinity;
  for (let i = 2; i + 2 < n; i++) {
    const around = (values[i - 2]! + values[i - 1]! + values[i + 1]! + values[i + 2]!) / 4;
    minLocalRatio = Math.min(minLocalRatio, values[i]! / around);
  }
  let sq = 0;
  for (let i = 1; i + 1 < n; i++) sq += (values[i + 1]! - 2 * values[i]! + values[i - 1]!) ** 2;
  return { mean, minLocalRatio, jerk: Math.sqrt(sq / Math.max(1, n - 2)) / Math.abs(mean) };
}
