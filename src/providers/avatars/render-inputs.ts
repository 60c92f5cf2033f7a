// The two files a talking-photo provider receives, prepared the same way for every provider:
// - the photo, upright (EXIF orientation applied), cropped to the delivery aspect ratio and at most the delivery
//   frame, as JPEG: both providers take JPEG, and D-ID's animated result keeps the source frame, so the frame is
//   decided here once instead of by each provider. The crop is framed on the face when its box is known (a
//   persona), else on sharp's "attention" region (skin tones, detail), which holds the face in most portraits.
// - the narration as mono 128 kb/s MP3: both take MP3, and two minutes of it stays far below D-ID's 6 MB audio
//   upload limit, which a WAV of the same speech would not.

import { join } from 'node:path';
import sharp from 'sharp';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import type { FaceBox, TalkingPhotoAspectRatio } from './talking-photo.ts';

export interface PreparedUpload {
  path: string;
  fileName: string;
  contentType: string;
}

/** The largest frame uploaded per aspect ratio: the 1080p delivery frame. */
const MAX_FRAME: Record<TalkingPhotoAspectRatio, { width: number; height: number }> = {
  '9:16': { width: 1080, height: 1920 },
  '16:9': { width: 1920, height: 1080 },
  '1:1': { width: 1080, height: 1080 },
};

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The largest region of a width × height picture with the aspect ratio. */
function cropSize(width: number, height: number, aspectRatio: TalkingPhotoAspectRatio) {
  const max = MAX_FRAME[aspectRatio];
  const ratio = max.width / max.height;
  const cropWidth = width / height > ratio ? height * ratio : width;
  return { width: cropWidth, height: Math.min(height, cropWidth / ratio), maxWidth: max.width };
}

/** The crop of a width × height picture to the aspect ratio, scaled down (never up) to the delivery frame. */
export function photoFrame(
  width: number,
  height: number,
  aspectRatio: TalkingPhotoAspectRatio,
): { width: number; height: number } {
  const crop = cropSize(width, height, aspectRatio);
  const scale = Math.min(1, crop.maxWidth / crop.width);
  return { width: even(crop.width * scale), height: even(crop.height * scale) };
}

/**
 * The region framing a known face: centred on it across, its centre 40 % down the frame (the headroom a
 * presenter shot leaves), moved inside the picture where the face sits near an edge.
 */
export function faceRegion(
  width: number,
  height: number,
  aspectRatio: TalkingPhotoAspectRatio,
  face: FaceBox,
): FaceBox {
  const crop = cropSize(width, height, aspectRatio);
  const cropWidth = Math.max(1, Math.floor(crop.width));
  const cropHeight = Math.max(1, Math.floor(crop.height));
  const place = (at: number, room: number) => Math.max(0, Math.min(room, Math.round(at)));
  return {
    left: place(face.left + face.width / 2 - cropWidth / 2, width - cropWidth),
    top: place(face.top + face.height / 2 - cropHeight * 0.4, height - cropHeight),
    width: cropWidth,
    height: cropHeight,
  };
}

export async function preparePhoto(
  photoPath: string,
  aspectRatio: TalkingPhotoAspectRatio,
  workDir: string,
  face?: FaceBox,
): Promise<PreparedUpload> {
  const path = join(workDir, 'talking-photo-source.jpg');
  const { autoOrient } = await sharp(photoPath).metadata();
  const frame = photoFrame(autoOrient.width, autoOrient.height, aspectRatio);
  // Orientation first, so the face box and the crop are both in upright pixels.
  let image = sharp(photoPath).autoOrient();
  image = face
    ? image.extract(faceRegion(autoOrient.width, autoOrient.height, aspectRatio, face)).resize(frame)
    : image.resize({ ...frame, fit: 'cover', position: sharp.strategy.attention });
  await image.flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toFile(path);
  return { path, fileName: 'photo.jpg', contentType: 'image/jpeg' };
}

export async function prepareAudio(
  audioPath: string,
  workDir: string,
  signal: AbortSignal,
): Promise<PreparedUpload> {
  const path = join(workDir, 'talking-photo-narration.mp3');
  await runFfmpeg(
    ['-y', '-i', audioPath, '-vn', '-ac', '1', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '128k', path],
    { signal, timeoutMs: 120_000 },
  );
  return { path, fileName: 'narration.mp3', contentType: 'audio/mpeg' };
}
