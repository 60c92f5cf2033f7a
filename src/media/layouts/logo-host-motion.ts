// How the logo host moves: a card that sways and bobs, or a cube turning about its vertical axis with the
// logo on its faces. Both are one loop of frames drawn once by ffmpeg's `perspective` filter (each frame's
// corners are expressions of the frame number) and then repeated, so the cost does not grow with the video.
// The formulas are written once over an algebra that either computes numbers (for tests and planning) or
// writes ffmpeg expressions.
import { num } from '../ffmpeg/filter-escape.ts';

/** Arithmetic over numbers or over ffmpeg expression strings. */
export interface Algebra<T> {
  n(value: number): T;
  /** The loop's frame number, 0-based. */
  frame: T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  div(a: T, b: T): T;
  sin(a: T): T;
  cos(a: T): T;
  abs(a: T): T;
  /** a < b ? then : otherwise */
  ifLess(a: T, b: T, then: T, otherwise: T): T;
}

export function numberAlgebra(frame: number): Algebra<number> {
  return {
    n: (v) => v,
    frame,
    add: (a, b) => a + b,
    sub: (a, b) => a - b,
    mul: (a, b) => a * b,
    div: (a, b) => a / b,
    sin: Math.sin,
    cos: Math.cos,
    abs: Math.abs,
    ifLess: (a, b, then, otherwise) => (a < b ? then : otherwise),
  };
}

/** ffmpeg expressions; `frameVar` is the filter's frame-number variable (`in` for perspective, `n` for eq). */
export function expressionAlgebra(frameVar: string): Algebra<string> {
  return {
    n: (v) => (v < 0 ? `(${num(v)})` : num(v)),
    frame: frameVar,
    add: (a, b) => `(${a}+${b})`,
    sub: (a, b) => `(${a}-${b})`,
    mul: (a, b) => `(${a}*${b})`,
    div: (a, b) => `(${a}/${b})`,
    sin: (a) => `sin(${a})`,
    cos: (a) => `cos(${a})`,
    abs: (a) => `abs(${a})`,
    ifLess: (a, b, then, otherwise) => `if(lt(${a},${b}),${then},${otherwise})`,
  };
}

/** Where a frame's four corners go (perspective's x0..y3: top-left, top-right, bottom-left, bottom-right). */
export interface Quad<T> {
  x0: T;
  y0: T;
  x1: T;
  y1: T;
  x2: T;
  y2: T;
  x3: T;
  y3: T;
}

export interface LoopPlan {
  /** Frames in one loop. */
  frames: number;
  /** Side of the square canvas the loop is drawn on, px. */
  canvas: number;
}

/** The card: ±9° of sway (yaw), ±2.5° of tilt (roll) and a bob of 3 % of the canvas, once per loop. */
const CARD_YAW = (9 * Math.PI) / 180;
const CARD_ROLL = (2.5 * Math.PI) / 180;
const CARD_BOB = 0.03;
/** Camera distance in canvas sides: far enough for a mild perspective. */
const CARD_CAMERA = 3;

/** The corners of the card's canvas at loop frame `a.frame`: rolled, turned about its vertical axis, bobbing. */
export function cardQuad<T>(a: Algebra<T>, plan: LoopPlan): Quad<T> {
  const c = plan.canvas;
  const phase = a.mul(a.n((2 * Math.PI) / plan.frames), a.frame);
  const yaw = a.mul(a.n(CARD_YAW), a.sin(phase));
  const roll = a.mul(a.n(CARD_ROLL), a.cos(phase));
  // Twice per loop, so the bob and the sway do not move in lockstep.
  const bob = a.mul(a.n(CARD_BOB * c), a.sin(a.mul(a.n(2), phase)));
  const camera = a.n(CARD_CAMERA * c);
  const corner = (cx: number, cy: number): [T, T] => {
    const x1 = a.sub(a.mul(a.n(cx), a.cos(roll)), a.mul(a.n(cy), a.sin(roll)));
    const y1 = a.add(a.mul(a.n(cx), a.sin(roll)), a.mul(a.n(cy), a.cos(roll)));
    const x2 = a.mul(x1, a.cos(yaw));
    const z2 = a.mul(x1, a.sin(yaw));
    const depth = a.div(camera, a.sub(camera, z2));
    return [a.add(a.n(c / 2), a.mul(x2, depth)), a.add(a.add(a.n(c / 2), bob), a.mul(y1, depth))];
  };
  const h = c / 2;
  const [x0, y0] = corner(-h, -h);
  const [x1, y1] = corner(h, -h);
  const [x2, y2] = corner(-h, h);
  const [x3, y3] = corner(h, h);
  return { x0, y0, x1, y1, x2, y2, x3, y3 };
}

