// The base written by libvips and the regions read from it for the patches: the same pixels either way.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { cutToFile, FACE_DETECT_SCREENSHOT, FIVE_PEOPLE } from '../../../test/support/sample-photos.ts';
import { detectFaces, type Face } from '../vision/faces.ts';
import { loadPhoto, renderBase, type BaseImage } from './base-image.ts';
import { eyesGeometry, renderEyes } from './eye-shapes.ts';
import { planFraming } from './framing.ts';
import { mapLandmarks } from './landmarks.ts';
import { mouthGeometry, mouthTone, renderMouth } from './mouth-shapes.ts';
import { edgeBlur, type Rect, type RgbaRegion } from './pixels.ts';
import { MOUTH_SHAPES } from './visemes.ts';

let dir = '';
let photoPath = '';
let face: Face;
const FRAME = { width: 576, height: 1024, fps: 30 };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'base-image-'));
  photoPath = await cutToFile(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!, dir, 'man', { width: 600 });
  const [found] = await detectFaces(photoPath);
  assert.ok(found);
  face = found;
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function base(personMask?: string): Promise<BaseImage> {
  const photo = await loadPhoto(photoPath, personMask);
  return renderBase(photo, planFraming(photo, face.box, FRAME));
}

function crop(image: RgbaRegion, rect: Rect): Uint8Array {
  const out = new Uint8Array(rect.width * rect.height * 4);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.y - image.y + y) * image.width + rect.x - image.x) * 4;
    out.set(image.data.subarray(from, from + rect.width * 4), y * rect.width * 4);
  }
  return out;
}

for (const masked of [false, true]) {
  test(`${masked ? 'cut out' : 'with the blurred fill'}: the PNG and the regions read hold the same pixels`, async () => {
    let mask: string | undefined;
    if (masked) {
      // The photo's right half is the person.
      const { width, height } = await sharp(photoPath).metadata();
      mask = join(dir, 'mask.png');
      const half = Buffer.alloc(width * height);
      for (let y = 0; y < height; y++) half.fill(255, y * width + (width >> 1), (y + 1) * width);
      await sharp(half, { raw: { width, height, channels: 1 } })
        .png()
        .toFile(mask);
    }
    const image = await base(mask);
    const file = join(dir, `base-${masked}.png`);
    await image.writePng(file);
    const { data, info } = await sharp(file).ensureAlpha(1).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [image.width, image.height]);
    assert.equal((await sharp(file).metadata()).hasAlpha, masked);
    const whole: RgbaRegion = { data, width: info.width, height: info.height, x: 0, y: 0 };
    // The fill shows at the frame's bottom (the photo ends above it); a cut-out is transparent there.
    const corner = (info.height - 1) * info.width * 4;
    assert.equal(data[corner + 3], masked ? 0 : 255);
    if (!masked) assert.ok(data[corner]! + data[corner + 1]! + data[corner + 2]! > 0);
    // Regions across the photo's edge, at the base's corner and clipped by it.
    for (const rect of [
      { x: 37, y: 401, width: 300, height: 250 },
      { x: 0, y: image.height - 40, width: 64, height: 40 },
      { x: image.width - 50, y: -20, width: 90, height: 70 },
    ]) {
      const region = await image.read(rect);
      assert.ok(region.x >= 0 && region.y >= 0 && region.x + region.width <= image.width);
      assert.deepEqual(region.data, crop(whole, region), JSON.stringify(rect));
    }
  });
}

test('the mouth and eye patches made from their source regions equal those made from the whole base', async () => {
  const image = await base();
  const whole = await image.read({ x: 0, y: 0, width: image.width, height: image.height });
  const points = mapLandmarks(face, image.toBase);
  const mouth = mouthGeometry(points, image);
  const mouthSource = await image.read(mouth.source);
  const blur = edgeBlur(mouthSource, mouth.patch);
  assert.equal(blur, edgeBlur(whole, mouth.patch));
  const tone = mouthTone(mouthSource, mouth);
  assert.deepEqual(tone, mouthTone(whole, mouth));
  for (const shape of Object.values(MOUTH_SHAPES)) {
    assert.deepEqual(
      renderMouth(mouthSource, mouth, shape, tone, blur).data,
      renderMouth(whole, mouth, shape, tone, blur).data,
    );
  }
  const eyes = eyesGeometry(points, image, blur);
  const eyeSource = await image.read(eyes.source);
  assert.deepEqual(renderEyes(eyeSource, eyes, 1, blur).data, renderEyes(whole, eyes, 1, blur).data);
});
