// Faces in a photo: BlazeFace boxes, a 478-point FaceMesh (468 mesh + 10 iris points), a FaceRes identity
// descriptor and the mouth and eye regions, all in the photo's pixel coordinates.
//
// BlazeFace looks at a 256x256 picture, so a small face in a large photo vanishes. The photo is therefore
// searched in overlapping square tiles sized from the smallest face asked for, the boxes merged, and each face
// then analysed on a crop centred on it (so mesh and descriptor see it whole, whichever tile found it).
import type { FaceResult, Point } from '@vladmandic/human';
import sharp from 'sharp';
import { decodeRgb, type ImageInput, type RgbImage } from './image-input.ts';
import { faceRuntime, runExclusive, tf, type VisionRuntime } from './runtime.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Face {
  /** Face box in image pixels: the bounds of the 468 mesh points (brows to chin, cheek to cheek). */
  box: Box;
  /** Overall confidence 0–1 (detector and mesh). */
  score: number;
  /** 478 FaceMesh points [x, y, z] in image pixels (z: relative depth, same scale): 468 mesh then 10 iris. */
  landmarks: [number, number, number][];
  /** L2-normalised 1024-value FaceRes descriptor; compare with faceDistance. */
  descriptor: Float32Array;
  /** Outer lip contour bounds. */
  mouth: Box;
  /** Eye (lid contour) bounds; left and right as seen in the picture. */
  leftEye: Box;
  rightEye: Box;
  /** Head rotation in radians when the mesh allows it. */
  rotation: { roll: number; yaw: number; pitch: number } | null;
}

export interface DetectFacesOptions {
  /**
   * Smallest face side (px) to look for; smaller faces may be missed. Default: a sixth of the photo's shorter
   * side (a portrait or presenter photo). Smaller values search in more tiles and take longer.
   */
  minFaceSize?: number;
  /** Analyse at most this many faces, the largest found (default 20): each analysis takes ~0.2 s. */
  maxFaces?: number;
}

/** A face at least this share of a tile is found reliably by BlazeFace (measured on the Human sample photos). */
const FACE_TO_TILE = 1 / 6;
const MIN_TILE = 160;
const TILE_OVERLAP = 0.25;
/** Boxes from overlapping tiles overlapping this much (intersection over the smaller box) are one face. */
const SAME_FACE_OVERLAP = 0.5;
/** Crop side around a found face for the analysis pass, in face sides. */
const ANALYSIS_CONTEXT = 2.4;
const DEFAULT_MAX_FACES = 20;
/** Tiles reach the detector at most this size (it looks at 256 px). */
const DETECT_SIDE = 512;
/** Face crops reach mesh (192 px) and descriptor (224 px) models at most this size. */
const ANALYSIS_SIDE = 480;

/** Distance between two descriptors (Euclidean, descriptors L2-normalised: 0 identical … 2 opposite). */
export function faceDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/**
 * Measured on the Human sample photos (faces.test.ts): one face mirrored and rescaled 0.28–0.50, five different
 * people 0.77–1.18 apart. Two different photos of one person land between, so treat this as a first cut.
 */
export const SAME_PERSON_DISTANCE = 0.6;

function tileSize(image: RgbImage, minFaceSize: number): number {
  const longSide = Math.max(image.width, image.height);
  return Math.min(longSide, Math.max(MIN_TILE, Math.round(minFaceSize / FACE_TO_TILE)));
}

function tileStarts(length: number, tile: number): number[] {
  if (tile >= length) return [0];
  const stride = Math.max(1, Math.floor(tile * (1 - TILE_OVERLAP)));
  const starts: number[] = [];
  for (let s = 0; s + tile < length; s += stride) starts.push(s);
  starts.push(length - tile);
  return starts;
}

interface Candidate extends Box {
  score: number;
}