/**
 * The cube: half-side s, camera at 5 s (weak perspective), a quarter turn per loop. With the turn angle
 * θ in (−45°, 45°) the face looking at θ is always the most frontal one (drawn last); the second face is
 * the neighbour on the side turning towards the camera. Four identical faces make a quarter turn a seamless
 * loop.
 */
const CUBE_CAMERA = 5;
/** Share of the canvas the cube's widest view takes. */
const CUBE_FILL = 0.84;
/** How much a face darkens as it turns away (eq brightness at edge-on). */
const CUBE_SHADE = 0.35;

function cubeAngle<T>(a: Algebra<T>, plan: LoopPlan): T {
  // Frame centres: never exactly face-on, so neither face's view is ever a line.
  return a.sub(a.mul(a.n(Math.PI / 2 / plan.frames), a.add(a.frame, a.n(0.5))), a.n(Math.PI / 4));
}

function cubeScale(plan: LoopPlan): { s: number; focal: number; camera: number } {
  const s = 1;
  const camera = CUBE_CAMERA * s;
  const r = Math.SQRT2 * s;
  // Widest view (45°): ±r at depth 0; tallest: the nearest edge at depth r.
  const width = (2 * r) / camera;
  const height = (2 * s) / (camera - r);
  const focal = (CUBE_FILL * plan.canvas) / Math.max(width, height);
  return { s, focal, camera };
}

export interface CubeFaces<T> {
  /** The face turned towards the camera (drawn on top). */
  front: Quad<T>;
  /** Its neighbour (drawn first); when turned away it takes the front face's corners and stays hidden. */
  side: Quad<T>;
  /** Brightness offsets for eq (0 = face-on, down to −CUBE_SHADE edge-on). */
  frontShade: T;
  sideShade: T;
}

export function cubeFaces<T>(a: Algebra<T>, plan: LoopPlan): CubeFaces<T> {
  const { s, focal, camera } = cubeScale(plan);
  const r = Math.SQRT2 * s;
  const c = plan.canvas / 2;
  const theta = cubeAngle(a, plan);
  /** Corners of the vertical edge at angle φ on the turntable: x, top y, bottom y. */
  const edge = (phi: T): [T, T, T] => {
    const depth = a.div(a.n(focal), a.sub(a.n(camera), a.mul(a.n(r), a.cos(phi))));
    const x = a.add(a.n(c), a.mul(a.mul(a.n(r), a.sin(phi)), depth));
    const half = a.mul(a.n(s), depth);
    return [x, a.sub(a.n(c), half), a.add(a.n(c), half)];
  };
  const quad = (left: [T, T, T], right: [T, T, T]): Quad<T> => ({
    x0: left[0],
    y0: left[1],
    x1: right[0],
    y1: right[1],
    x2: left[0],
    y2: left[2],
    x3: right[0],
    y3: right[2],
  });
  const quarter = a.n(Math.PI / 4);
  const left = edge(a.sub(theta, quarter));
  const right = edge(a.add(theta, quarter));
  const front = quad(left, right);
  // θ < 0: the right neighbour (edges θ+45°, θ+135°) comes into view; θ > 0: the left one (θ−135°, θ−45°).
  const farRight = edge(a.add(theta, a.n((3 * Math.PI) / 4)));
  const farLeft = edge(a.sub(theta, a.n((3 * Math.PI) / 4)));
  const negative = (x: T, y: T) => a.ifLess(theta, a.n(0), x, y);
  const openSide: Quad<T> = {
    x0: negative(right[0], farLeft[0]),
    y0: negative(right[1], farLeft[1]),
    x1: negative(farRight[0], left[0]),
    y1: negative(farRight[1], left[1]),
    x2: negative(right[0], farLeft[0]),
    y2: negative(right[2], farLeft[2]),
    x3: negative(farRight[0], left[0]),
    y3: negative(farRight[2], left[2]),
  };
  // The side faces the camera when the camera is outside its plane: sin|θ| > s / camera.
  const facing = a.sub(a.sin(a.abs(theta)), a.n(s / camera));
  const pick = (key: keyof Quad<T>) => a.ifLess(facing, a.n(0), front[key], openSide[key]);
  const side: Quad<T> = {
    x0: pick('x0'),
    y0: pick('y0'),
    x1: pick('x1'),
    y1: pick('y1'),
    x2: pick('x2'),
    y2: pick('y2'),
    x3: pick('x3'),
    y3: pick('y3'),
  };
  const shade = (cosine: T) => a.mul(a.n(-CUBE_SHADE), a.sub(a.n(1), cosine));
  return {
    front,
    side,
    frontShade: shade(a.cos(theta)),
    sideShade: shade(a.sin(a.abs(theta))),
  };
}
