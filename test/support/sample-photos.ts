// Real photos for the vision and AI-video tests, cut at test time from the pictures @vladmandic/human ships in assets/.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { RawImage } from '../../src/media/vision/image-input.ts';

const require = createRequire(import.meta.url);
const assets = join(dirname(require.resolve('@vladmandic/human')), '..', 'assets');

/** 1280x1158 collage: a strip of single-person thumbnails on top of an annotated group photo. */
export const SAMPLES = join(assets, 'samples.jpg');
/** 800x718 demo screenshot; its lower row holds five large faces of five different people. */
export const FACE_DETECT_SCREENSHOT = join(assets, 'screenshot-facedetect.jpg');
/** 1920x954 demo screenshot; below y=284 a grid of face photos, 18 per row. */
export const FACE_MATCH_SCREENSHOT = join(assets, 'screenshot-facematch.jpg');

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Thumbnails of the top strip of samples.jpg. */
export const MAN_AT_TABLE: Region = { left: 326, top: 0, width: 211, height: 158 };
export const WOMAN_PORTRAIT: Region = { left: 165, top: 0, width: 151, height: 158 };
/** The ceiling of the group photo, above everyone's heads. */
export const CEILING: Region = { left: 400, top: 200, width: 800, height: 120 };
/** The five faces of the lower row of the face-detect screenshot. */
export const FIVE_PEOPLE: Region[] = [8, 164, 321, 478, 630].map((left) => ({
  left,
  top: 345,
  width: 150,
  height: 152,
}));
/** The first row of the face-match grid: 18 face photos. */
export const FACE_ROW: Region = { left: 0, top: 284, width: 1920, height: 106 };

export interface CutOptions {
  /** Output width (height follows the region's aspect). */
  width?: number;
  mirror?: boolean;
}

function cut(input: string | Buffer, region: Region, options: CutOptions): Sharp {
  let image = sharp(input).extract(region);
  if (options.mirror) image = image.flop();
  if (options.width) image = image.resize({ width: options.width, kernel: 'lanczos3' });
  return image.removeAlpha();
}

export async function cutRaw(file: string, region: Region, options: CutOptions = {}): Promise<RawImage> {
  // Cut first, then mirror or scale the cut: one sharp pipeline runs its operations in its own fixed order.
  const png = await cut(file, region, {}).png().toBuffer();
  const { data, info } = await cut(
    png,
    { left: 0, top: 0, width: region.width, height: region.height },
    options,
  )
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

export async function cutToFile(
  file: string,
  region: Region,
  dir: string,
  name: string,
  options: CutOptions = {},
): Promise<string> {
  const raw = await cutRaw(file, region, options);
  const path = join(dir, `${name}.png`);
  await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } })
    .png()
    .toFile(path);
  return path;
}
