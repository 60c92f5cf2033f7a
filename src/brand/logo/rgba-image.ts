// The working form of a logo between decoding and encoding: 8-bit RGBA, straight (not premultiplied) alpha, row
// major. Background removal, trimming and measuring all read and write this one shape.
import sharp, { type Sharp } from 'sharp';
import { logoErrors } from './logo-errors.ts';

export interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Decoding (or rasterizing) one logo may not take longer than this; a hostile file fails instead of hanging. */
export const DECODE_TIMEOUT_SECONDS = 20;

function decodeProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return 'the image has too many pixels; send a smaller image';
  if (/timeout/i.test(message))
    return `decoding it took longer than ${DECODE_TIMEOUT_SECONDS} s; send a simpler image`;
  const firstLine = message.split('\n', 1)[0]?.trim() ?? '';
  return `the image data is damaged or truncated (${firstLine.slice(0, 160)})`;
}

/** Runs a sharp pipeline to sRGB RGBA pixels; a decoder failure becomes LOGO_UNREADABLE. */
export async function toRgba(pipeline: Sharp): Promise<RgbaImage> {
  try {
    const { data, info } = await pipeline
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw logoErrors.unreadable(decodeProblem(err));
  }
}

/** Encodes the pixels as a PNG that keeps the alpha channel. */
export async function encodePng(image: RgbaImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toBuffer();
}

/** Copies out the rectangle [left, left+width) × [top, top+height). */
export function cropRgba(
  image: RgbaImage,
  left: number,
  top: number,
  width: number,
  height: number,
): RgbaImage {
  const data = Buffer.alloc(width * height * 4);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * image.width + left) * 4;
    image.data.copy(data, y * rowBytes, from, from + rowBytes);
  }
  return { data, width, height };
}
