// Where the photo sits in the talking head's frame: scaled so the face has the asked-for height, cover-cropped
// when the photo is large enough, moved so the head (with room for the head motion) stays inside the frame.
// The picture built from it, the base, is the frame plus a margin for the motion on every side.
import type { Box } from '../vision/faces.ts';
import { MAX_SHIFT, MOTION_MARGIN } from './head-motion.ts';

export interface Size {
  width: number;
  height: number;
}

export interface FrameRequest extends Size {
  fps: number;
  /** Where the face's centre should sit, as fractions of the frame (default 0.5, 0.4). */
  faceCenter?: { x: number; y: number };
  /** The face's height (brows to chin) as a fraction of the frame's height (default 0.3 upright, 0.4 otherwise). */
  faceHeight?: number;
}

export interface Framing {
  /** The base picture: the frame plus the motion margin, same aspect as the frame, even sides. */
  base: Size;
  /** Photo pixels to base pixels: base = (photo - origin) × scale. */
  origin: { x: number; y: number };
  scale: number;
  /** False when part of the base lies outside the photo (that part is filled). */
  covered: boolean;
}

/** Hair above the mesh (which stops at the forehead), a little below the chin, ears to the sides. */
const HEAD_ABOVE = 0.3;
const HEAD_BELOW = 0.05;
const HEAD_SIDES = 0.08;
/** Space kept between the head and the frame's edges beyond what the motion needs. */
const HEAD_PAD = 0.02;

function even(n: number): number {
  return Math.max(2, 2 * Math.round(n / 2));
}

/** The base's size: the frame grown by MOTION_MARGIN, with even sides. */
export function baseSize(frame: Size): Size {
  return { width: even(frame.width * (1 + MOTION_MARGIN)), height: even(frame.height * (1 + MOTION_MARGIN)) };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

interface Axis {
  /** The face's middle in photo pixels, and where the base should have it (base pixels). */
  faceMid: number;
  target: number;
  baseSide: number;
  photoSide: number;
  /** The head's extent in photo pixels. */
  head: [number, number];
  /** The part of the base the head must stay in (the resting view less the motion's reserve), base pixels. */
  view: [number, number];
}

/** The photo coordinate at the base's start on one axis. */
function placeAxis(scale: number, a: Axis): number {
  let origin = a.faceMid - a.target / scale;
  // Cover the base with the photo where the photo is large enough...
  if (a.baseSide / scale <= a.photoSide) origin = clamp(origin, 0, a.photoSide - a.baseSide / scale);
  // ...but keeping the head inside the view comes first.
  if (a.head[0] < origin + a.view[0] / scale) origin = a.head[0] - a.view[0] / scale;
  if (a.head[1] > origin + a.view[1] / scale) origin = a.head[1] - a.view[1] / scale;
  return origin;
}

export function planFraming(photo: Size, face: Box, frame: FrameRequest): Framing {
  const base = baseSize(frame);
  const faceHeight = frame.faceHeight ?? (frame.height > frame.width ? 0.3 : 0.4);
  const center = frame.faceCenter ?? { x: 0.5, y: 0.4 };
  if (!(faceHeight > 0 && faceHeight < 1))
    throw new RangeError(`faceHeight must lie in (0, 1), got ${faceHeight}`);
  if (!(center.x >= 0 && center.x <= 1 && center.y >= 0 && center.y <= 1)) {
    throw new RangeError(`faceCenter must lie in the frame, got ${JSON.stringify(center)}`);
  }

  // The head as far as the photo shows it: what is cut off by the photo's edge cannot be brought into view.
  const head = {
    x0: Math.max(0, face.x - HEAD_SIDES * face.width),
    x1: Math.min(photo.width, face.x + face.width * (1 + HEAD_SIDES)),
    y0: Math.max(0, face.y - HEAD_ABOVE * face.height),
    y1: Math.min(photo.height, face.y + face.height * (1 + HEAD_BELOW)),
  };
  const reserve = MAX_SHIFT + HEAD_PAD;
  const fitHead = Math.min(
    (frame.width * (1 - 2 * reserve)) / (head.x1 - head.x0),
    (frame.height * (1 - 2 * reserve)) / (head.y1 - head.y0),
  );
  const wanted = (faceHeight * frame.height) / face.height;
  const cover = Math.max(base.width / photo.width, base.height / photo.height);
  const scale = Math.min(Math.max(wanted, cover), fitHead);

  const origin = {
    x: placeAxis(scale, {
      faceMid: face.x + face.width / 2,
      target: (base.width - frame.width) / 2 + center.x * frame.width,
      baseSide: base.width,
      photoSide: photo.width,
      head: [head.x0, head.x1],
      view: [
        (base.width - frame.width) / 2 + reserve * frame.width,
        (base.width + frame.width) / 2 - reserve * frame.width,
      ],
    }),
    y: placeAxis(scale, {
      faceMid: face.y + face.height / 2,
      target: (base.height - frame.height) / 2 + center.y * frame.height,
      baseSide: base.height,
      photoSide: photo.height,
      head: [head.y0, head.y1],
      view: [
        (base.height - frame.height) / 2 + reserve * frame.height,
        (base.height + frame.height) / 2 - reserve * frame.height,
      ],
    }),
  };
  const eps = 1e-6;
  const covered =
    origin.x >= -eps &&
    origin.y >= -eps &&
    origin.x + base.width / scale <= photo.width + eps &&
    origin.y + base.height / scale <= photo.height + eps;
  return { base, origin, scale, covered };
}
