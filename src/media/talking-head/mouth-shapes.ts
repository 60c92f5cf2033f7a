// One picture of the mouth per viseme, made from the photo's own pixels. Working in a frame along the mouth
// (u from corner to corner, v downwards), each output pixel looks up where it came from:
//  - the upper lip rises a little, the skin above it following less and less up to the nose;
//  - the lower lip drops along the opening's profile (most in the middle, none at the corners) and the jaw
//    with it, the chin following and the displacement fading out below the chin;
//  - spreading (EE) or rounding (OO) scales the mouth across, fading out around it;
//  - the gap between the lips shows the photo's own mouth interior when it had one (teeth stay under the upper
//    lip), otherwise a dark interior with a band of upper teeth, lit like the skin around it.
import { MOUTH_SHAPES, type MouthShape } from './visemes.ts';
import {
  CHIN,
  LIPS_LOWER_INNER,
  LIPS_LOWER_OUTER,
  LIPS_UPPER_INNER,
  LIPS_UPPER_OUTER,
  MOUTH_CORNER_LEFT,
  MOUTH_CORNER_RIGHT,
  NOSE_BOTTOM,
  pick,
  type LandmarkPoints,
} from './landmarks.ts';
import {
  bump,
  clamp01,
  Curve,
  evenRectInside,
  featherBorder,
  lerp,
  LocalFrame,
  pixelRectInside,
  sampleRegion,
  smooth01,
  type Point,
  type Rect,
  type RgbaImage,
  type RgbaRegion,
} from './pixels.ts';

export interface MouthGeometry {
  frame: LocalFrame;
  upperOuter: Curve;
  upperInner: Curve;
  lowerInner: Curve;
  lowerOuter: Curve;
  /** u of the inner corners (where the lips part). */
  innerLeft: number;
  innerRight: number;
  /** Corner-to-corner width, the unit of MouthShape. */
  width: number;
  /** v where the jaw's movement has faded out completely, and where the fade starts. */
  fadeEnd: number;
  fadeStart: number;
  /** Where the upper lip's pull stops (just under the nose). */
  top: number;
  /** Base pixels the patch covers. */
  patch: Rect;
  /** Base pixels the patch is made from (renderMouth, mouthTone and edgeBlur read no others). */
  source: Rect;
}

/**
 * Spreading and rounding scale the lips as a whole out to WIDEN_FLAT mouth widths from the middle, fading out
 * by WIDEN_REACH (the cheeks take up the difference); the jaw moves over JAW_REACH.
 */
const WIDEN_FLAT = 0.6;
const WIDEN_REACH = 1.1;
const JAW_REACH = 0.9;
/** Share of the lower lip's drop that the chin follows. */
const JAW_FOLLOW = 0.85;
/** The most a shape narrows the mouth (rounding): it then samples out to WIDEN_REACH / (1 + NARROWEST) widths. */
const NARROWEST = Math.min(0, ...Object.values(MOUTH_SHAPES).map((s) => s.widen));

function local(frame: LocalFrame, points: Point[]): [number, number][] {
  return points.map((p) => frame.toLocal(p));
}

export function mouthGeometry(
  points: LandmarkPoints,
  base: { width: number; height: number },
): MouthGeometry {
  const [a, b] = [points[MOUTH_CORNER_RIGHT]!, points[MOUTH_CORNER_LEFT]!].sort((p, q) => p[0] - q[0]);
  const frame = LocalFrame.along(a!, b!);
  const curve = (indexes: readonly number[]) => new Curve(local(frame, pick(points, indexes)));
  const upperInner = curve(LIPS_UPPER_INNER);
  const lowerInner = curve(LIPS_LOWER_INNER);
  const lowerOuter = curve(LIPS_LOWER_OUTER);
  const width = Math.hypot(b![0] - a![0], b![1] - a![1]);
  const [, chin] = frame.toLocal(points[CHIN]!);
  const [, nose] = frame.toLocal(points[NOSE_BOTTOM]!);
  const lipBottom = lowerOuter.at(0);
  // The chin's outline moves down with the jaw; the fade to still runs below it, long enough to stay gentle.
  const fadeEnd = Math.max(chin + 0.3 * (chin - lipBottom), lipBottom + 0.9 * width);
  const fadeStart = Math.min(lipBottom + 0.5 * (chin - lipBottom), fadeEnd - 0.45 * width);
  const top = nose + 0.1 * (upperInner.at(0) - nose);
  /** The bounds of the local rect from u0 to u1 and from `top` to below the fade, in base pixels. */
  const bounds = (u0: number, u1: number, margin: number): Rect => {
    const corners = [
      frame.toImage(u0, top),
      frame.toImage(u1, top),
      frame.toImage(u0, fadeEnd + 2),
      frame.toImage(u1, fadeEnd + 2),
    ];
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    return {
      x: Math.min(...xs) - margin,
      y: Math.min(...ys) - margin,
      width: Math.max(...xs) - Math.min(...xs) + 2 * margin,
      height: Math.max(...ys) - Math.min(...ys) + 2 * margin,
    };
  };
  const patch = evenRectInside(bounds(-1.2 * width, 1.2 * width, 0), base.width, base.height);
  // The patch's pixels move by less than the patch's extent except across (a rounded mouth pulls from wider).
  const mid = (Math.min(upperInner.minU, lowerInner.minU) + Math.max(upperInner.maxU, lowerInner.maxU)) / 2;
  const reach = (WIDEN_REACH * width) / (1 + NARROWEST);
  const source = pixelRectInside(
    bounds(Math.min(-1.2 * width, mid - reach), Math.max(1.2 * width, mid + reach), 4),
    base.width,
    base.height,
  );
  return {
    frame,
    upperOuter: curve(LIPS_UPPER_OUTER),
    upperInner,
    lowerInner,
    lowerOuter,
    innerLeft: Math.min(upperInner.minU, lowerInner.minU),
    innerRight: Math.max(upperInner.maxU, lowerInner.maxU),
    width,
    fadeEnd,
    fadeStart,
    top,
    patch,
    source,
  };
}

