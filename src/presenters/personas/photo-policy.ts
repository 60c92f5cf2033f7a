// The local photo policy for presenters (docs/presenters.md): which photos may become a persona or a look, or
// be animated directly. It judges the faces the vision module found in the normalised photo (EXIF-rotated, at
// most PHOTO_LONG_SIDE px): exactly one usable face, large enough to animate, not a minor's as far as the
// local model can tell, and photographed rather than drawn. Every refusal names its rule.
import sharp from 'sharp';
import type { Box, Face, RawImage } from '../../media/vision/index.ts';
import { errors } from '../../platform/errors.ts';

/** Photos are analysed and stored at most this long on their long side. */
export const PHOTO_LONG_SIDE = 2048;
/** The face (brow to chin) must be at least this share of the photo's height … */
export const MIN_FACE_HEIGHT_SHARE = 0.12;
/** … and at least this many pixels tall: below it the mouth and eyes are too few pixels to animate. */
export const MIN_FACE_HEIGHT_PX = 128;
/** Another face at least this share of the main face's height makes the photo ambiguous. */
export const RIVAL_FACE_SHARE = 0.5;
/** Faces whose apparent age is under this are refused. */
export const MIN_APPARENT_AGE = 18;
/**
 * A face region with at least this share of perfectly flat pixels is drawn, not photographed. Measured on the
 * face box at 96×96 (clipped black and white left out): 0.001–0.014 on ten real photos of seven people,
 * re-encoded as JPEG at quality 70 or blurred too; 0.06–0.35 on the same photos turned into flat 8- and
 * 16-colour graphics, PNG or JPEG.
 */
export const MAX_FLAT_FACE_SHARE = 0.05;
/** FaceRes' gender confidence from which it suggests the default voice (bench/vision: 99 % of genders right; at this confidence, 96 % of faces and all of them right). */
export const VOICE_GENDER_MIN_SCORE = 0.5;

export type PhotoRefusal =
  | { reason: 'no_face' }
  | { reason: 'several_faces'; faces: number }
  | { reason: 'face_too_small'; face_height_px: number; min_face_height_px: number }
  | { reason: 'blocked'; rule: 'minor' | 'not_photographic' };

/** The policy as the documentation and the refusals state it, one rule per reason. */
export const PHOTO_POLICY: readonly { reason: string; rule: string }[] = [
  {
    reason: 'no_face',
    rule: 'The photo must show a face, clearly visible and turned towards the camera.',
  },
  {
    reason: 'several_faces',
    rule: `Exactly one person: another face at least ${RIVAL_FACE_SHARE * 100} % as tall as the main one makes the photo ambiguous. Faces far smaller, such as people far in the background, are ignored.`,
  },
  {
    reason: 'face_too_small',
    rule: `The face (brow to chin) must be at least ${MIN_FACE_HEIGHT_SHARE * 100} % of the photo's height and at least ${MIN_FACE_HEIGHT_PX} pixels tall, measured after EXIF rotation and scaling to at most ${PHOTO_LONG_SIDE} pixels on the long side.`,
  },
  {
    reason: 'blocked: minor',
    rule: `No minors: a face the local face model estimates to be under ${MIN_APPARENT_AGE} is refused. The estimate is coarse; it stops photos of children, not borderline ages.`,
  },
  {
    reason: 'blocked: not_photographic',
    rule: 'A real photograph: a face drawn as a flat graphic (an illustration, clip art, a cartoon in flat colours) is refused.',
  },
];

function largestFirst(faces: Face[]): Face[] {
  return [...faces].sort((a, b) => b.box.height - a.box.height);
}

