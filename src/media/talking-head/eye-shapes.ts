// Half-closed and closed eyes for blinks, made from the photo's own pixels: in a frame along each eye, the upper
// lid's edge (lashes) is lowered towards the lower lid and the lid skin above it, up to under the brow, is
// stretched down with it. What the lid has not yet covered stays the photo's eye.
import { LEFT_EYE, pick, RIGHT_EYE, type EyeContours, type LandmarkPoints } from './landmarks.ts';
import {
  clamp01,
  Curve,
  evenRectInside,
  featherBorder,
  lerp,
  LocalFrame,
  pixelRectInside,
  sampleRegion,
  smooth01,
  type Rect,
  type RgbaImage,
  type RgbaRegion,
} from './pixels.ts';

export interface EyeGeometry {
  frame: LocalFrame;
  upperLid: Curve;
  lowerLid: Curve;
  /** Top of the lid skin that stretches (v), per u. */
  skinTop: Curve;
  /** u of the corners. */
  start: number;
  end: number;
}

function eyeGeometry(points: LandmarkPoints, contours: EyeContours): EyeGeometry {
  const [a, b] = pick(points, contours.corners).sort((p, q) => p[0] - q[0]);
  const frame = LocalFrame.along(a!, b!);
  const curve = (indexes: readonly number[]) => new Curve(pick(points, indexes).map((p) => frame.toLocal(p)));
  const upperLid = curve(contours.upperLid);
  const lowerLid = curve(contours.lowerLid);
  const above = curve(contours.aboveLid);
  const [start, end] = [frame.toLocal(a!)[0], frame.toLocal(b!)[0]];
  // The stretched skin reaches at least 80 % of the eye's opening above the lid, so the stretch stays gentle.
  const opening = Math.max(1, lowerLid.at(0) - upperLid.at(0));
  const skinTop = new Curve(
    Array.from({ length: 9 }, (_, i) => {
      const u = start + ((end - start) * i) / 8;
      return [u, Math.min(above.at(u), upperLid.at(u) - 0.8 * opening)] as [number, number];
    }),
  );
  return { frame, upperLid, lowerLid, skinTop, start, end };
}

export interface EyesGeometry {
  eyes: EyeGeometry[];
  /** Base pixels the patch covers: both eyes. */
  patch: Rect;
  /** Base pixels the patch is made from: the lid skin it stretches lies inside the patch. */
  source: Rect;
}

/** The lid's edge is drawn as soft as the photo's edges: a Gaussian edge of σ spans about 2.5σ. */
function edgeSoftness(blur: number): number {
  return Math.max(1, 2.5 * blur);
}

/** `blur` is the photo's edge blur (σ, base pixels): the patch leaves room for the lid's soft edge. */
export function eyesGeometry(
  points: LandmarkPoints,
  base: { width: number; height: number },
  blur: number,
): EyesGeometry {
  const eyes = [eyeGeometry(points, RIGHT_EYE), eyeGeometry(points, LEFT_EYE)];
  const corners = eyes.flatMap((e) =>
    Array.from({ length: 17 }, (_, i) => e.start + ((e.end - e.start) * i) / 16).flatMap((u) => [
      e.frame.toImage(u, e.skinTop.at(u)),
      e.frame.toImage(u, e.lowerLid.at(u)),
    ]),
  );
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  // Room below the lid's edge for its soft edge, and for the patch's feathered border.
  const pad = Math.ceil(edgeSoftness(blur)) + 4;
  const patch = evenRectInside(
    {
      x: Math.min(...xs) - pad,
      y: Math.min(...ys) - pad,
      width: Math.max(...xs) - Math.min(...xs) + 2 * pad,
      height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
    },
    base.width,
    base.height,
  );
  // A pixel's margin for the bilinear samples' neighbours.
  const source = pixelRectInside(
    { x: patch.x - 1, y: patch.y - 1, width: patch.width + 2, height: patch.height + 2 },
    base.width,
    base.height,
  );
  return { eyes, patch, source };
}

/** Share of the eye's length over which the lid's travel tapers to nothing at each corner. */
const CORNER_TAPER = 0.18;

/**
 * Both eyes with the lids `closure` of the way down (1 closed), as an RGBA patch of the geometry's rect. `blur`
 * is the photo's edge blur (σ, base pixels): the lid's edge is drawn that soft, with a lash line along it.
 * `base` holds the geometry's source rect of the base.
 */
export function renderEyes(
  base: RgbaRegion,
  geometry: EyesGeometry,
  closure: number,
  blur: number,
): RgbaImage {
  const { patch, eyes } = geometry;
  const out = new Uint8Array(patch.width * patch.height * 4);
  const eye = new Float64Array(4);
  const lidPx = new Float64Array(4);
  const soft = edgeSoftness(blur);
  for (let py = 0; py < patch.height; py++) {
    for (let pxi = 0; pxi < patch.width; pxi++) {
      const x = patch.x + pxi;
      const y = patch.y + py;
      sampleRegion(base, x, y, eye);
      for (const g of eyes) {
        const u = g.frame.u(x, y);
        const v = g.frame.v(x, y);
        const along = (u - g.start) / (g.end - g.start);
        if (along <= 0 || along >= 1) continue;
        const upper = g.upperLid.at(u);
        const opening = Math.max(0, g.lowerLid.at(u) - upper);
        const top = g.skinTop.at(u);
        const travel = closure * opening * smooth01(Math.min(along, 1 - along) / CORNER_TAPER);
        const lid = upper + travel;
        if (v < top || v > lid + soft || travel <= 0) continue;
        // The lid skin between `top` and the lid's edge stretched down to the new edge.
        const vs = top + ((Math.min(v, lid) - top) * (upper - top)) / (lid - top);
        sampleRegion(base, g.frame.x(u, vs), g.frame.y(u, vs), lidPx);
        // Lashes darken the lid's edge, more the further it has come down.
        const lash =
          1 -
          0.45 *
            (travel / Math.max(1, opening)) *
            Math.exp(-(((v - lid) / (0.6 * soft + 0.06 * opening)) ** 2));
        const coverLid = clamp01((lid - v) / soft + 0.5);
        for (let c = 0; c < 3; c++) eye[c] = lerp(eye[c]!, lidPx[c]! * lash, coverLid);
        break;
      }
      const o = (py * patch.width + pxi) * 4;
      out[o] = Math.round(eye[0]!);
      out[o + 1] = Math.round(eye[1]!);
      out[o + 2] = Math.round(eye[2]!);
      out[o + 3] = 255;
    }
  }
  const result = { data: out, width: patch.width, height: patch.height };
  featherBorder(result, 3);
  return result;
}
