// PNG, JPEG and WebP logos to RGBA. The header is read first so an image that claims absurd dimensions (a
// decompression bomb) is refused before a single pixel is inflated; sharp's limitInputPixels is the second fence.
import sharp, { type Metadata } from 'sharp';
import { logoErrors } from './logo-errors.ts';
import type { LogoSourceFormat } from './normalized-logo.ts';
import { toRgba, type RgbaImage } from './rgba-image.ts';

/** About 6300×6300: far beyond any logo, and a bounded amount of memory to decode. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Larger logos are scaled down to this longest side before processing; nothing renders a logo bigger. */
export const MAX_WORKING_SIDE = 2048;

const SHARP_FORMAT: Record<Exclude<LogoSourceFormat, 'svg'>, string> = {
  png: 'png',
  jpeg: 'jpeg',
  webp: 'webp',
};

export async function decodeRaster(
  bytes: Buffer,
  format: Exclude<LogoSourceFormat, 'svg'>,
): Promise<RgbaImage> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  let header: Metadata;
  try {
    header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw logoErrors.unreadable(`the ${format.toUpperCase()} header cannot be read`);
  }
  const { width, height } = header;
  if (header.format !== SHARP_FORMAT[format] || !width || !height)
    throw logoErrors.unreadable(`the ${format.toUpperCase()} header cannot be read`);
  if (width * height > MAX_INPUT_PIXELS)
    throw logoErrors.unreadable(
      `the image is ${width}×${height} px, more than the ${MAX_INPUT_PIXELS / 1e6} million pixel limit; send a smaller image`,
    );
  return toRgba(
    sharp(bytes, options)
      .autoOrient()
      .resize({ width: MAX_WORKING_SIDE, height: MAX_WORKING_SIDE, fit: 'inside', withoutEnlargement: true }),
  );
}