/** The one face a photo may be animated from, or why there is none. Pure: `faces` as detectFaces found them. */
export function judgeFaces(
  faces: Face[],
  photo: { width: number; height: number },
): { face: Face } | { refusal: PhotoRefusal } {
  const [main, ...others] = largestFirst(faces);
  if (!main) return { refusal: { reason: 'no_face' } };
  const rivals = others.filter((f) => f.box.height >= main.box.height * RIVAL_FACE_SHARE);
  if (rivals.length > 0) return { refusal: { reason: 'several_faces', faces: rivals.length + 1 } };
  const minHeight = Math.max(MIN_FACE_HEIGHT_PX, Math.ceil(photo.height * MIN_FACE_HEIGHT_SHARE));
  if (main.box.height < minHeight) {
    return {
      refusal: {
        reason: 'face_too_small',
        face_height_px: Math.round(main.box.height),
        min_face_height_px: minHeight,
      },
    };
  }
  if (main.age !== undefined && main.age < MIN_APPARENT_AGE)
    return { refusal: { reason: 'blocked', rule: 'minor' } };
  return { face: main };
}

const FLAT_SIDE = 96;
/** Greyscale levels at or beyond these are clipped: flat in photographs too (blown highlights, crushed shadows). */
const CLIPPED_LOW = 8;
const CLIPPED_HIGH = 247;

/** Share of the face box's unclipped pixels whose four neighbours have exactly their value (at 96×96). */
export async function flatFaceShare(photo: RawImage, box: Box): Promise<number> {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const width = Math.max(1, Math.min(photo.width - left, Math.ceil(box.width)));
  const height = Math.max(1, Math.min(photo.height - top, Math.ceil(box.height)));
  const channels = photo.data.length / (photo.width * photo.height) === 4 ? 4 : 3;
  const grey = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels } })
    .extract({ left, top, width, height })
    .resize(FLAT_SIDE, FLAT_SIDE, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  let flat = 0;
  let counted = 0;
  for (let y = 1; y < FLAT_SIDE - 1; y++) {
    for (let x = 1; x < FLAT_SIDE - 1; x++) {
      const i = y * FLAT_SIDE + x;
      const v = grey[i]!;
      if (v < CLIPPED_LOW || v > CLIPPED_HIGH) continue;
      counted++;
      if (grey[i - 1] === v && grey[i + 1] === v && grey[i - FLAT_SIDE] === v && grey[i + FLAT_SIDE] === v)
        flat++;
    }
  }
  return counted === 0 ? 1 : flat / counted;
}

/** The photo policy's verdict on the chosen face's pixels: drawn faces are refused. */
export async function judgePhotographic(photo: RawImage, face: Face): Promise<PhotoRefusal | null> {
  return (await flatFaceShare(photo, face.box)) >= MAX_FLAT_FACE_SHARE
    ? { reason: 'blocked', rule: 'not_photographic' }
    : null;
}

/** The voice gender FaceRes suggests for this face, when it is confident enough. */
export function suggestedVoiceGender(
  face: Pick<Face, 'gender' | 'genderScore'>,
): 'female' | 'male' | undefined {
  return face.gender !== undefined && (face.genderScore ?? 0) >= VOICE_GENDER_MIN_SCORE
    ? face.gender
    : undefined;
}

function refusalMessage(refusal: PhotoRefusal): string {
  switch (refusal.reason) {
    case 'no_face':
      return `No face was found in the photo. Send a photo of one person with the face clearly visible, at least ${MIN_FACE_HEIGHT_SHARE * 100} % of the photo's height.`;
    case 'several_faces':
      return `The photo shows ${refusal.faces} faces of similar size. Send a photo of one person only.`;
    case 'face_too_small':
      return `The face is ${refusal.face_height_px} px tall; it must be at least ${refusal.min_face_height_px} px (${MIN_FACE_HEIGHT_SHARE * 100} % of the photo's height and at least ${MIN_FACE_HEIGHT_PX} px). Send a closer photo.`;
    case 'blocked':
      return refusal.rule === 'minor'
        ? 'The photo was blocked by the content policy: the face appears to be a minor’s.'
        : 'The photo was blocked by the content policy: the face is a drawing or flat graphic, not a photograph.';
  }
}

/** The 422 PHOTO_REJECTED answer of a refusal, its details naming the rule. */
export function photoRefusalError(refusal: PhotoRefusal) {
  return errors.photoRejected(refusalMessage(refusal), { ...refusal });
}
