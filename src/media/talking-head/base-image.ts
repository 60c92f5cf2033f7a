// The base picture of a talking head: the photo framed (see framing.ts) at the output's scale, with the person's
// alpha when a mask is given. Where the photo does not reach, a cut-out presenter is transparent and a plain
// photo continues as a heavily blurred copy of itself.
import { open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { Framing, Size } from './framing.ts';
import { pixelRectInside, type Point, type Rect, type RgbaImage, type RgbaRegion } from './pixels.ts';

export interface Photo extends RgbaImage {
  hasAlpha: boolean;
}

/** The photo upright (EXIF orientation applied) as RGBA; the mask, when given, becomes its alpha. */
export async function loadPhoto(photoPath: string, personMask?: string): Promise<Photo> {
  const { data, info } = await sharp(photoPath)
    .rotate()
    .removeAlpha()
    .ensureAlpha(1)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgba = new Uint8Array(data.buffer, data.byteOffset, data.length);
  if (personMask) {
    const meta = await sharp(personMask).metadata();
    const mask = await sharp(personMask)
      .rotate()
      .extractChannel(meta.hasAlpha ? 'alpha' : 0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (mask.info.width !== info.width || mask.info.height !== info.height) {
      throw new Error(
        `person mask is ${mask.info.width}x${mask.info.height}, the photo ${info.width}x${info.height}; they must match`,
      );
    }
    for (let i = 0; i < info.width * info.height; i++) rgba[i * 4 + 3] = mask.data[i]!;
  }
  return { data: rgba, width: info.width, height: info.height, hasAlpha: personMask !== undefined };
}

export interface BaseImage {
  width: number;
  height: number;
  /** Photo pixels to base pixels, as the photo was actually placed (integer crop, rounded resize). */
  toBase: (x: number, y: number) => Point;
  /** The base's pixels over a rect (its whole pixels inside the base), for the patches made from them. */
  read: (rect: Rect) => Promise<RgbaRegion>;
  /**
   * The whole base as PNG (ffmpeg reads it once); without alpha unless the presenter is cut out. Built and
   * written by libvips a band at a time: at 1080p the base is about 9 megapixels, too much to hold in memory.
   */
  writePng: (path: string) => Promise<void>;
}

/** Side of the thumbnail the blurred fill is enlarged from: enlarging that much is the blur. */
const FILL_THUMB = 24;
/** The fill is a little darker than the photo, so the photo stands out of it. */
const FILL_LIGHT = 0.8;

/** The blurred fill at a sixteenth of the base's size, and a pipeline enlarging it to the whole base. */
async function blurredFill(photo: Photo, size: Size): Promise<() => Sharp> {
  const aspect = size.width / size.height;
  const thumb = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
    .removeAlpha()
    .resize(
      Math.max(2, Math.round(FILL_THUMB * Math.min(1, aspect))),
      Math.max(2, Math.round(FILL_THUMB / Math.max(1, aspect))),
      { fit: 'cover' },
    )
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < thumb.data.length; i++) thumb.data[i] = Math.round(thumb.data[i]! * FILL_LIGHT);
  // Cubic to a sixteenth of the size, then linear: smooth like a cubic enlargement, at a fraction of its cost.
  const mid = {
    width: Math.max(2, Math.round(size.width / 16)),
    height: Math.max(2, Math.round(size.height / 16)),
  };
  const smooth = await sharp(thumb.data, {
    raw: { width: thumb.info.width, height: thumb.info.height, channels: 3 },
  })
    .resize(mid.width, mid.height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  return () =>
    sharp(smooth, { raw: { ...mid, channels: 3 } }).resize(size.width, size.height, {
      fit: 'fill',
      kernel: 'linear',
    });
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

export async function renderBase(photo: Photo, framing: Framing): Promise<BaseImage> {
  const { base, origin, scale } = framing;
  // The whole photo pixels that the base shows, resized by the framing's scale.
  const ex = Math.max(0, Math.floor(origin.x));
  const ey = Math.max(0, Math.floor(origin.y));
  const ex1 = Math.min(photo.width, Math.ceil(origin.x + base.width / scale));
  const ey1 = Math.min(photo.height, Math.ceil(origin.y + base.height / scale));
  const ew = ex1 - ex;
  const eh = ey1 - ey;
  if (ew <= 0 || eh <= 0) throw new Error('the framing shows none of the photo');
  const rw = Math.max(1, Math.round(ew * scale));
  const rh = Math.max(1, Math.round(eh * scale));
  const left = Math.round((ex - origin.x) * scale);
  const top = Math.round((ey - origin.y) * scale);
  const whole = { x: 0, y: 0, ...base };
  // The placed photo as far as it lies on the base (base pixels).
  const shown = intersect({ x: left, y: top, width: rw, height: rh }, whole);
  if (!shown) throw new Error('the framing shows none of the photo');
  /** The resized photo over part of `shown`: libvips computes only what the extract asks for. */
  const placed = (rect: Rect) =>
    sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .extract({ left: ex, top: ey, width: ew, height: eh })
      .resize(rw, rh, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left: rect.x - left, top: rect.y - top, width: rect.width, height: rect.height });

  const covers = shown.width === base.width && shown.height === base.height;
  const fill = covers || photo.hasAlpha ? undefined : await blurredFill(photo, base);

  const read = async (wanted: Rect): Promise<RgbaRegion> => {
    const rect = pixelRectInside(wanted, base.width, base.height);
    if (rect.width === 0 || rect.height === 0) throw new Error('the rect lies outside the base');
    const crop = { left: rect.x, top: rect.y, width: rect.width, height: rect.height };
    const data = fill
      ? new Uint8Array(await fill().extract(crop).ensureAlpha(1).raw().toBuffer())
      : new Uint8Array(rect.width * rect.height * 4);
    const part = intersect(rect, shown);
    if (part) {
      const pixels = await placed(part).raw().toBuffer();
      // The photo's pixels replace the fill's, alpha and all (as the whole base has them).
      for (let y = 0; y < part.height; y++) {
        const from = y * part.width * 4;
        const to = ((part.y - rect.y + y) * rect.width + part.x - rect.x) * 4;
        data.set(pixels.subarray(from, from + part.width * 4), to);
      }
    }
    return { data, ...rect };
  };

  // Low compression: the file is read once by ffmpeg and written on every prepare.
  const png = { compressionLevel: 2 };
  const writePng = async (path: string): Promise<void> => {
    if (!fill) {
      // Transparent where the photo does not reach (a cut-out presenter); a covering photo has no border.
      const extended = placed(shown).extend({
        left: shown.x,
        top: shown.y,
        right: base.width - shown.x - shown.width,
        bottom: base.height - shown.y - shown.height,
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      });
      await (photo.hasAlpha ? extended : extended.removeAlpha()).png(png).toFile(path);
      return;
    }
    // A composited picture must come from a file or memory: the opaque photo goes through an uncompressed
    // TIFF beside the PNG, which libvips reads in strips as it composites.
    const photoFile = join(dirname(path), `${basename(path)}.photo.tiff`);
    try {
      await placed(shown).tiff({ compression: 'none' }).toFile(photoFile);
      await fill()
        .composite([{ input: photoFile, left: shown.x, top: shown.y }])
        .removeAlpha()
        .png(png)
        .toFile(path);
    } finally {
      await rm(photoFile, { force: true });
    }
  };

  const sx = rw / ew;
  const sy = rh / eh;
  return {
    width: base.width,
    height: base.height,
    toBase: (x, y) => [left + (x - ex) * sx, top + (y - ey) * sy],
    read,
    writePng,
  };
}

/**
 * An RGBA picture as PAM (netpbm, uncompressed): ffmpeg opens a playlist's picture anew for every entry, and a
 * PAM costs it no decoding (a PNG of a mouth at 1080p costs about 20 ms each time).
 */
export async function writePam(image: RgbaImage, path: string): Promise<void> {
  const header = `P7\nWIDTH ${image.width}\nHEIGHT ${image.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n`;
  const file = await open(path, 'w');
  try {
    // writeFile on a handle writes on from the current position, all of it.
    await file.writeFile(header, 'ascii');
    await file.writeFile(image.data);
  } finally {
    await file.close();
  }
}
