// Pixel helpers for the talking head's small patches: RGBA images in memory, bilinear sampling, smooth ramps,
// and curves through landmark points in a rotated local frame (mouth axis, eye axis).

export interface RgbaImage {
  /** Packed RGBA, row by row. */
  data: Uint8Array;
  width: number;
  height: number;
}

/** Part of a larger picture: its pixels, and where they lie in that picture (x, y of the top-left one). */
export interface RgbaRegion extends RgbaImage {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Point = readonly [number, number];

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** Hermite ramp: 0 at or below 0, 1 at or above 1, smooth in between. */
export function smooth01(v: number): number {
  const t = clamp01(v);
  return t * t * (3 - 2 * t);
}

/** A bump that is 1 at 0 and falls smoothly to 0 at |t| ≥ 1 (flat at both ends). */
export function bump(t: number): number {
  const a = 1 - t * t;
  return a <= 0 ? 0 : a * a;
}

export function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** Bilinear sample of an RGBA image at a continuous position (integer coordinates are pixel centres), edges clamped. */
export function sampleRgba(image: RgbaImage, x: number, y: number, out: Float64Array): void {
  const { data, width, height } = image;
  const cx = x < 0 ? 0 : x > width - 1 ? width - 1 : x;
  const cy = y < 0 ? 0 : y > height - 1 ? height - 1 : y;
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const i00 = (y0 * width + x0) * 4;
  const i10 = (y0 * width + x1) * 4;
  const i01 = (y1 * width + x0) * 4;
  const i11 = (y1 * width + x1) * 4;
  for (let c = 0; c < 4; c++) {
    const top = data[i00 + c]! + (data[i10 + c]! - data[i00 + c]!) * fx;
    const bottom = data[i01 + c]! + (data[i11 + c]! - data[i01 + c]!) * fx;
    out[c] = top + (bottom - top) * fy;
  }
}

/**
 * Bilinear sample of a picture read only in part, at a position in the whole picture's pixels. The region must
 * hold every position sampled; at the picture's own edges (where the region ends with it) the clamp is the same.
 */
export function sampleRegion(region: RgbaRegion, x: number, y: number, out: Float64Array): void {
  sampleRgba(region, x - region.x, y - region.y, out);
}

/** The whole pixels a rect touches, kept inside the image. */
export function pixelRectInside(rect: Rect, width: number, height: number): Rect {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(height, Math.ceil(rect.y + rect.height));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** A rect grown to even coordinates and sizes (4:2:0 chroma stays aligned when it is overlaid) and kept inside the image. */
export function evenRectInside(rect: Rect, width: number, height: number): Rect {
  const x0 = Math.max(0, Math.floor(rect.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(rect.y / 2) * 2);
  const x1 = Math.min(width - (width % 2), Math.ceil((rect.x + rect.width) / 2) * 2);
  const y1 = Math.min(height - (height % 2), Math.ceil((rect.y + rect.height) / 2) * 2);
  return { x: x0, y: y0, width: Math.max(2, x1 - x0), height: Math.max(2, y1 - y0) };
}

/**
 * A local frame: origin and unit axis (u along the axis, v perpendicular, pointing down the picture when the
 * axis points right). Mouth and eye shapes are worked out in it, so a tilted head is handled like an upright one.
 */
export class LocalFrame {
  readonly cos: number;
  readonly sin: number;
  constructor(
    readonly origin: Point,
    angle: number,
  ) {
    this.cos = Math.cos(angle);
    this.sin = Math.sin(angle);
  }

  static along(from: Point, to: Point): LocalFrame {
    const origin: Point = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
    return new LocalFrame(origin, Math.atan2(to[1] - from[1], to[0] - from[0]));
  }

  toLocal(p: Point): [number, number] {
    return [this.u(p[0], p[1]), this.v(p[0], p[1])];
  }

  toImage(u: number, v: number): [number, number] {
    return [this.x(u, v), this.y(u, v)];
  }

  // Single coordinates, for per-pixel loops that should not allocate.
  u(x: number, y: number): number {
    return (x - this.origin[0]) * this.cos + (y - this.origin[1]) * this.sin;
  }

  v(x: number, y: number): number {
    return -(x - this.origin[0]) * this.sin + (y - this.origin[1]) * this.cos;
  }

  x(u: number, v: number): number {
    return this.origin[0] + u * this.cos - v * this.sin;
  }

  y(u: number, v: number): number {
    return this.origin[1] + u * this.sin + v * this.cos;
  }
}

/**
 * v as a piecewise-linear function of u through points given in a local frame, constant beyond the ends.
 * Tabulated every STEP pixels, so the per-pixel loops read it without searching.
 */
export class Curve {
  private static readonly STEP = 0.25;
  readonly minU: number;
  readonly maxU: number;
  private readonly table: Float64Array;

  constructor(points: readonly (readonly [number, number])[]) {
    if (points.length === 0) throw new Error('a curve needs at least one point');
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    this.minU = sorted[0]![0];
    this.maxU = sorted[sorted.length - 1]![0];
    const count = Math.max(2, Math.ceil((this.maxU - this.minU) / Curve.STEP) + 1);
    this.table = new Float64Array(count);
    let k = 0;
    for (let i = 0; i < count; i++) {
      const u = Math.min(this.maxU, this.minU + i * Curve.STEP);
      while (k < sorted.length - 2 && sorted[k + 1]![0] < u) k++;
      const [u0, v0] = sorted[k]!;
      const [u1, v1] = sorted[Math.min(k + 1, sorted.length - 1)]!;
      this.table[i] = u1 > u0 ? v0 + ((v1 - v0) * (u - u0)) / (u1 - u0) : v0;
    }
  }

  at(u: number): number {
    const f = (u - this.minU) / Curve.STEP;
    const last = this.table.length - 1;
    if (f <= 0) return this.table[0]!;
    if (f >= last) return this.table[last]!;
    const i = Math.floor(f);
    return this.table[i]! + (this.table[i + 1]! - this.table[i]!) * (f - i);
  }
}

/** Fades a patch's alpha to 0 over `feather` pixels at its border, so it blends into the picture under it. */
export function featherBorder(patch: RgbaImage, feather: number): void {
  const { data, width, height } = patch;
  for (let y = 0; y < height; y++) {
    const dy = Math.min(y, height - 1 - y);
    for (let x = 0; x < width; x++) {
      const d = Math.min(dy, x, width - 1 - x);
      if (d >= feather) continue;
      const i = (y * width + x) * 4 + 3;
      data[i] = Math.round(data[i]! * smooth01((d + 0.5) / feather));
    }
  }
}

function gradientEnergy(lum: Float32Array, width: number, height: number): number {
  let sum = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = lum[i + 1]! - lum[i - 1]!;
      const gy = lum[i + width]! - lum[i - width]!;
      sum += gx * gx + gy * gy;
    }
  }
  return sum;
}

function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  const radius = Math.ceil(3 * sigma);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) =>
    Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  const pass = (from: Float32Array, horizontal: boolean) => {
    const to = new Float32Array(from.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = -radius; k <= radius; k++) {
          const xx = horizontal ? Math.min(width - 1, Math.max(0, x + k)) : x;
          const yy = horizontal ? y : Math.min(height - 1, Math.max(0, y + k));
          sum += from[yy * width + xx]! * kernel[k + radius]!;
        }
        to[y * width + x] = sum / total;
      }
    }
    return to;
  };
  return pass(pass(src, true), false);
}

/**
 * How blurred a region of the picture is, as the σ (pixels) of a Gaussian blur its edges look like. Blurring
 * an edge of blur σ0 once more by σ1 keeps σ0/√(σ0²+σ1²) of its gradient energy, so the energy kept by a known
 * extra blur tells σ0. Painted edges are drawn this soft so they match the photo (an enlarged thumbnail is soft).
 * `image` must hold the rect.
 */
export function edgeBlur(image: RgbaRegion, rect: Rect): number {
  const { width, height } = rect;
  const lum = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = ((rect.y - image.y + y) * image.width + rect.x - image.x + x) * 4;
      lum[y * width + x] = 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!;
    }
  }
  const energy = gradientEnergy(lum, width, height);
  if (energy === 0) return 0.5;
  const extra = 1.5;
  const kept = Math.min(
    0.995,
    gradientEnergy(gaussianBlur(lum, width, height, extra), width, height) / energy,
  );
  return Math.min(8, Math.max(0.5, (extra * kept) / Math.sqrt(1 - kept * kept)));
}
