// Faces in a photo: BlazeFace boxes, a 478-point FaceMesh (468 mesh + 10 iris points), a FaceRes identity
// descriptor with apparent age and gender, and the mouth and eye regions, all in the photo's pixel coordinates.
//
// BlazeFace looks at a 256x256 picture, so a small face in a large photo vanishes. The photo is therefore
// searched in overlapping square tiles sized from the smallest face asked for, the boxes merged, and each face
// then analysed on a crop centred on it (so the mesh sees it whole, whichever tile found it).
//
// FaceRes runs here rather than inside Human: Human feeds it a loosely rotated box as RGB 0–255, while its
// authors (HSE_FaceRec_tf) feed BGR minus the ImageNet channel means. Given that, on the face aligned by its
// eyes, nose and mouth corners, it tells people apart far better (bench/vision/descriptors.ts): other photos
// of one man 0.41–0.96 from each other (0.53–1.08 before), different people 0.91 and more (0.77 before); its
// apparent gender is right more often, and no adult reads as a minor.
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { FaceResult, Point } from '@vladmandic/human';
import sharp from 'sharp';
import { decodeRgb, type ImageInput, type RgbImage } from './image-input.ts';
import { faceDescriptionModel, faceRuntime, runExclusive, tf, type VisionRuntime } from './runtime.ts';

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
  /** L2-normalised 1024-value FaceRes descriptor of the aligned face; compare with faceDistance. */
  descriptor: Float32Array;
  /** Outer lip contour bounds. */
  mouth: Box;
  /** Eye (lid contour) bounds; left and right as seen in the picture. */
  leftEye: Box;
  rightEye: Box;
  /** Head rotation in radians when the mesh allows it. */
  rotation: { roll: number; yaw: number; pitch: number } | null;
  /** Apparent age in years, estimated by FaceRes with the descriptor: coarse (see bench/vision/descriptors.ts). */
  age?: number;
  /** Apparent gender by FaceRes, when it leans either way; genderScore is its confidence 0–1. */
  gender?: 'female' | 'male';
  genderScore?: number;
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
/** Face crops reach the mesh (192 px) at most this size. */
const ANALYSIS_SIDE = 480;

export { faceDistance, SAME_PERSON_DISTANCE } from './face-distance.ts';

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
  face: { mesh: { enabled: true }, iris: { enabled: true }, description: { enabled: false } },
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

function normalised(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let norm = 0;
  for (const v of out) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

type FaceGeometry = Omit<Face, 'descriptor' | 'age' | 'gender' | 'genderScore'>;

function toGeometry(f: FaceResult, dx: number, dy: number, k: number): FaceGeometry | null {
  const a = f.annotations;
  if (f.mesh.length < 468) return null;
  const eyeA = bounds([...a.rightEyeUpper0, ...a.rightEyeLower0], dx, dy, k);
  const eyeB = bounds([...a.leftEyeUpper0, ...a.leftEyeLower0], dx, dy, k);
  const [leftEye, rightEye] = eyeA.x <= eyeB.x ? [eyeA, eyeB] : [eyeB, eyeA];
  const angle = f.rotation?.angle;
  return {
    box: bounds(f.mesh.slice(0, 468), dx, dy, k),
    score: f.score,
    landmarks: f.mesh.map(([x, y, z]) => [dx + x / k, dy + y / k, (z ?? 0) / k]),
    mouth: bounds([...a.lipsUpperOuter, ...a.lipsLowerOuter], dx, dy, k),
    leftEye,
    rightEye,
    rotation: angle ? { roll: angle.roll, yaw: angle.yaw, pitch: angle.pitch } : null,
  };
}

/**
 * ArcFace's reference points in a 112x112 face crop (as seen: left eye, right eye, nose tip, left and right
 * mouth corner): the common alignment of face-recognition crops.
 */
const REFERENCE_POINTS: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];
const REFERENCE_SIDE = 112;

/** The five points from the mesh: each eye as the middle of its corners (steadier than the iris, which follows the gaze). */
function alignmentPoints(landmarks: readonly (readonly number[])[]): [number, number][] {
  const mid = (i: number, j: number): [number, number] => [
    (landmarks[i]![0]! + landmarks[j]![0]!) / 2,
    (landmarks[i]![1]! + landmarks[j]![1]!) / 2,
  ];
  const at = (i: number): [number, number] => [landmarks[i]![0]!, landmarks[i]![1]!];
  return [mid(33, 133), mid(263, 362), at(1), at(61), at(291)];
}

