// Removing the solid box many logos are delivered on. Only pixels connected to the image's edge through
// background-coloured pixels are removed (a flood fill seeded from the border), so white inside the mark — the
// counter of an "O", a white star on a blue badge — stays.
//
// What counts, and why:
// - Edges already transparent (at least half the border is clear): nothing to remove → `transparent`.
// - Edges of one near-white colour (with clear pixels, e.g. a rounded white box, at least 90% of the border):
//   the box is removed → `white_removed`. White is never a brand's own mark colour against the page, it is the
//   canvas the logo was exported on.
// - Edges of one other solid colour: the box is kept → `solid_kept`. A coloured tile (an app icon, a badge) is
//   usually part of the mark, and removing it would leave a light glyph that vanishes on light backgrounds.
// - Opaque edges of no single colour (a photo, a gradient): nothing can be told apart safely, nothing is removed,
//   also reported as `solid_kept` (the opaque background the logo came with is kept).
// The mark's edge pixels next to the removed box are anti-aliased against the box colour; "colour to alpha"
// un-mixes them, so the edge carries no white halo onto a dark video.
import { converter } from 'culori';
import type { LogoBackground } from './normalized-logo.ts';
import type { RgbaImage } from './rgba-image.ts';

/** Alpha below this is treated as already transparent. */
export const CLEAR_ALPHA = 16;
/** Euclidean RGB distance (0–441) within which a pixel is the box colour; covers JPEG noise around flat white. */
export const BOX_TOLERANCE = 40;
const SOLID_EDGE_SHARE = 0.9;
const CLEAR_EDGE_SHARE = 0.5;
/** OKLCH bounds of "near white": very light and almost without colour (white, paper, off-white). */
const NEAR_WHITE_MIN_L = 0.93;
const NEAR_WHITE_MAX_C = 0.04;

const toOklch = converter('oklch');

type Rgb = [number, number, number];

function borderIndices(width: number, height: number): number[] {
  const indices = new Set<number>();
  for (let x = 0; x < width; x++) {
    indices.add(x);
    indices.add((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    indices.add(y * width);
    indices.add(y * width + width - 1);
  }
  return [...indices];
}

/** The commonest opaque colour on the border (4-bit bins, then the mean of the winning bin). */
function dominantEdgeColour(data: Buffer, border: number[]): Rgb | null {
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (const i of border) {
    const o = i * 4;
    if (data[o + 3]! < 250) continue;
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    const bin = counts.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bin.n += 1;
    bin.r += r;
    bin.g += g;
    bin.b += b;
    counts.set(key, bin);
  }
  let best: { n: number; r: number; g: number; b: number } | null = null;
  for (const bin of counts.values()) if (!best || bin.n > best.n) best = bin;
  return best ? [best.r / best.n, best.g / best.n, best.b / best.n] : null;
}

function isNearWhite([r, g, b]: Rgb): boolean {
  const { l, c } = toOklch({ mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 });
  return l >= NEAR_WHITE_MIN_L && (c ?? 0) <= NEAR_WHITE_MAX_C;
}

function isBackground(data: Buffer, pixel: number, box: Rgb): boolean {
  const o = pixel * 4;
  if (data[o + 3]! < CLEAR_ALPHA) return true;
  const dr = data[o]! - box[0];
  const dg = data[o + 1]! - box[1];
  const db = data[o + 2]! - box[2];
  return dr * dr + dg * dg + db * db <= BOX_TOLERANCE * BOX_TOLERANCE;
}

// Flood-fill states; the zero default is "kept".
const BACKGROUND_LIKE = 1;
const REMOVED = 2;

/**
 * 4-connected flood fill from every background pixel on the border. Returns per pixel 0 (kept), BACKGROUND_LIKE
 * (box-coloured but enclosed by the mark, so kept) or REMOVED.
 */
function floodFromEdges(image: RgbaImage, border: number[], box: Rgb): Uint8Array {
  const { data, width, height } = image;
  const count = width * height;
  const state = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (isBackground(data, i, box)) state[i] = BACKGROUND_LIKE;
  const stack = new Int32Array(count);
  let top = 0;
  for (const i of border) {
    if (state[i] !== BACKGROUND_LIKE) continue;
    state[i] = REMOVED;
    stack[top++] = i;
  }
  const spread = (j: number): void => {
    if (state[j] !== BACKGROUND_LIKE) return;
    state[j] = REMOVED;
    stack[top++] = j;
  };
  while (top > 0) {
    const i = stack[--top]!;
    const x = i % width;
    if (x > 0) spread(i - 1);
    if (x < width - 1) spread(i + 1);
    if (i >= width) spread(i - width);
    if (i + width < count) spread(i + width);
  }
  return state;
}

/** Un-mixes an edge pixel from the box colour: the least alpha that explains it as mark-over-box (GIMP's colour to alpha). */
function unmixFromBox(data: Buffer, pixel: number, box: Rgb): void {
  const o = pixel * 4;
  let alpha = 0;
  for (let c = 0; c < 3; c++) {
    const value = data[o + c]!;
    const bg = box[c]!;
    const share = value > bg ? (value - bg) / (255 - bg) : value < bg ? (bg - value) / bg : 0;
    alpha = Math.max(alpha, share);
  }
  if (alpha >= 1 || alpha <= 0) return;
  for (let c = 0; c < 3; c++) {
    const unmixed = (data[o + c]! - (1 - alpha) * box[c]!) / alpha;
    data[o + c] = Math.round(Math.min(255, Math.max(0, unmixed)));
  }
  data[o + 3] = Math.round(data[o + 3]! * alpha);
}

/** Anti-aliasing spans up to two pixels on curves and diagonals, so two rings of edge pixels are un-mixed. */
const EDGE_RING_PX = 2;

/** Clears removed pixels and un-mixes kept ones within EDGE_RING_PX 4-connected steps of them. */
function clearRemoved(image: RgbaImage, state: Uint8Array, box: Rgb): void {
  const { data, width } = image;
  const count = state.length;
  // ring[i]: 1 removed, k + 1 at k steps from a removed pixel (k ≤ EDGE_RING_PX), 0 further in.
  const ring = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (state[i] === REMOVED) ring[i] = 1;
  for (let reached = 1; reached <= EDGE_RING_PX; reached++) {
    for (let i = 0; i < count; i++) {
      if (ring[i] !== 0) continue;
      const x = i % width;
      if (
        (x > 0 && ring[i - 1] === reached) ||
        (x < width - 1 && ring[i + 1] === reached) ||
        (i >= width && ring[i - width] === reached) ||
        (i + width < count && ring[i + width] === reached)
      )
        ring[i] = reached + 1;
    }
  }
  for (let i = 0; i < count; i++) {
    if (ring[i] === 1) data.writeUInt32LE(0, i * 4);
    else if (ring[i]! > 1) unmixFromBox(data, i, box);
  }
}

/** Removes a near-white box in place and says what the background was. */
export function removeBackgroundBox(image: RgbaImage): LogoBackground {
  const { data, width, height } = image;
  const border = borderIndices(width, height);
  let clear = 0;
  for (const i of border) if (data[i * 4 + 3]! < CLEAR_ALPHA) clear += 1;
  if (clear >= border.length * CLEAR_EDGE_SHARE) return 'transparent';
  const box = dominantEdgeColour(data, border);
  if (!box) return 'transparent';
  const onEdge = border.filter((i) => isBackground(data, i, box)).length;
  if (onEdge < border.length * SOLID_EDGE_SHARE || !isNearWhite(box)) return 'solid_kept';
  clearRemoved(image, floodFromEdges(image, border, box), box);
  return 'white_removed';
}
