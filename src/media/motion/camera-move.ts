// Camera moves of the local motion engine: read from an English motion prompt (or chosen per shot from a seed),
// turned into eased keyframes and then into one viewport per frame that always lies inside the source.
import { seededRandom } from '../script/seeded.ts';

export type MoveKind = 'zoom' | 'dolly' | 'push-in' | 'pan' | 'tilt' | 'orbit' | 'parallax' | 'static';
export type MoveDirection = 'in' | 'out' | 'left' | 'right' | 'up' | 'down' | 'none';
export type MoveSpeed = 'slow' | 'normal' | 'fast';

export interface CameraMove {
  kind: MoveKind;
  /** in/out for zoom, dolly and push-in; left/right for pan, orbit and parallax; up/down for tilt. */
  direction: MoveDirection;
  speed: MoveSpeed;
  /** How far the move travels, 0–1 (slow 0.35, normal 0.6, fast 0.9 unless the prompt says otherwise). */
  strength: number;
  /** Where a push-in heads, as fractions of the source (0–1); the centre when absent. */
  focus?: { x: number; y: number };
}

/** A point of the move: zoom ≥ 1 relative to the cover crop, and the view centre as fractions of the source. */
export interface MoveKeyframe {
  t: number;
  zoom: number;
  cx: number;
  cy: number;
}