/** Least-squares similarity (rotation, uniform scale, shift) taking `from` onto `to`: x' = a x - b y + tx, y' = b x + a y + ty. */
function similarity(from: [number, number][], to: [number, number][]) {
  const n = from.length;
  const mean = (pts: [number, number][], k: 0 | 1) => pts.reduce((sum, p) => sum + p[k], 0) / n;
  const [fx, fy, tx, ty] = [mean(from, 0), mean(from, 1), mean(to, 0), mean(to, 1)];
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const [px, py] = [from[i]![0] - fx, from[i]![1] - fy];
    const [qx, qy] = [to[i]![0] - tx, to[i]![1] - ty];
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

/**
 * The face turned upright and scaled so its eyes, nose and mouth corners sit on the reference points, as a
 * `side`-pixel square of float RGB 0–255. `zoom` above 1 shows more around the face (the reference points
 * drawn together about the centre). The photo is first cut around the face and brought near the output's
 * scale by sharp, so the bilinear warp never skips pixels of a large face.
 */
export async function alignFace(
  image: RgbImage,
  landmarks: readonly (readonly number[])[],
  side: number,
  zoom = 1,
): Promise<tf.Tensor4D> {
  const k = side / REFERENCE_SIDE;
  const target = REFERENCE_POINTS.map(([x, y]): [number, number] => [
    ((x - REFERENCE_SIDE / 2) * k) / zoom + side / 2,
    ((y - REFERENCE_SIDE / 2) * k) / zoom + side / 2,
  ]);
  const { a, b, tx, ty } = similarity(alignmentPoints(landmarks), target);
  const d = a * a + b * b;
  // Output pixel (x, y) comes from photo pixel (ia x + ib y + ic, -ib x + ia y + if).
  const [ia, ib] = [a / d, b / d];
  const ic = -(a * tx + b * ty) / d;
  const iff = (b * tx - a * ty) / d;
  const corners = [
    [0, 0],
    [side, 0],
    [0, side],
    [side, side],
  ].map(([x, y]) => [ia * x! + ib * y! + ic, -ib * x! + ia * y! + iff] as const);
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0])) - 1));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1])) - 1));
  const x1 = Math.min(image.width, Math.ceil(Math.max(...corners.map((c) => c[0])) + 1));
  const y1 = Math.min(image.height, Math.ceil(Math.max(...corners.map((c) => c[1])) + 1));
  if (x1 - x0 < 2 || y1 - y0 < 2) throw new Error('face lies outside the photo');
  const shrink = Math.min(1, Math.sqrt(d));
  const width = Math.max(2, Math.round((x1 - x0) * shrink));
  const height = Math.max(2, Math.round((y1 - y0) * shrink));
  const { data } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [rx, ry] = [width / (x1 - x0), height / (y1 - y0)];
  return tf.tidy(() => {
    const crop = tf.tensor4d(new Float32Array(data), [1, height, width, 3]);
    const matrix = [ia * rx, ib * rx, (ic - x0) * rx, -ib * ry, ia * ry, (iff - y0) * ry, 0, 0];
    return tf.image.transform(crop, tf.tensor2d([matrix]), 'bilinear', 'nearest', 0, [side, side]);
  });
}

/** FaceRes' input: 224 px, the aligned face with a quarter more around it (its training crops had a margin). */
const DESCRIPTION_SIDE = 224;
const DESCRIPTION_ZOOM = 1.25;
/** Its authors' normalisation: BGR channels minus these means (Caffe's ImageNet preprocessing). */
const DESCRIPTION_MEAN_BGR = [103.939, 116.779, 123.68];

/**
 * FaceRes on the aligned face: the 1024-value identity descriptor (its global pooling), apparent age (its 100
 * one-year bins, read as its authors do from the two likeliest) and gender (a sigmoid, male above 0.5).
 */
async function describe(
  model: GraphModel,
  image: RgbImage,
  landmarks: Face['landmarks'],
): Promise<Pick<Face, 'descriptor' | 'age' | 'gender' | 'genderScore'>> {
  const aligned = await alignFace(image, landmarks, DESCRIPTION_SIDE, DESCRIPTION_ZOOM);
  const input = tf.tidy(() => tf.sub(tf.reverse(aligned, 3), tf.tensor1d(DESCRIPTION_MEAN_BGR)));
  aligned.dispose();
  const outputs = model.execute(input) as tf.Tensor[];
  input.dispose();
  try {
    const output = (width: number) => {
      const t = outputs.find((o) => o.shape[1] === width);
      if (!t) throw new Error(`face description model has no output of width ${width}`);
      return t.data();
    };
    const [features, ages, [male]] = await Promise.all([output(1024), output(100), output(1)]);
    const [first, second] = [...ages.keys()].sort((i, j) => ages[j]! - ages[i]!);
    const [p1, p2] = [ages[first!]!, ages[second!]!];
    const age = 1 + (first! * p1 + second! * p2) / (p1 + p2 || 1);
    const genderScore = Math.abs(2 * male! - 1);
    return {
      descriptor: normalised(features),
      age: Math.round(age * 10) / 10,
      ...(genderScore > 0 ? { gender: male! > 0.5 ? 'male' : 'female', genderScore } : {}),
    };
  } finally {
    tf.dispose(outputs);
  }
}

async function analyse(
  rt: VisionRuntime,
  describer: GraphModel,
  image: RgbImage,
  c: Candidate,
): Promise<Face | null> {
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
    const geometry = best ? toGeometry(best, x0, y0, scale) : null;
    return geometry ? { ...geometry, ...(await describe(describer, image, geometry.landmarks)) } : null;
  } finally {
    tensor.dispose();
  }
}

/** Faces in a photo (file path or raw RGB/RGBA pixels), largest first. */
export async function detectFaces(input: ImageInput, options: DetectFacesOptions = {}): Promise<Face[]> {
  const image = await decodeRgb(input);
  const rt = await faceRuntime();
  const describer = await faceDescriptionModel();
  const minFaceSize = options.minFaceSize ?? Math.min(image.width, image.height) * FACE_TO_TILE;
  return runExclusive(async () => {
    const candidates = await findBoxes(rt, image, tileSize(image, minFaceSize));
    candidates.sort((a, b) => b.width * b.height - a.width * a.height);
    const faces: Face[] = [];
    for (const c of candidates.slice(0, options.maxFaces ?? DEFAULT_MAX_FACES)) {
      const face = await analyse(rt, describer, image, c);
      if (face && faces.every((f) => overlapOfSmaller(f.box, face.box) < SAME_FACE_OVERLAP)) faces.push(face);
    }
    return faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  });
}
