// The two ways a logo can fail (spec 2 §2.4, §8). Both are the caller's to fix, so each message says what to send instead.
import { ApiError } from '../../platform/errors.ts';

export const MIN_LOGO_SIDE_PX = 64;

export const logoErrors = {
  /** `details` carries machine-readable context, e.g. `{ reason }` of a refused fetch (UrlRejectReason). */
  unreadable: (problem: string, details?: Record<string, unknown>) =>
    new ApiError(
      422,
      'LOGO_UNREADABLE',
      `The logo could not be used: ${problem}. Send a PNG, JPEG, WebP or SVG logo (up to 10 MB).`,
      { details },
    ),
  tooSmall: (width: number, height: number) =>
    new ApiError(
      422,
      'LOGO_TOO_SMALL',
      `The logo is ${width}×${height} px once its background and margins are removed; its longer side must be at least ${MIN_LOGO_SIDE_PX} px. Send a larger version of the logo, or an SVG.`,
      { details: { width, height, min_side_px: MIN_LOGO_SIDE_PX } },
    ),
};
