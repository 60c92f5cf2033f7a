// What person segmentation answers, and the thresholds that read it; no model needed to use them.

export interface PersonMask {
  /** Alpha per pixel, row by row (width*height): 255 person, 0 background, soft in between. */
  mask: Uint8Array;
  width: number;
  height: number;
  /** Share of pixels that are person (alpha ≥ 128). */
  coverage: number;
}

/** Alpha from which a pixel counts as person. */
export const PERSON_ALPHA = 128;
/**
 * Below this coverage there is no person worth cutting out: ffmpeg test patterns measure 0 and a photo of a
 * ceiling with a few heads at its lower edge 0.9 %, while the presenter and parallax photos this serves are
 * people filling far more of the frame.
 */
export const MIN_PERSON_COVERAGE = 0.02;
