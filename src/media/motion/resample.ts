// Sub-pixel bilinear resampling of yuv420p frames (optionally with a yuva420p foreground layer blended over),
// the per-frame work of the local motion engine. The kernel is WebAssembly SIMD (resample.wat, assembled once
// per process with wabt): 1080×1920 frames cost a few ms each where plain JS took 22 ms.
import { readFileSync } from 'node:fs';
import wabt from 'wabt';
import type { Size, Viewport } from './camera-move.ts';

/** Bytes of a yuv420p frame. */
export function yuv420pBytes(size: Size): number {
  return size.width * size.height + 2 * (size.width / 2) * (size.height / 2);
}

/** Bytes of a yuva420p frame (yuv420p followed by a full-size alpha plane), as ffmpeg writes it. */
export function yuva420pBytes(size: Size): number {
  return yuv420pBytes(size) + size.width * size.height;
}

export interface ResamplerLayout {
  /** Size of the background source frames. */
  source: Size;
  /** Size of the foreground layer (yuva420p), when the shot has one. */
  foreground?: Size;
  output: Size;
}

/** Widest view the kernel takes, in source pixels per output pixel: eight outputs must span ≤ 15 bytes. */
export const MAX_DOWNSCALE = 1.75;

const PAGE = 65536;
/** Slack after every region: the kernel reads and writes in 16-byte steps past row and plane ends. */
const SLACK = 64;

/** The part of the WebAssembly API used here (the project's type libraries do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object): Promise<{ exports: unknown }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let kernel: Promise<object> | undefined;

function kernelModule(): Promise<object> {
  kernel ??= (async () => {
    const tools = await wabt();
    const text = readFileSync(new URL('./resample.wat', import.meta.url), 'utf8');
    const parsed = tools.parseWat('resample.wat', text, { simd: true });
    try {
      parsed.validate();
      return await wasm.compile(parsed.toBinary({}).buffer);
    } finally {
      parsed.destroy();
    }
  })();
  return kernel;
}

interface Kernel {
  memory: WasmMemory;
  plane: (
    src: number,
    stride: number,
    rows: number,
    dh: number,
    x0: number,
    ncols: number,
    tab: number,
    pairs: number,
    tmp: number,
    dst: number,
    dw: number,
  ) => void;
  blend: (bg: number, fg: number, alpha: number, n: number) => void;
}

interface PlaneAt {
  ptr: number;
  width: number;
  height: number;
}

/** Bump allocator over the kernel's memory, 16-byte aligned with slack after each region. */
class Arena {
  next = 0;
  take(bytes: number): number {
    const at = this.next;
    this.next = at + Math.ceil((bytes + SLACK) / 16) * 16;
    return at;
  }
}

interface Tables {
  rows: number;
  tab: number;
  x0: number;
  ncols: number;
}

/**
 * Resamples a viewport of a source frame (and optionally of a foreground layer) to an output frame. The
 * source and foreground are written in place through `source` / `setForeground`; `render` returns the
 * finished yuv420p frame, valid until the next-but-one call (two output buffers alternate, so one frame can
 * be in flight to a pipe while the next is drawn).
 */
export class YuvResampler {
  /** The background source frame (yuv420p of layout.source size): write each decoded frame here. */
  readonly source: Uint8Array;
  readonly layout: ResamplerLayout;
  private readonly k: Kernel;
  private readonly src: PlaneAt[];
  private readonly fg: PlaneAt[] | null;
  private readonly fgFrame: Uint8Array | null;
  private readonly outs: PlaneAt[][];
  private readonly fgOut: PlaneAt[] | null;
  private readonly tmp: number;
  private readonly tables: { full: Tables; half: Tables };
  private readonly xi: Int32Array;
  private readonly xf: Int32Array;
  private turn = 0;

