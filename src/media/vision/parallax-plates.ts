// Two plates for a parallax move from one photo and its person mask: the person cut out with a feathered edge,
// and the photo with the person removed. The hole (the mask grown a little, so no halo of the person's edge
// stays behind) is filled by pull-push interpolation: the known pixels are averaged down a pyramid until the
// hole closes, then pushed back up with bilinear steps, so the fill continues the surrounding colours smoothly.
// It invents no detail; it only has to read as background once the foreground covers most of it.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeRgb } from './image-input.ts';
import type { Box } from './faces.ts';

export interface MaskInput {
  /** Alpha 0–255 per pixel, width*height. */
  mask: Uint8Array;
  width: number;
  height: number;
}

export interface ParallaxPlates {
  /** PNG at the photo's size, the person removed and the hole filled. */
  background: string;
  /** RGBA PNG of the person, cropped to `box`. */
  foreground: string;
  /** Where the foreground sits in the photo (pixels). */
  box: Box;
}

/** Mask alpha below this is background: the foreground is fully transparent there. */
export const FOREGROUND_MIN_ALPHA = 32;
/**
 * The hole starts at this faint alpha (the model's soft edge still holds hair and arm pixels there) and reaches
 * past it by a share of the photo's diagonal.
 */
const HOLE_MIN_ALPHA = 8;
const HOLE_GROWTH = 0.015;
/** Width of the feathered foreground edge, as a share of the diagonal. */
const FEATHER = 0.004;

function diagonal(width: number, height: number): number {
  return Math.hypot(width, height);
}

/**
 * The white part of a one-channel mask grown by about `radius` pixels: a Gaussian blur then any value above
 * 1.6 % of white, which lies 2.15 sigma out from a straight edge. (sharp's dilate/erode are not used: in
 * sharp 0.35 "dilate" grows the black side.)
 */
export async function growWhite(
  mask: Uint8Array,
  width: number,
  height: number,
  radius: number,
): Promise<Uint8Array> {
  const blurred = await sharp(mask, { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.3, radius / 2.15))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const grown = new Uint8Array(mask.length);
  for (let i = 0; i < grown.length; i++) grown[i] = blurred[i]! > 4 || mask[i]! > 0 ? 255 : 0;
  return grown;
}

async function grownHole(mask: MaskInput): Promise<Uint8Array> {
  const binary = new Uint8Array(mask.mask.length);
  for (let i = 0; i < binary.length; i++) binary[i] = mask.mask[i]! >= HOLE_MIN_ALPHA ? 255 : 0;
  const radius = Math.max(2, Math.round(diagonal(mask.width, mask.height) * HOLE_GROWTH));
  return growWhite(binary, mask.width, mask.height, radius);
}

interface Level {
  width: number;
  height: number;
  /** Colour premultiplied by weight, 3 per pixel. */
  color: Float32Array;
  /** Weight 0–1: how much of the pixel is known. */
  weight: Float32Array;
}

/** Half-size level: each pixel averages the known colour of its 2x2 block (`at` reads colour and weight). */
function pullWith(width: number, height: number, at: (i: number, rgbw: Float64Array) => void): Level {
  const w2 = Math.ceil(width / 2);
  const h2 = Math.ceil(height / 2);
  const color = new Float32Array(w2 * h2 * 3);
  const weight = new Float32Array(w2 * h2);
  const px = new Float64Array(4);
  for (let y = 0; y < h2; y++) {
    for (let x = 0; x < w2; x++) {
      let w = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < 2; dy++) {
        const sy = Math.min(height - 1, y * 2 + dy);
        for (let dx = 0; dx < 2; dx++) {
          at(sy * width + Math.min(width - 1, x * 2 + dx), px);
          r += px[0]!;
          g += px[1]!;
          b += px[2]!;
          w += px[3]!;
        }
      }
      // A coarse pixel with any known content counts as fully known (its colour renormalised).
      const scale = w > 1 ? 1 / w : 1;
      const d = y * w2 + x;
      weight[d] = Math.min(1, w);
      color[d * 3] = r * scale;
      color[d * 3 + 1] = g * scale;
      color[d * 3 + 2] = b * scale;
    }
  }
  return { width: w2, height: h2, color, weight };
}

function pull(level: Level): Level {
  return pullWith(level.width, level.height, (i, px) => {
    px[0] = level.color[i * 3]!;
    px[1] = level.color[i * 3 + 1]!;
    px[2] = level.color[i * 3 + 2]!;
    px[3] = level.weight[i]!;
  });
}

