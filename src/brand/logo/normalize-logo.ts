// A logo as the kit stores it (spec 2 §2.4): decoded from PNG, JPEG, WebP or a sanitized SVG, its solid white box
// removed, its transparent margins trimmed, measured, and its own colours extracted; a transparent PNG out.
import { decodeRaster } from './decode-raster.ts';
import { removeBackgroundBox } from './background-box.ts';
import { logoErrors, MIN_LOGO_SIDE_PX } from './logo-errors.ts';
import { brandColours, colourClusters } from './logo-colors.ts';
import { describeUnsupported, detectLogoFormat } from './logo-format.ts';
import { measurePixels } from './measure-logo.ts';
import type { NormalizedLogo } from './normalized-logo.ts';
import { opaqueBounds } from './opaque-bounds.ts';
import { opaquePixels } from './opaque-pixels.ts';
import { cropRgba, encodePng } from './rgba-image.ts';
import { sanitizeSvg } from './svg-sanitize.ts';
import { rasterizeSvg } from './svg-rasterize.ts';

/** The same cap fetchLogo downloads with. */
export const MAX_LOGO_BYTES = 10 * 1024 * 1024;

export interface NormalizeLogoOptions {
  /** The Content-Type the logo was served with; only used to word an error. */
  contentType?: string | null;
}

/**
 * Throws ApiError 422 LOGO_UNREADABLE (not an accepted image, damaged, hostile SVG, too many pixels, blank) or
 * LOGO_TOO_SMALL (the longer side of the trimmed mark is under 64 px: a wordmark may be short, but a logo whose
 * widest extent is under 64 px cannot be shown crisply).
 */
export async function normalizeLogo(
  bytes: Buffer,
  options: NormalizeLogoOptions = {},
): Promise<NormalizedLogo> {
  if (bytes.length > MAX_LOGO_BYTES)
    throw logoErrors.unreadable(`the file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB, over the limit`);
  const format = detectLogoFormat(bytes);
  if (!format) throw logoErrors.unreadable(describeUnsupported(bytes, options.contentType));
  const image =
    format === 'svg'
      ? await rasterizeSvg(sanitizeSvg(bytes.toString('utf8').replace(/^\uFEFF/, '')))
      : await decodeRaster(bytes, format);

  const background = removeBackgroundBox(image);
  const bounds = opaqueBounds(image);
  if (!bounds)
    throw logoErrors.unreadable(
      background === 'white_removed'
        ? 'the image is a blank white box with no logo on it'
        : 'the image is fully transparent',
    );
  const trimmed = bounds.width !== image.width || bounds.height !== image.height;
  const logo = trimmed ? cropRgba(image, bounds.left, bounds.top, bounds.width, bounds.height) : image;
  if (Math.max(logo.width, logo.height) < MIN_LOGO_SIDE_PX)
    throw logoErrors.tooSmall(logo.width, logo.height);

  const pixels = opaquePixels(logo);
  if (pixels.total === 0) throw logoErrors.unreadable('the logo is too faint: it has no opaque pixels');
  const clusters = colourClusters(pixels);
  return {
    png: await encodePng(logo),
    measurements: {
      width: logo.width,
      height: logo.height,
      source_format: format,
      background,
      trimmed,
      ...measurePixels(logo.width, logo.height, pixels, clusters),
      normalized_at: new Date().toISOString(),
    },
    colors: brandColours(clusters),
  };
}
