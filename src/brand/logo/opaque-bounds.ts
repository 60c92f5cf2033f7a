// Trimming: the smallest rectangle holding every pixel that is not (almost) fully transparent.
import type { RgbaImage } from './rgba-image.ts';

/** Pixels at or below this alpha are margin; a faint edge left by anti-aliasing is not worth keeping. */
export const TRIM_ALPHA = 8;

export interface Bounds {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The bounding box of the visible pixels, or null when there are none. */
export function opaqueBounds(image: RgbaImage): Bounds | null {
  const { data, width, height } = image;
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    for (let x = 0; x < width; x++) {
      if (data[row + x * 4 + 3]! <= TRIM_ALPHA) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      bottom = y;
    }
  }
  if (right < 0) return null;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}