  private constructor(k: Kernel, layout: ResamplerLayout, arena: Arena) {
    this.k = k;
    this.layout = layout;
    const yuv = (size: Size, alpha: boolean): PlaneAt[] => {
      const { width: w, height: h } = size;
      // One contiguous frame as ffmpeg's rawvideo has it; slack only after the last plane.
      const base = arena.take(alpha ? yuva420pBytes(size) + (w / 2) * (h / 2) : yuv420pBytes(size));
      const planes = [
        { ptr: base, width: w, height: h },
        { ptr: base + w * h, width: w / 2, height: h / 2 },
        { ptr: base + w * h + (w / 2) * (h / 2), width: w / 2, height: h / 2 },
      ];
      if (alpha) {
        planes.push({ ptr: base + yuv420pBytes(size), width: w, height: h });
        planes.push({ ptr: base + yuva420pBytes(size), width: w / 2, height: h / 2 });
      }
      return planes;
    };
    this.src = yuv(layout.source, false);
    this.fg = layout.foreground ? yuv(layout.foreground, true) : null;
    this.outs = [yuv(layout.output, false), yuv(layout.output, false)];
    this.fgOut = layout.foreground ? yuv(layout.output, true) : null;
    const widest = Math.max(layout.source.width, layout.foreground?.width ?? 0);
    this.tmp = arena.take(widest);
    const { width: ow, height: oh } = layout.output;
    const tables = (w: number, h: number): Tables => ({
      rows: arena.take(h * 8),
      tab: arena.take(Math.ceil(w / 16) * 96),
      x0: 0,
      ncols: 0,
    });
    this.tables = { full: tables(ow, oh), half: tables(ow / 2, oh / 2) };
    this.xi = new Int32Array(Math.ceil(ow / 16) * 16);
    this.xf = new Int32Array(this.xi.length);
    const needed = arena.next - k.memory.buffer.byteLength;
    if (needed > 0) k.memory.grow(Math.ceil(needed / PAGE));
    const buffer = k.memory.buffer;
    const s0 = this.src[0]!;
    this.source = new Uint8Array(buffer, s0.ptr, yuv420pBytes(layout.source));
    this.fgFrame = this.fg
      ? new Uint8Array(buffer, this.fg[0]!.ptr, yuva420pBytes(layout.foreground!))
      : null;
  }

  /**
   * `recycle`: a resampler its caller is done with. Its WebAssembly instance and memory are taken over (the
   * memory grows when this layout needs more) and it must not be used again: a run of shots then keeps one
   * memory instead of leaving one per shot (about 10 MB each at 1080×1920, outside the JS heap) to the
   * garbage collector.
   */
  static async create(layout: ResamplerLayout, recycle?: YuvResampler): Promise<YuvResampler> {
    for (const size of [layout.source, layout.output, ...(layout.foreground ? [layout.foreground] : [])]) {
      if (
        !Number.isInteger(size.width) ||
        !Number.isInteger(size.height) ||
        size.width < 2 ||
        size.height < 2
      )
        throw new RangeError(`resampler: ${size.width}x${size.height} is not a frame size`);
      if (size.width % 2 !== 0 || size.height % 2 !== 0)
        throw new RangeError(`resampler: ${size.width}x${size.height} must have even sides (yuv420p)`);
    }
    const exports = recycle ? recycle.k : ((await wasm.instantiate(await kernelModule())).exports as Kernel);
    return new YuvResampler(exports, layout, new Arena());
  }

  /** Copies the foreground layer in (yuva420p of layout.foreground size) and derives its half-size alpha. */
  setForeground(yuva: Uint8Array): void {
    const frame = this.fgFrame;
    const planes = this.fg;
    if (!frame || !planes) throw new Error('resampler: this layout has no foreground');
    if (yuva.length !== frame.length) throw new RangeError('resampler: foreground frame has the wrong size');
    frame.set(yuva);
    const memory = new Uint8Array(this.k.memory.buffer);
    const alpha = planes[3]!;
    const half = planes[4]!;
    // Chroma samples sit at the centre of 2×2 luma blocks, so their alpha is the block's mean.
    for (let y = 0; y < half.height; y++) {
      const r0 = alpha.ptr + 2 * y * alpha.width;
      const r1 = r0 + alpha.width;
      const o = half.ptr + y * half.width;
      for (let x = 0; x < half.width; x++) {
        const i = 2 * x;
        memory[o + x] =
          (memory[r0 + i]! + memory[r0 + i + 1]! + memory[r1 + i]! + memory[r1 + i + 1]! + 2) >> 2;
      }
    }
  }

  /**
   * Draws `view` of the source onto the whole output frame, then `foregroundView` of the foreground layer
   * over it (alpha-blended). Views are in source pixels; each output pixel centre samples the exact
   * sub-pixel position, and positions past an edge take the edge pixel.
   */
  render(view: Viewport, foregroundView?: Viewport): Uint8Array {
    this.turn ^= 1;
    const out = this.outs[this.turn]!;
    this.draw(this.src, view, out);
    if (this.fg && this.fgOut && foregroundView) {
      this.draw(this.fg, foregroundView, this.fgOut);
      const [fy, fu, fv, fa, fh] = this.fgOut;
      this.blend(out[0]!, fy!, fa!);
      this.blend(out[1]!, fu!, fh!);
      this.blend(out[2]!, fv!, fh!);
    }
    const first = out[0]!;
    return new Uint8Array(this.k.memory.buffer, first.ptr, yuv420pBytes(this.layout.output));
  }