function overlapOfSmaller(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

function mergeCandidates(candidates: Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  for (const c of [...candidates].sort((a, b) => b.score - a.score)) {
    if (kept.every((k) => overlapOfSmaller(k, c) < SAME_FACE_OVERLAP)) kept.push(c);
  }
  return kept;
}

const FACE_CONFIG_BOXES = {
  face: { mesh: { enabled: false }, iris: { enabled: false }, description: { enabled: false } },
};
const FACE_CONFIG_FULL = {
  face: { mesh: { enabled: true }, iris: { enabled: true }, description: { enabled: true } },
};

/**
 * A region of the photo as a tensor at most `maxSide` on its long side (the models look at 256 px or less, and
 * a small tensor keeps the WASM heap small), padded right or bottom to `square` when asked: BlazeFace stretches
 * its input to a square, so oblong tiles would squash faces.
 */
async function regionTensor(
  image: RgbImage,
  region: Box,
  maxSide: number,
  square: boolean,
): Promise<{ tensor: tf.Tensor3D; scale: number }> {
  const scale = Math.min(1, maxSide / Math.max(region.width, region.height));
  const width = Math.max(1, Math.round(region.width * scale));
  const height = Math.max(1, Math.round(region.height * scale));
  const side = square ? Math.max(width, height) : 0;
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
    .resize(width, height, { fit: 'fill' });
  if (square) pipeline = pipeline.extend({ right: side - width, bottom: side - height, background: '#000' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { tensor: tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32'), scale };
}

async function findBoxes(rt: VisionRuntime, image: RgbImage, tile: number): Promise<Candidate[]> {
  const tileW = Math.min(tile, image.width);
  const tileH = Math.min(tile, image.height);
  const found: Candidate[] = [];
  for (const y of tileStarts(image.height, tileH)) {
    for (const x of tileStarts(image.width, tileW)) {
      const { tensor, scale } = await regionTensor(
        image,
        { x, y, width: tileW, height: tileH },
        DETECT_SIDE,
        true,
      );
      try {
        const result = await rt.human.detect(tensor, FACE_CONFIG_BOXES);
        for (const f of result.face) {
          const [bx, by, bw, bh] = f.box;
          found.push({
            x: x + bx / scale,
            y: y + by / scale,
            width: bw / scale,
            height: bh / scale,
            score: f.boxScore,
          });
        }
      } finally {
        tensor.dispose();
      }
    }
  }
  return mergeCandidates(found);
}

/** Bounds of points given in a region's tensor (offset dx, dy; scale k), in photo pixels. */
function bounds(points: Point[], dx: number, dy: number, k: number): Box {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  return { x: dx + minX / k, y: dy + minY / k, width: (maxX - minX) / k, height: (maxY - minY) / k };
}

function normalised(values: number[]): Float32Array {
  const out = Float32Array.from(values);
  let norm = 0;
  for (const v of out) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

function toFace(f: FaceResult, dx: number, dy: number, k: number): Face | null {
  const a = f.annotations;
  if (!f.embedding || f.embedding.length === 0 || f.mesh.length < 468) return null;
  const eyeA = bounds([...a.rightEyeUpper0, ...a.rightEyeLower0], dx, dy, k);
  const eyeB = bounds([...a.leftEyeUpper0, ...a.leftEyeLower0], dx, dy, k);
  const [leftEye, rightEye] = eyeA.x <= eyeB.x ? [eyeA, eyeB] : [eyeB, eyeA];
  const angle = f.rotation?.angle;
  return {
    box: bounds(f.mesh.slice(0, 468), dx, dy, k),
    score: f.score,
    landmarks: f.mesh.map(([x, y, z]) => [dx + x / k, dy + y / k, (z ?? 0) / k]),
    descriptor: normalised(f.embedding),
    mouth: bounds([...a.lipsUpperOuter, ...a.lipsLowerOuter], dx, dy, k),
    leftEye,
    rightEye,
    rotation: angle ? { roll: angle.roll, yaw: angle.yaw, pitch: angle.pitch } : null,
  };
}

async function analyse(rt: VisionRuntime, image: RgbImage, c: Candidate): Promise<Face | null> {
  const side = Math.round(Math.max(c.width, c.height) * ANALYSIS_CONTEXT);
  const cx = c.x + c.width / 2;
  const cy = c.y + c.height / 2;
  const x0 = Math.max(0, Math.round(cx - side / 2));
  const y0 = Math.max(0, Math.round(cy - side / 2));
  const x1 = Math.min(image.width, Math.round(cx + side / 2));
  const y1 = Math.min(image.height, Math.round(cy + side / 2));
  const { tensor, scale } = await regionTensor(
    image,
    { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    ANALYSIS_SIDE,
    false,
  );
  try {
    const result = await rt.human.detect(tensor, FACE_CONFIG_FULL);
    // The crop may show neighbours too: keep the face that is the candidate.
    let best: FaceResult | null = null;
    let bestOverlap = 0.3;
    for (const f of result.face) {
      const [bx, by, bw, bh] = f.box;
      const overlap = overlapOfSmaller(c, {
        x: x0 + bx / scale,
        y: y0 + by / scale,
        width: bw / scale,
        height: bh / scale,
      });
      if (overlap > bestOverlap) {
        best = f;
        bestOverlap = overlap;
      }
    }
    return best ? toFace(best, x0, y0, scale) : null;
  } finally {
    tensor.dispose();
  }
}

/** Faces in a photo (file path or raw RGB/RGBA pixels), largest first. */
export async function detectFaces(input: ImageInput, options: DetectFacesOptions = {}): Promise<Face[]> {
  const image = await decodeRgb(input);
  const rt = await faceRuntime();
  const minFaceSize = options.minFaceSize ?? Math.min(image.width, image.height) * FACE_TO_TILE;
  return runExclusive(async () => {
    const candidates = await findBoxes(rt, image, tileSize(image, minFaceSize));
    candidates.sort((a, b) => b.width * b.height - a.width * a.height);
    const faces: Face[] = [];
    for (const c of candidates.slice(0, options.maxFaces ?? DEFAULT_MAX_FACES)) {
      const face = await analyse(rt, image, c);
      if (face && faces.every((f) => overlapOfSmaller(f.box, face.box) < SAME_FACE_OVERLAP)) faces.push(face);
    }
    return faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  });
}
