// A sanitized SVG to RGBA through librsvg (inside sharp). Vectors have no natural pixel size, so the render
// density is chosen to make the longest side SVG_RENDER_SIDE px: well above the 512 px a crisp logo needs in a
// 1080-wide video, and small enough to process quickly.
import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from './decode-raster.ts';
import { logoErrors } from './logo-errors.ts';
import { toRgba, type RgbaImage } from './rgba-image.ts';

export const SVG_RENDER_SIDE = 1024;
/** librsvg's unit: at 72 dpi one SVG user unit is one pixel. */
const BASE_DENSITY = 72;
/** sharp's accepted density range. */
const MIN_DENSITY = 1;
const MAX_DENSITY = 100_000;

export async function rasterizeSvg(svg: string): Promise<RgbaImage> {
  const bytes = Buffer.from(svg, 'utf8');
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { density: BASE_DENSITY, limitInputPixels: false }).metadata());
  } catch {
    throw logoErrors.unreadable('the SVG cannot be read by the renderer; check that it is well-formed XML');
  }
  if (!width || !height)
    throw logoErrors.unreadable(
      'the SVG has no size; give its <svg> element a viewBox, or a width and height',
    );
  const density = Math.min(
    MAX_DENSITY,
    Math.max(MIN_DENSITY, (BASE_DENSITY * SVG_RENDER_SIDE) / Math.max(width, height)),
  );
  return toRgba(
    sharp(bytes, { density, limitInputPixels: MAX_INPUT_PIXELS }).resize({
      width: SVG_RENDER_SIDE,
      height: SVG_RENDER_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    }),
  );
}
