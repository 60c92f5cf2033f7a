// Pictures for the vision models: a file decoded by sharp (EXIF orientation applied) or raw pixels already in
// memory, always handed on as packed 8-bit RGB.
import sharp from 'sharp';

export interface RawImage {
  /** Packed pixels, row by row: 3 (RGB) or 4 (RGBA) bytes per pixel. */
  data: Uint8Array;
  width: number;
  height: number;
}

export type ImageInput = string | RawImage;

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decodeRgb(input: ImageInput): Promise<RgbImage> {
  if (typeof input === 'string') {
    const { data, info } = await sharp(input)
      .rotate()
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    };
  }
  const { data, width, height } = input;
  const pixels = width * height;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`image size ${width}x${height} is not a positive integer size`);
  }
  if (data.length === pixels * 3) return { data, width, height };
  if (data.length !== pixels * 4) {
    throw new Error(
      `image data holds ${data.length} bytes; ${width}x${height} needs ${pixels * 3} (RGB) or ${pixels * 4} (RGBA)`,
    );
  }
  const rgb = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = data[i * 4]!;
    rgb[i * 3 + 1] = data[i * 4 + 1]!;
    rgb[i * 3 + 2] = data[i * 4 + 2]!;
  }
  return { data: rgb, width, height };
}
