import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  bump,
  Curve,
  edgeBlur,
  evenRectInside,
  featherBorder,
  LocalFrame,
  sampleRgba,
  smooth01,
} from './pixels.ts';

describe('Curve', () => {
  test('interpolates between points given in any order and holds its end values beyond them', () => {
    const curve = new Curve([
      [10, 4],
      [0, 0],
      [4, 8],
    ]);
    assert.equal(curve.minU, 0);
    assert.equal(curve.maxU, 10);
    assert.equal(curve.at(-5), 0);
    assert.equal(curve.at(2), 4);
    assert.equal(curve.at(4), 8);
    assert.equal(curve.at(7), 6);
    assert.equal(curve.at(25), 4);
  });
});

describe('LocalFrame', () => {
  test('along a tilted mouth: u runs corner to corner, v points down the picture, and back again', () => {
    const frame = LocalFrame.along([100, 200], [140, 210]);
    const [u0, v0] = frame.toLocal([100, 200]);
    const [u1, v1] = frame.toLocal([140, 210]);
    assert.ok(Math.abs(v0) < 1e-9 && Math.abs(v1) < 1e-9);
    assert.ok(Math.abs(u1 - u0 - Math.hypot(40, 10)) < 1e-9);
    // A point below the middle of the mouth has positive v.
    assert.ok(frame.toLocal([120, 230])[1] > 0);
    const [x, y] = frame.toImage(...frame.toLocal([131.5, 187.25]));
    assert.ok(Math.abs(x - 131.5) < 1e-9 && Math.abs(y - 187.25) < 1e-9);
  });
});

test('ramps: smooth01 and bump reach their ends flat', () => {
  assert.deepEqual([smooth01(-1), smooth01(0), smooth01(0.5), smooth01(1), smooth01(2)], [0, 0, 0.5, 1, 1]);
  assert.deepEqual([bump(0), bump(1), bump(-1.5)], [1, 0, 0]);
  assert.ok(bump(0.5) > 0 && bump(0.5) < 1);
});

test('sampleRgba blends the four neighbours and clamps at the edges', () => {
  // 2x1: black, white.
  const image = { data: new Uint8Array([0, 0, 0, 255, 200, 100, 50, 255]), width: 2, height: 1 };
  const out = new Float64Array(4);
  sampleRgba(image, 0.25, 0, out);
  assert.deepEqual([...out], [50, 25, 12.5, 255]);
  sampleRgba(image, 9, -3, out);
  assert.deepEqual([...out], [200, 100, 50, 255]);
});

test('evenRectInside grows to even edges and stays inside the picture', () => {
  assert.deepEqual(evenRectInside({ x: 3.2, y: 5.9, width: 10, height: 7 }, 100, 100), {
    x: 2,
    y: 4,
    width: 12,
    height: 10,
  });
  assert.deepEqual(evenRectInside({ x: -5, y: 90, width: 20, height: 20 }, 31, 101), {
    x: 0,
    y: 90,
    width: 16,
    height: 10,
  });
});

test('featherBorder fades alpha over the border pixels only', () => {
  const patch = { data: new Uint8Array(10 * 10 * 4).fill(255), width: 10, height: 10 };
  featherBorder(patch, 3);
  const alpha = (x: number, y: number) => patch.data[(y * 10 + x) * 4 + 3]!;
  assert.ok(alpha(0, 5) < alpha(1, 5) && alpha(1, 5) < alpha(2, 5) && alpha(2, 5) < 255);
  assert.equal(alpha(5, 5), 255);
  assert.equal(alpha(3, 3), 255);
});

test('edgeBlur reads the blur of edges drawn with a known blur', () => {
  const width = 160;
  const height = 60;
  for (const sigma of [1, 2, 4]) {
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Two vertical edges, each a Gaussian-blurred step (error function by its logistic approximation).
        const step = (at: number) => 1 / (1 + Math.exp((-1.702 * (x - at)) / sigma));
        const value = 40 + 160 * (step(50) - step(110));
        data.fill(Math.round(value), (y * width + x) * 4, (y * width + x) * 4 + 3);
        data[(y * width + x) * 4 + 3] = 255;
      }
    }
    const blur = edgeBlur({ data, width, height, x: 0, y: 0 }, { x: 0, y: 0, width, height });
    assert.ok(Math.abs(blur - sigma) < 0.35 * sigma + 0.3, `σ ${sigma}: read ${blur.toFixed(2)}`);
  }
});