/** Each pixel's unknown share (1 - weight) from the coarser level, sampled bilinearly, through `fill`. */
function pushWith(
  width: number,
  height: number,
  coarse: Level,
  missing: (i: number) => number,
  fill: (i: number, c: number, value: number, share: number) => void,
): void {
  for (let y = 0; y < height; y++) {
    const cy = Math.min(coarse.height - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(cy);
    const y1 = Math.min(coarse.height - 1, y0 + 1);
    const fy = cy - y0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const share = missing(i);
      if (share <= 0) continue;
      const cx = Math.min(coarse.width - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
      const x0 = Math.floor(cx);
      const x1 = Math.min(coarse.width - 1, x0 + 1);
      const fx = cx - x0;
      for (let c = 0; c < 3; c++) {
        const top =
          coarse.color[(y0 * coarse.width + x0) * 3 + c]! * (1 - fx) +
          coarse.color[(y0 * coarse.width + x1) * 3 + c]! * fx;
        const bottom =
          coarse.color[(y1 * coarse.width + x0) * 3 + c]! * (1 - fx) +
          coarse.color[(y1 * coarse.width + x1) * 3 + c]! * fx;
        fill(i, c, top * (1 - fy) + bottom * fy, share);
      }
    }
  }
}

function push(fine: Level, coarse: Level): void {
  pushWith(
    fine.width,
    fine.height,
    coarse,
    (i) => 1 - fine.weight[i]!,
    (i, c, value, share) => {
      fine.color[i * 3 + c]! += share * value;
      if (c === 2) fine.weight[i] = 1;
    },
  );
}

/**
 * The photo with the hole pixels replaced by a pull-push fill from the pixels around them. The full-size level
 * is read from and written to the 8-bit pictures directly (its weights are 0 or 1), so only the quarter-size
 * and smaller levels take float memory.
 */
export function fillHole(rgb: Uint8Array, width: number, height: number, hole: Uint8Array): Uint8Array {
  const levels = [
    pullWith(width, height, (i, px) => {
      const known = hole[i]! > 0 ? 0 : 1;
      px[0] = rgb[i * 3]! * known;
      px[1] = rgb[i * 3 + 1]! * known;
      px[2] = rgb[i * 3 + 2]! * known;
      px[3] = known;
    }),
  ];
  while (levels.at(-1)!.width > 1 || levels.at(-1)!.height > 1) levels.push(pull(levels.at(-1)!));
  if (levels.at(-1)!.weight[0] === 0)
    throw new Error('the mask covers the whole photo: nothing to fill the background from');
  for (let l = levels.length - 2; l >= 0; l--) push(levels[l]!, levels[l + 1]!);
  const out = Uint8Array.from(rgb);
  pushWith(
    width,
    height,
    levels[0]!,
    (i) => (hole[i]! > 0 ? 1 : 0),
    (i, c, value) => {
      out[i * 3 + c] = Math.round(value);
    },
  );
  return out;
}

async function featheredAlpha(mask: MaskInput): Promise<Uint8Array> {
  const sigma = Math.max(0.6, (diagonal(mask.width, mask.height) * FEATHER) / 2);
  const blurred = await sharp(mask.mask, { raw: { width: mask.width, height: mask.height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer();
  // min(mask, blurred) softens the edge inwards only, so nothing outside the mask turns visible.
  const alpha = new Uint8Array(mask.mask.length);
  for (let i = 0; i < alpha.length; i++) {
    const m = mask.mask[i]!;
    alpha[i] = m < FOREGROUND_MIN_ALPHA ? 0 : Math.min(m, blurred[i]!);
  }
  return alpha;
}

function alphaBox(alpha: Uint8Array, width: number, height: number): Box | null {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (alpha[y * width + x] === 0) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return maxX < 0 ? null : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** Writes background.png and foreground.png for the photo into outDir. */
export async function makeParallaxPlates(
  imagePath: string,
  mask: MaskInput,
  outDir: string,
): Promise<ParallaxPlates> {
  const image = await decodeRgb(imagePath);
  if (
    image.width !== mask.width ||
    image.height !== mask.height ||
    mask.mask.length !== mask.width * mask.height
  ) {
    throw new Error(
      `mask ${mask.width}x${mask.height} does not match the photo ${image.width}x${image.height}`,
    );
  }
  const alpha = await featheredAlpha(mask);
  const box = alphaBox(alpha, image.width, image.height);
  if (!box) throw new Error('the mask holds no person: no foreground plate to cut');

  await mkdir(outDir, { recursive: true });
  const background = join(outDir, 'background.png');
  const foreground = join(outDir, 'foreground.png');

  const filled = fillHole(image.data, image.width, image.height, await grownHole(mask));
  await sharp(filled, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png()
    .toFile(background);

  const rgba = Buffer.alloc(image.width * image.height * 4);
  for (let i = 0; i < image.width * image.height; i++) {
    rgba[i * 4] = image.data[i * 3]!;
    rgba[i * 4 + 1] = image.data[i * 3 + 1]!;
    rgba[i * 4 + 2] = image.data[i * 3 + 2]!;
    rgba[i * 4 + 3] = alpha[i]!;
  }
  await sharp(rgba, { raw: { width: image.width, height: image.height, channels: 4 } })
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .png()
    .toFile(foreground);
  return { background, foreground, box };
}
