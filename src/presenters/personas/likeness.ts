// A persona's likeness from one photo: fetched through the URL guard, checked as a JPG or PNG of sensible size
// (free 400s, before anything is charged), normalised (EXIF rotation, at most PHOTO_LONG_SIDE px), judged by
// the photo policy, and stored: the photo and the person's cut-out mask in the media store, the face's box,
// landmarks, regions and descriptor for the database.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import {
  detectFaces,
  segmentPerson,
  type Face,
  type PersonMask,
  type RawImage,
} from '../../media/vision/index.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import {
  judgeFaces,
  judgePhotographic,
  photoRefusalError,
  PHOTO_LONG_SIDE,
  type PhotoRefusal,
} from './photo-policy.ts';

export const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
export const PHOTO_MIN_SIDE = 256;
export const PHOTO_MAX_SIDE = 8192;
const FETCH_TIMEOUT_MS = 30_000;
/**
 * When the first search finds no face, a second one looks for faces down to this share of the shorter side,
 * only to tell "too small" from "none": it searches many small tiles, and small tiles miss large faces.
 */
const SMALL_FACE_SEARCH_SHARE = 0.05;
const SMALL_FACE_SEARCH_MIN_PX = 40;
const JPEG_QUALITY = 92;

export interface FetchedPhoto {
  path: string;
  format: 'jpeg' | 'png';
  /** Size as displayed (EXIF orientation applied). */
  width: number;
  height: number;
}

/**
 * Downloads `url` into `dir` and checks it is a JPG or PNG whose sides are PHOTO_MIN_SIDE–PHOTO_MAX_SIDE px.
 * Every failure is a free 400 INPUT_INVALID naming `field`.
 */
export async function fetchPhoto(
  urlGuard: UrlGuard,
  url: string,
  dir: string,
  options: { field?: string; signal?: AbortSignal } = {},
): Promise<FetchedPhoto> {
  const field = options.field ?? 'image_url';
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'source-photo');
  try {
    await urlGuard.download(url, path, {
      maxBytes: PHOTO_MAX_BYTES,
      timeoutMs: FETCH_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof UrlRejectedError)
      throw invalidInputError([{ field, message: `could not be fetched: ${error.message}` }]);
    throw error;
  }
  let meta: Metadata;
  try {
    meta = await sharp(path).metadata();
  } catch {
    throw invalidInputError([{ field, message: 'is not a readable image (send a JPG or PNG photo)' }]);
  }
  const format = meta.format;
  if (format !== 'jpeg' && format !== 'png')
    throw invalidInputError([
      { field, message: `is a ${format ?? 'unknown'} image; send a JPG or PNG photo` },
    ]);
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (Math.min(width, height) < PHOTO_MIN_SIDE || Math.max(width, height) > PHOTO_MAX_SIDE)
    throw invalidInputError([
      {
        field,
        message: `is ${width}×${height} px; send a photo whose sides are ${PHOTO_MIN_SIDE}-${PHOTO_MAX_SIDE} px`,
      },
    ]);
  return { path, format, width, height };
}

/** The photo as it is analysed and stored: EXIF-rotated, at most PHOTO_LONG_SIDE px, on white where transparent. */
export async function normalisePhoto(path: string): Promise<RawImage> {
  const { data, info } = await sharp(path)
    .rotate()
    .resize({ width: PHOTO_LONG_SIDE, height: PHOTO_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

export interface AnalysedPhoto {
  photo: RawImage;
  face: Face;
  /** The person cut out (null when the segmentation finds no person worth cutting out). */
  mask: PersonMask | null;
  /** Wall time of face detection and policy, and of segmentation. */
  timings: { facesMs: number; segmentMs: number };
}

/** Thrown when the photo policy refuses a photo; `error` is its 422 answer. */
export class PhotoRefusedError extends Error {
  constructor(readonly refusal: PhotoRefusal) {
    super(`photo refused: ${refusal.reason}${'rule' in refusal ? ` (${refusal.rule})` : ''}`);
    this.name = 'PhotoRefusedError';
  }

  get error() {
    return photoRefusalError(this.refusal);
  }
}

/** Finds the one face the policy accepts (else throws PhotoRefusedError) and cuts the person out. */
export async function analysePhoto(photo: RawImage): Promise<AnalysedPhoto> {
  const started = performance.now();
  let faces = await detectFaces(photo);
  if (faces.length === 0) {
    const shorter = Math.min(photo.width, photo.height);
    faces = await detectFaces(photo, {
      minFaceSize: Math.max(SMALL_FACE_SEARCH_MIN_PX, Math.round(shorter * SMALL_FACE_SEARCH_SHARE)),
    });
  }
  const judged = judgeFaces(faces, photo);
  if ('refusal' in judged) throw new PhotoRefusedError(judged.refusal);
  const drawn = await judgePhotographic(photo, judged.face);
  if (drawn) throw new PhotoRefusedError(drawn);
  const facesMs = performance.now() - started;
  const mask = await segmentPerson(photo);
  return {
    photo,
    face: judged.face,
    mask,
    timings: { facesMs, segmentMs: performance.now() - started - facesMs },
  };
}

export interface StoredLikeness {
  photoKey: string;
  maskKey: string | null;
}

/** Writes the normalised photo (JPEG) and the person mask (greyscale PNG) under `prefix` in the media store. */
export async function storeLikeness(
  store: MediaStore,
  prefix: string,
  analysed: AnalysedPhoto,
  scratchDir: string,
): Promise<StoredLikeness> {
  await mkdir(scratchDir, { recursive: true });
  const dir = await mkdtemp(join(scratchDir, 'likeness-'));
  try {
    const { photo, mask } = analysed;
    const photoPath = join(dir, 'photo.jpg');
    await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
      .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' })
      .toFile(photoPath);
    const photoKey = `${prefix}/photo.jpg`;
    await store.put(photoKey, photoPath, { move: true });
    if (!mask) return { photoKey, maskKey: null };
    const maskPath = join(dir, 'person-mask.png');
    await sharp(mask.mask, { raw: { width: mask.width, height: mask.height, channels: 1 } })
      .toColourspace('b-w')
      .png()
      .toFile(maskPath);
    const maskKey = `${prefix}/person-mask.png`;
    await store.put(maskKey, maskPath, { move: true });
    return { photoKey, maskKey };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