export type Rgb = [number, number, number];

/** Colours the opened mouth is painted with, taken from the photo so they sit in its light. */
export interface MouthTone {
  interior: Rgb;
  tongue: Rgb;
  teeth: Rgb;
}

function mean(base: RgbaRegion, points: Point[]): Rgb {
  const px = new Float64Array(4);
  const sum: Rgb = [0, 0, 0];
  for (const [x, y] of points) {
    sampleRegion(base, x, y, px);
    sum[0] += px[0]!;
    sum[1] += px[1]!;
    sum[2] += px[2]!;
  }
  return sum.map((v) => v / Math.max(1, points.length)) as Rgb;
}

/** `base` holds the geometry's source rect of the base. */
export function mouthTone(base: RgbaRegion, g: MouthGeometry): MouthTone {
  const lipPoints: Point[] = [];
  const skinPoints: Point[] = [];
  const half = (g.innerRight - g.innerLeft) / 2;
  const mid = (g.innerRight + g.innerLeft) / 2;
  for (let i = -4; i <= 4; i++) {
    const u = mid + (i / 4) * 0.6 * half;
    lipPoints.push(g.frame.toImage(u, (g.lowerInner.at(u) + g.lowerOuter.at(u)) / 2));
    lipPoints.push(g.frame.toImage(u, (g.upperInner.at(u) + g.upperOuter.at(u)) / 2));
    // Skin just below the lower lip and beside the corners.
    skinPoints.push(g.frame.toImage(u, g.lowerOuter.at(u) + 0.12 * g.width));
  }
  skinPoints.push(
    g.frame.toImage(g.innerLeft - 0.25 * g.width, 0),
    g.frame.toImage(g.innerRight + 0.25 * g.width, 0),
  );
  const lip = mean(base, lipPoints);
  const skin = mean(base, skinPoints);
  const luma = 0.299 * skin[0] + 0.587 * skin[1] + 0.114 * skin[2];
  // Teeth are lighter than the lit skin around the mouth and nearly neutral: ivory, in the photo's light.
  const teethLight = Math.min(235, Math.max(160, 1.25 * luma));
  const teeth = [1.0, 0.97, 0.9].map((k) => k * teethLight) as Rgb;
  return {
    interior: lip.map((c) => c * 0.3 + 10) as Rgb,
    tongue: lip.map((c) => c * 0.62) as Rgb,
    teeth,
  };
}

/**
 * The mouth patch for one shape: RGBA, the patch rect's size, alpha feathered at its border. `blur` is the
 * photo's own edge blur around the mouth (σ in base pixels, see edgeBlur): painted edges are drawn as soft.
 * `base` holds the geometry's source rect of the base.
 */