  private draw(src: PlaneAt[], view: Viewport, dst: PlaneAt[]): void {
    const { width: ow, height: oh } = this.layout.output;
    const a = view.width / ow;
    const c = view.height / oh;
    if (!(a > 0 && c > 0 && a <= MAX_DOWNSCALE && c <= MAX_DOWNSCALE))
      throw new RangeError(`resampler: view scale ${a.toFixed(3)} is outside (0, ${MAX_DOWNSCALE}]`);
    const luma = src[0]!;
    const chroma = src[1]!;
    const full = this.tables.full;
    const half = this.tables.half;
    this.fillTables(full, luma, ow, oh, a, view.x, c, view.y);
    // Chroma planes cover the same picture at half the resolution: the same scale, half the offsets.
    this.fillTables(half, chroma, ow / 2, oh / 2, a, view.x / 2, c, view.y / 2);
    // In memory order: each row's 16-byte overrun lands on pixels drawn afterwards.
    src.forEach((plane, i) => {
      const target = dst[i]!;
      const t = plane.width === luma.width ? full : half;
      this.k.plane(
        plane.ptr,
        plane.width,
        t.rows,
        target.height,
        t.x0,
        t.ncols,
        t.tab,
        Math.ceil(target.width / 16),
        this.tmp,
        target.ptr,
        target.width,
      );
    });
  }

  private fillTables(
    t: Tables,
    plane: PlaneAt,
    dw: number,
    dh: number,
    a: number,
    b: number,
    c: number,
    d: number,
  ): void {
    const memory = this.k.memory.buffer;
    const sw = plane.width;
    const sh = plane.height;
    const rows = new Int32Array(memory, t.rows, dh * 2);
    for (let y = 0; y < dh; y++) {
      const sy = c * (y + 0.5) + d - 0.5;
      let j = Math.floor(sy);
      let g = Math.round((sy - j) * 256);
      if (j < 0) [j, g] = [0, 0];
      else if (j > sh - 2) [j, g] = [sh - 2, 256];
      rows[2 * y] = j;
      rows[2 * y + 1] = g;
    }
    const n = Math.ceil(dw / 16) * 16;
    const { xi, xf } = this;
    let first = sw;
    let last = 0;
    for (let x = 0; x < n; x++) {
      const sx = a * (x + 0.5) + b - 0.5;
      let i = Math.floor(sx);
      let f = Math.round((sx - i) * 256);
      if (i < 0) [i, f] = [0, 0];
      else if (i > sw - 2) [i, f] = [sw - 2, 256];
      xi[x] = i;
      xf[x] = f;
      if (i < first) first = i;
      if (i + 1 > last) last = i + 1;
    }
    t.x0 = first;
    t.ncols = last - first + 1;
    const bytes = new Uint8Array(memory, t.tab, (n / 8) * 48);
    const words = new Int32Array(memory, t.tab, (n / 8) * 12);
    const weights = new Int16Array(memory, t.tab, (n / 8) * 24);
    for (let block = 0; block < n / 8; block++) {
      const base = xi[block * 8]!;
      words[block * 12] = base - first;
      for (let lane = 0; lane < 8; lane++) {
        const x = block * 8 + lane;
        const m = xi[x]! - base;
        if (m > 14) throw new RangeError('resampler: view too wide for the kernel');
        bytes[block * 48 + 16 + lane] = m;
        bytes[block * 48 + 24 + lane] = m + 1;
        weights[block * 24 + 16 + lane] = xf[x]!;
      }
    }
  }

  private blend(bg: PlaneAt, fg: PlaneAt, alpha: PlaneAt): void {
    const n = bg.width * bg.height;
    const whole = n - (n % 16);
    this.k.blend(bg.ptr, fg.ptr, alpha.ptr, whole);
    const m = new Uint8Array(this.k.memory.buffer);
    for (let i = whole; i < n; i++) {
      const w = m[alpha.ptr + i]! + (m[alpha.ptr + i]! >> 7);
      const b = m[bg.ptr + i]!;
      m[bg.ptr + i] = (b * 256 + (m[fg.ptr + i]! - b) * w + 128) >> 8;
    }
  }
}
