// The FaceMesh points the talking head moves, by index into Face.landmarks. The lists are the contours of
// @vladmandic/human's mesh annotations (src/face/facemeshcoords.ts, `meshAnnotations`), which the package does
// not export at run time; each contour here runs corner to corner. "Right" and "left" are the person's own, so
// the person's right eye is the one on the picture's left.
import type { Face } from '../vision/faces.ts';
import type { Point } from './pixels.ts';

/** Outer lip corners: the commented-out full lipsUpperOuter/lipsLowerOuter lists begin and end with them. */
export const MOUTH_CORNER_RIGHT = 61;
export const MOUTH_CORNER_LEFT = 291;

/** lipsUpperOuter with its corners. */
export const LIPS_UPPER_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291] as const;
/** lipsLowerOuter (corners included in the annotation). */
export const LIPS_LOWER_OUTER = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291] as const;
/** lipsUpperInner with the inner corners 78 and 308 of lipsLowerInner. */
export const LIPS_UPPER_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308] as const;
/** lipsLowerInner. */
export const LIPS_LOWER_INNER = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308] as const;

/** noseBottom (`noseBottom: [2]`) and the chin's lowest silhouette point (152). */
export const NOSE_BOTTOM = 2;
export const CHIN = 152;

export interface EyeContours {
  /** Eye corners, outer then inner. */
  corners: readonly [number, number];
  /** Upper lid edge (EyeUpper0) between the corners, which start and end EyeLower0. */
  upperLid: readonly number[];
  /** Lower lid edge (EyeLower0), corner to corner. */
  lowerLid: readonly number[];
  /** The ring above the lid just under the brow (EyeUpper2): lid skin lies between it and the lid edge. */
  aboveLid: readonly number[];
}

export const RIGHT_EYE: EyeContours = {
  corners: [33, 133],
  upperLid: [33, 246, 161, 160, 159, 158, 157, 173, 133],
  lowerLid: [33, 7, 163, 144, 145, 153, 154, 155, 133],
  aboveLid: [113, 225, 224, 223, 222, 221, 189],
};

export const LEFT_EYE: EyeContours = {
  corners: [263, 362],
  upperLid: [263, 466, 388, 387, 386, 385, 384, 398, 362],
  lowerLid: [263, 249, 390, 373, 374, 380, 381, 382, 362],
  aboveLid: [342, 445, 444, 443, 442, 441, 413],
};

/** A face's landmarks moved into another picture's pixels (the framed base image). */
export type LandmarkPoints = readonly Point[];

export function mapLandmarks(face: Face, toTarget: (x: number, y: number) => Point): LandmarkPoints {
  if (face.landmarks.length < 468) {
    throw new Error(
      `the face has ${face.landmarks.length} landmarks; the talking head needs the 468-point mesh`,
    );
  }
  return face.landmarks.map(([x, y]) => toTarget(x, y));
}

export function pick(points: LandmarkPoints, indexes: readonly number[]): Point[] {
  return indexes.map((i) => points[i]!);
}