export function renderMouth(
  base: RgbaRegion,
  g: MouthGeometry,
  shape: MouthShape,
  tone: MouthTone,
  blur: number,
): RgbaImage {
  const { patch, frame, width: mw } = g;
  const out = new Uint8Array(patch.width * patch.height * 4);
  const px = new Float64Array(4);
  const inner = new Float64Array(4);
  const mid = (g.innerLeft + g.innerRight) / 2;
  const halfInner = Math.max(1, (g.innerRight - g.innerLeft) / 2);
  const profilePower = lerp(0.8, 0.45, shape.roundness);
  const lineMid = (g.upperInner.at(mid) + g.lowerInner.at(mid)) / 2;
  const reachUp = Math.max(1, lineMid - g.top);
  const reachDown = Math.max(1, g.fadeEnd - lineMid);
  const lipThickMid = Math.max(1, g.lowerOuter.at(mid) - g.lowerInner.at(mid));
  const jawDrop = shape.open * mw * (1 - shape.upperShare) * JAW_FOLLOW;
  // A Gaussian edge of σ rises from 10 % to 90 % over about 2.5σ; a little more reads as the lips' rounded edge.
  const soft = Math.max(1, 3 * blur);

  for (let py = 0; py < patch.height; py++) {
    for (let pxi = 0; pxi < patch.width; pxi++) {
      const u = frame.u(patch.x + pxi, patch.y + py);
      const v = frame.v(patch.x + pxi, patch.y + py);
      const dv = v - lineMid;
      const across = 1 - smooth01((Math.abs(u - mid) - WIDEN_FLAT * mw) / ((WIDEN_REACH - WIDEN_FLAT) * mw));
      const spread = across * bump(dv < 0 ? dv / reachUp : dv / reachDown);
      const us = mid + (u - mid) / (1 + shape.widen * spread);

      const ui = g.upperInner.at(us);
      const li = g.lowerInner.at(us);
      const line = (ui + li) / 2;
      const gap = Math.max(0, li - ui);
      const t = (us - mid) / halfInner;
      const profile = Math.abs(t) < 1 ? Math.pow(1 - t * t, profilePower) : 0;
      const opening = shape.open * mw * profile;
      const upperEdge = line - opening * shape.upperShare;
      const lowerEdge = line + opening * (1 - shape.upperShare);

      // Where this pixel's lip or skin comes from.
      let vs: number;
      if (v < (upperEdge + lowerEdge) / 2) {
        const lift = upperEdge - ui;
        // Long enough that the ramp never folds the picture (a smoothstep is at most 1.5 steep).
        const reach = Math.max(3, 2 * (ui - g.upperOuter.at(us)), 2 * Math.abs(lift));
        vs = v - lift * smooth01(1 - (upperEdge - v) / reach);
      } else {
        const lipDrop = lowerEdge - li;
        const lipThick = Math.max(0.3 * lipThickMid, g.lowerOuter.at(us) - li);
        const jaw = jawDrop * bump((us - mid) / (JAW_REACH * mw));
        const blend = Math.max(1.5 * lipThick, 2 * Math.abs(jaw - lipDrop));
        const drop = lerp(lipDrop, jaw, smooth01((v - lowerEdge) / blend));
        vs = v - drop * (1 - smooth01((v - g.fadeStart) / (g.fadeEnd - g.fadeStart)));
      }
      sampleRegion(base, frame.x(us, vs), frame.y(us, vs), px);

      const gapHeight = lowerEdge - upperEdge;
      const cover =
        gapHeight > 0 ? clamp01((v - upperEdge) / soft + 0.5) * clamp01((lowerEdge - v) / soft + 0.5) : 0;
      if (gapHeight > 0) {
        // Lips darken a little where they part, as they are shaded by the opening.
        const edgeDistance = v < upperEdge ? upperEdge - v : v > lowerEdge ? v - lowerEdge : 0;
        const shade = 1 - 0.22 * Math.exp(-edgeDistance / (1.5 * soft)) * Math.min(1, gapHeight / (2 * soft));
        for (let c = 0; c < 3; c++) px[c] = px[c]! * shade;
      }
      if (cover > 0) {
        const depth = v - upperEdge;
        if (gap > 1.5 * soft && depth < gap * 0.85) {
          // The photo's own open mouth: its interior (teeth) hangs from the upper lip.
          const vi = ui + Math.max(0, depth);
          sampleRegion(base, frame.x(us, vi), frame.y(us, vi), inner);
        } else {
          paintInterior(inner, shape, tone, { depth, gapHeight, t, profile, mw, soft });
        }
        for (let c = 0; c < 3; c++) px[c] = lerp(px[c]!, inner[c]!, cover);
      }
      const o = (py * patch.width + pxi) * 4;
      out[o] = Math.round(px[0]!);
      out[o + 1] = Math.round(px[1]!);
      out[o + 2] = Math.round(px[2]!);
      out[o + 3] = 255;
    }
  }
  const result = { data: out, width: patch.width, height: patch.height };
  featherBorder(result, 3);
  return result;
}

interface InteriorAt {
  /** Distance below the upper lip's edge, and the opening's height there. */
  depth: number;
  gapHeight: number;
  /** Position across the opening, −1 to 1, and the opening's profile there. */
  t: number;
  profile: number;
  mw: number;
  soft: number;
}

/** A painted mouth interior: upper teeth under the upper lip, dark behind, the tongue low in a wide opening. */
function paintInterior(out: Float64Array, shape: MouthShape, tone: MouthTone, at: InteriorAt): void {
  const { depth, gapHeight, t, profile, mw, soft } = at;
  const teethHeight =
    shape.teeth >= 1 ? gapHeight : shape.teeth * Math.min(0.55 * gapHeight, 0.09 * mw * Math.sqrt(profile));
  const r = clamp01((depth - teethHeight) / Math.max(1, gapHeight - teethHeight));
  const tongue = smooth01((r - 0.55) / 0.45) * smooth01((gapHeight - 0.12 * mw) / (0.1 * mw));
  const darkShade = 0.8 + 0.4 * Math.abs(t);
  const teethShade = (1 - 0.5 * t * t) * (depth < soft ? 0.8 : 1);
  const teeth = teethHeight > 0 ? 1 - smooth01((depth - teethHeight) / soft + 0.5) : 0;
  for (let c = 0; c < 3; c++) {
    const dark = lerp(tone.interior[c]!, tone.tongue[c]!, tongue) * darkShade;
    out[c] = lerp(dark, tone.teeth[c]! * teethShade, teeth);
  }
}
