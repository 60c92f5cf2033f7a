// The SIMD kernel against a float64 bilinear reference, including views past the edges and a blended layer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Size, Viewport } from './camera-move.ts';
import { YuvResampler, yuv420pBytes, yuva420pBytes } from './resample.ts';

/** Exact bilinear sample of one plane at each output pixel centre, edges replicated. */
function reference(
  plane: Uint8Array,
  sw: number,
  sh: number,
  dw: number,
  dh: number,
  v: Viewport,
): Float64Array {
  const out = new Float64Array(dw * dh);
  const at = (x: number, y: number) =>
    plane[Math.min(sh - 1, Math.max(0, y)) * sw + Math.min(sw - 1, Math.max(0, x))]!;
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(sh - 1, Math.max(0, (v.height / dh) * (y + 0.5) + v.y - 0.5));
    const j = Math.floor(sy);
    const g = sy - j;
    for (let x = 0; x < dw; x++) {
      const sx = Math.min(sw - 1, Math.max(0, (v.width / dw) * (x + 0.5) + v.x - 0.5));
      const i = Math.floor(sx);
      const f = sx - i;
      const top = at(i, j) * (1 - f) + at(i + 1, j) * f;
      const bottom = at(i, j + 1) * (1 - f) + at(i + 1, j + 1) * f;
      out[y * dw + x] = top * (1 - g) + bottom * g;
    }
  }
  return out;
}

function planesOf(frame: Uint8Array, size: Size): Uint8Array[] {
  const { width: w, height: h } = size;
  const q = (w / 2) * (h / 2);
  return [
    frame.subarray(0, w * h),
    frame.subarray(w * h, w * h + q),
    frame.subarray(w * h + q, w * h + 2 * q),
  ];
}

function textured(size: Size, seed: number): Uint8Array {
  const frame = new Uint8Array(yuv420pBytes(size));
  let s = seed;
  for (let i = 0; i < frame.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    frame[i] = (s >>> 16) & 255;
  }
  return frame;
}

function maxError(got: Uint8Array, want: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
  return worst;
}

describe('YuvResampler', () => {
  const source = { width: 202, height: 150 };
  const output = { width: 90, height: 160 };

  for (const [name, view] of [
    ['zoomed-in view at a fractional offset', { x: 37.3, y: 12.71, width: 60.2, height: 107.02 }],
    ['downscaling view', { x: 3.9, y: 0.4, width: 150.5, height: 148.7 }],
    ['view partly past the edges', { x: -10.25, y: 80.5, width: 100, height: 100 }],
  ] as const) {
    test(`matches exact bilinear within 1.5 levels: ${name}`, async () => {
      const r = await YuvResampler.create({ source, output });
      const src = textured(source, 7);
      r.source.set(src);
      const out = r.render(view);
      const sp = planesOf(src, source);
      const op = planesOf(out, output);
      const luma = reference(sp[0]!, source.width, source.height, output.width, output.height, view);
      assert.ok(maxError(op[0]!, luma) <= 1.5, `luma error ${maxError(op[0]!, luma)}`);
      const half = { x: view.x / 2, y: view.y / 2, width: view.width / 2, height: view.height / 2 };
      for (const p of [1, 2]) {
        const want = reference(
          sp[p]!,
          source.width / 2,
          source.height / 2,
          output.width / 2,
          output.height / 2,
          half,
        );
        assert.ok(maxError(op[p]!, want) <= 1.5, `chroma ${p} error ${maxError(op[p]!, want)}`);
      }
    });
  }

  test('moves the picture by sub-pixel amounts: a 0.25 px shift moves a 4-level ramp by one level', async () => {
    const size = { width: 64, height: 64 };
    const r = await YuvResampler.create({ source: size, output: { width: 32, height: 32 } });
    const frame = new Uint8Array(yuv420pBytes(size)).fill(128);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) frame[y * 64 + x] = 40 + x * 4;
    r.source.set(frame);
    const at = (dx: number) => r.render({ x: 16 + dx, y: 16, width: 32, height: 32 })[10 * 32 + 10]!;
    assert.deepEqual([0, 0.25, 0.5, 0.75, 1].map(at), [144, 145, 146, 147, 148]);
  });

  test('blends the foreground layer by its alpha over the background', async () => {
    const size = { width: 32, height: 32 };
    const r = await YuvResampler.create({ source: size, foreground: size, output: size });
    r.source.set(new Uint8Array(yuv420pBytes(size)).fill(20));
    const fg = new Uint8Array(yuva420pBytes(size)).fill(220);
    const alpha = fg.subarray(yuv420pBytes(size));
    alpha.fill(0);
    for (let y = 8; y < 24; y++) alpha.fill(255, y * 32 + 8, y * 32 + 24);
    r.setForeground(fg);
    const same = { x: 0, y: 0, width: 32, height: 32 };
    const shifted = { x: -4, y: 0, width: 32, height: 32 };
    let out = r.render(same, same);
    assert.equal(out[16 * 32 + 16], 220);
    assert.equal(out[16 * 32 + 4], 20);
    assert.equal(out[16 * 32 + 25], 20);
    out = r.render(same, shifted);
    // The layer moved 4 px right: its left edge is now at x = 12, its right edge at x = 28.
    assert.equal(out[16 * 32 + 10], 20);
    assert.equal(out[16 * 32 + 26], 220);
    const u = out[32 * 32 + 8 * 16 + 8]!;
    assert.ok(u > 200, `chroma inside the layer is the layer's (${u})`);
  });

  test('a recycled resampler draws exactly what a new one draws, whatever the old one held', async () => {
    const big = { width: 320, height: 240 };
    const old = await YuvResampler.create({
      source: big,
      foreground: big,
      output: { width: 120, height: 200 },
    });
    old.source.set(textured(big, 3));
    old.setForeground(new Uint8Array(yuva420pBytes(big)).fill(200));
    const wide = { x: 0, y: 0, width: 200, height: 240 };
    old.render(wide, wide);
    const view = { x: 37.3, y: 12.71, width: 60.2, height: 107.02 };
    const src = textured(source, 9);
    const fresh = await YuvResampler.create({ source, output });
    fresh.source.set(src);
    const recycled = await YuvResampler.create({ source, output }, old);
    recycled.source.set(src);
    assert.deepEqual(recycled.render(view), fresh.render(view));
  });

  test('refuses odd sizes and views wider than the kernel takes', async () => {
    await assert.rejects(
      YuvResampler.create({ source: { width: 33, height: 32 }, output: { width: 16, height: 16 } }),
    );
    const r = await YuvResampler.create({
      source: { width: 64, height: 64 },
      output: { width: 16, height: 16 },
    });
    assert.throws(() => r.render({ x: 0, y: 0, width: 64, height: 64 }), RangeError);
  });
});