/** The part of the source one output frame shows, in source pixels (continuous coordinates). */
export interface Viewport {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

const SPEED_STRENGTH: Record<MoveSpeed, number> = { slow: 0.35, normal: 0.6, fast: 0.9 };

/**
 * How much eased moves slow down at their ends: 1 starts and ends at rest, 0 is linear. Short shots cut
 * together look mechanical when every one stops dead, so the ends keep a quarter of the mean speed.
 */
export const DEFAULT_EASE = 0.75;

// Longer phrases first: "zoom out" must not be read as a plain zoom, "push in" before "in".
const PATTERNS: { re: RegExp; kind: MoveKind; direction: MoveDirection }[] = [
  {
    re: /\b(static|still shot|locked[- ]off|no (camera )?(motion|movement))\b/,
    kind: 'static',
    direction: 'none',
  },
  { re: /\bparallax\b/, kind: 'parallax', direction: 'right' },
  {
    re: /\b(orbit(s|ing)?|arc(s|ing)?( shot)?|circl(e|es|ing) (around|the))\b/,
    kind: 'orbit',
    direction: 'right',
  },
  {
    re: /\bdolly(ing)? (out|back)|pull(s|ing)? (back|out)|track(s|ing)? (out|back)\b/,
    kind: 'dolly',
    direction: 'out',
  },
  { re: /\bdolly(ing)?( in| forward)?\b|\btrack(s|ing)? (in|forward)\b/, kind: 'dolly', direction: 'in' },
  {
    re: /\bpush(es|ing)?[- ]?in\b|\bpush(es|ing)? (toward|towards|into|on)\b|\bmove(s)? (in )?(closer|toward|towards)\b/,
    kind: 'push-in',
    direction: 'in',
  },
  {
    re: /\bzoom(s|ing)?[- ]?out\b|\bzoom(s|ing)? (away|back)\b|\bwiden(s|ing)?\b/,
    kind: 'zoom',
    direction: 'out',
  },
  { re: /\bzoom(s|ing)?\b|\bclose[- ]?up\b/, kind: 'zoom', direction: 'in' },
  { re: /\btilt(s|ing)? (up|upward|upwards)\b|\bpedestal up\b|\bcrane up\b/, kind: 'tilt', direction: 'up' },
  {
    re: /\btilt(s|ing)?( down| downward| downwards)?\b|\bpedestal down\b|\bcrane down\b/,
    kind: 'tilt',
    direction: 'down',
  },
  {
    re: /\b(pan(s|ning)?|truck(s|ing)?|slide(s)?|track(s|ing)?) (to the )?left\b/,
    kind: 'pan',
    direction: 'left',
  },
  {
    re: /\b(pan(s|ning)?|truck(s|ing)?|slide(s)?|track(s|ing)?)( (to the )?right)?\b/,
    kind: 'pan',
    direction: 'right',
  },
];

function speedOf(text: string): MoveSpeed {
  if (/\b(slow(ly)?|gentl[ey]|subtle|calm|gradual(ly)?|soft(ly)?|lazy|drift(s|ing)?)\b/.test(text))
    return 'slow';
  if (/\b(fast|quick(ly)?|rapid(ly)?|dramatic(ally)?|swift(ly)?|energetic|dynamic|crash)\b/.test(text))
    return 'fast';
  return 'normal';
}

/** The default when a prompt names no move: a gentle push-in, the least intrusive move that still lives. */
export function defaultMove(speed: MoveSpeed = 'slow'): CameraMove {
  return { kind: 'push-in', direction: 'in', speed, strength: SPEED_STRENGTH[speed] };
}

/** Reads the camera move an English motion prompt asks for; a gentle push-in when it names none. */
export function parseCameraMove(prompt: string): CameraMove {
  const text = prompt.toLowerCase();
  const speed = speedOf(text);
  const strength = SPEED_STRENGTH[speed];
  let best: { index: number; kind: MoveKind; direction: MoveDirection } | null = null;
  // The move named first wins ("zoom in, then pan" zooms): the earliest match over all patterns.
  for (const p of PATTERNS) {
    const m = p.re.exec(text);
    if (m && (best === null || m.index < best.index))
      best = { index: m.index, kind: p.kind, direction: p.direction };
  }
  if (!best) return defaultMove(speed === 'normal' ? 'slow' : speed);
  let { direction } = best;
  if (best.kind === 'orbit' || best.kind === 'parallax') {
    if (/\b(left|counter[- ]?clockwise|anti[- ]?clockwise)\b/.test(text)) direction = 'left';
  }
  if (best.kind === 'static') return { kind: 'static', direction: 'none', speed, strength: 0 };
  return { kind: best.kind, direction, speed, strength };
}

const SHOT_MOVES: { kind: MoveKind; direction: MoveDirection }[] = [
  { kind: 'push-in', direction: 'in' },
  { kind: 'zoom', direction: 'out' },
  { kind: 'pan', direction: 'left' },
  { kind: 'pan', direction: 'right' },
  { kind: 'tilt', direction: 'up' },
  { kind: 'zoom', direction: 'in' },
];

/**
 * The move of shot `index` of a text-to-video: the one its words name, else one picked from the seed, never
 * the same as the previous shot's pick so consecutive shots do not repeat.
 */
export function chooseShotMove(seed: string | number, index: number, words = ''): CameraMove {
  const named = parseCameraMove(words);
  const asked = words.trim() !== '' && !isDefault(named, words);
  if (asked) return named;
  const pick = (i: number) => Math.floor(seededRandom(`${seed}:${i}`)() * SHOT_MOVES.length);
  let choice = pick(index);
  if (index > 0 && choice === pick(index - 1)) choice = (choice + 1) % SHOT_MOVES.length;
  const move = SHOT_MOVES[choice] ?? SHOT_MOVES[0]!;
  const speed: MoveSpeed = 'slow';
  return { ...move, speed, strength: SPEED_STRENGTH[speed] };
}

function isDefault(move: CameraMove, words: string): boolean {
  return move.kind === 'push-in' && !/\bpush|closer|toward/.test(words.toLowerCase());
}

/** Largest centred region of the source with the output's aspect ratio (what a plain cover crop shows). */
export function coverSize(source: Size, output: Size): Size {
  const width = Math.min(source.width, (source.height * output.width) / output.height);
  return { width, height: (width * output.height) / output.width };
}

/** Zoom at which a view of `travel` × its own size still fits `room` times the cover size. */
function zoomForTravel(cover: number, sourceSide: number, travel: number): number {
  return Math.max(1, (cover * (1 + travel)) / sourceSide);
}

/**
 * The two keyframes of a move over a source of `source` size shown at `output` size. Each keyframe's view
 * lies inside the source; views between them are convex mixes and so lie inside too (see viewportAt).
 */
export function moveKeyframes(move: CameraMove, source: Size, output: Size): [MoveKeyframe, MoveKeyframe] {
  const s = Math.min(1, Math.max(0, move.strength));
  const cover = coverSize(source, output);
  const at = (t: number, zoom: number, cx: number, cy: number): MoveKeyframe =>
    fit({ t, zoom, cx, cy }, source, cover);
  const centre = { x: 0.5, y: 0.5 };
  switch (move.kind) {
    case 'static':
      return [at(0, 1, 0.5, 0.5), at(1, 1, 0.5, 0.5)];
    case 'zoom':
    case 'dolly':
    case 'push-in': {
      const range = move.kind === 'dolly' ? 0.45 : move.kind === 'push-in' ? 0.35 : 0.3;
      const far = 1 + range * s;
      const focus = move.kind === 'push-in' ? (move.focus ?? centre) : centre;
      const near = at(0, 1, 0.5, 0.5);
      const close = at(1, far, focus.x, focus.y);
      return move.direction === 'out'
        ? [
            { ...close, t: 0 },
            { ...near, t: 1 },
          ]
        : [near, close];
    }
    case 'pan':
    case 'tilt': {
      // Travel as a fraction of the view; zoom in just enough that the source has room for it.
      const travel = 0.08 + 0.3 * s;
      const horizontal = move.kind === 'pan';
      const zoom = horizontal
        ? zoomForTravel(cover.width, source.width, travel)
        : zoomForTravel(cover.height, source.height, travel);
      const half = horizontal
        ? (travel * cover.width) / zoom / source.width / 2
        : (travel * cover.height) / zoom / source.height / 2;
      // Pan left: the camera turns left, so the view moves toward the source's left edge.
      const sign = move.direction === 'left' || move.direction === 'up' ? -1 : 1;
      return horizontal
        ? [at(0, zoom, 0.5 - sign * half, 0.5), at(1, zoom, 0.5 + sign * half, 0.5)]
        : [at(0, zoom, 0.5, 0.5 - sign * half), at(1, zoom, 0.5, 0.5 + sign * half)];
    }
    case 'orbit':
    case 'parallax': {
      // A sideways drift with a slight push: the background's share of an orbit (the foreground layer, when
      // there is one, moves further; see foregroundViewport).
      const travel = 0.06 + 0.12 * s;
      const zoomEnd = 1 + 0.04 + 0.08 * s;
      const zoom0 = zoomForTravel(cover.width, source.width, travel);
      const half = (travel * cover.width) / zoom0 / source.width / 2;
      const sign = move.direction === 'left' ? -1 : 1;
      return [at(0, zoom0, 0.5 - sign * half, 0.5), at(1, zoom0 * zoomEnd, 0.5 + sign * half, 0.5)];
    }
  }
}

/** Moves a keyframe's centre the least distance that keeps its view inside the source. */
function fit(k: MoveKeyframe, source: Size, cover: Size): MoveKeyframe {
  const zoom = Math.max(1, k.zoom);
  const halfW = cover.width / zoom / 2 / source.width;
  const halfH = cover.height / zoom / 2 / source.height;
  const clamp = (v: number, lo: number, hi: number) => (lo > hi ? 0.5 : Math.min(hi, Math.max(lo, v)));
  return { t: k.t, zoom, cx: clamp(k.cx, halfW, 1 - halfW), cy: clamp(k.cy, halfH, 1 - halfH) };
}

/** Ease-in-out of progress t (0–1): a sine ease mixed with linear by `ease` (1 starts and ends at rest). */
export function easeInOut(t: number, ease = DEFAULT_EASE): number {
  const u = Math.min(1, Math.max(0, t));
  return u - (ease * Math.sin(2 * Math.PI * u)) / (2 * Math.PI);
}

/**
 * Interpolated keyframe at progress t. Zoom is interpolated geometrically (constant perceived speed), the
 * centre linearly; since 1/zoom then stays below the linear mix of the ends' 1/zoom, every view between two
 * keyframes that fit the source fits it too.
 */
export function keyframeAt(keys: readonly MoveKeyframe[], t: number, ease = DEFAULT_EASE): MoveKeyframe {
  const first = keys[0];
  if (!first) throw new RangeError('a move needs at least one keyframe');
  let a = first;
  let b = first;
  for (const k of keys) {
    if (k.t <= t) a = k;
    if (k.t >= t) {
      b = k;
      break;
    }
    b = k;
  }
  if (b.t <= a.t) return { ...a, t };
  const e = easeInOut((t - a.t) / (b.t - a.t), ease);
  return {
    t,
    zoom: a.zoom * Math.pow(b.zoom / a.zoom, e),
    cx: a.cx + (b.cx - a.cx) * e,
    cy: a.cy + (b.cy - a.cy) * e,
  };
}

/** The source region a keyframe shows, clamped (by at most rounding error) to lie inside the source. */
export function keyframeViewport(k: MoveKeyframe, source: Size, output: Size): Viewport {
  const cover = coverSize(source, output);
  const width = Math.min(source.width, cover.width / k.zoom);
  const height = Math.min(source.height, cover.height / k.zoom);
  const x = Math.min(source.width - width, Math.max(0, k.cx * source.width - width / 2));
  const y = Math.min(source.height - height, Math.max(0, k.cy * source.height - height / 2));
  return { x, y, width, height };
}

/** Progress (0–1) of frame `index` of `frames`. */
export function frameProgress(index: number, frames: number): number {
  return frames > 1 ? index / (frames - 1) : 0;
}

/** One viewport per frame of a move lasting `frames` frames. */
export function moveViewports(move: CameraMove, source: Size, output: Size, frames: number): Viewport[] {
  const keys = moveKeyframes(move, source, output);
  return Array.from({ length: frames }, (_, i) =>
    keyframeViewport(keyframeAt(keys, frameProgress(i, frames)), source, output),
  );
}

/** How much further the foreground layer moves than the background in a parallax or orbit. */
export const PARALLAX_GAIN = 1.8;

/**
 * The foreground layer's view for a background view: the same motion amplified by PARALLAX_GAIN about the
 * move's middle, so the layers line up halfway through and separate symmetrically toward both ends. The
 * foreground may leave the source (it is transparent outside its cut-out), so it is not clamped.
 */
export function foregroundViewport(background: Viewport, middle: Viewport, gain = PARALLAX_GAIN): Viewport {
  const scale = Math.pow(background.width / middle.width, gain);
  const width = middle.width * scale;
  const height = middle.height * scale;
  const cx =
    middle.x + middle.width / 2 + gain * (background.x + background.width / 2 - middle.x - middle.width / 2);
  const cy =
    middle.y +
    middle.height / 2 +
    gain * (background.y + background.height / 2 - middle.y - middle.height / 2);
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}
