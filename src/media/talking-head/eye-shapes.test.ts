// Blink patches made from a real photo, measured on their pixels.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cutToFile, FACE_DETECT_SCREENSHOT, FIVE_PEOPLE } from '../../../test/support/sample-photos.ts';
import { detectFaces, type Box } from '../vision/faces.ts';
import { loadPhoto, renderBase } from './base-image.ts';
import { eyesGeometry, renderEyes, type EyesGeometry } from './eye-shapes.ts';
import { planFraming } from './framing.ts';
import { mapLandmarks } from './landmarks.ts';
import { edgeBlur, evenRectInside, type RgbaImage, type RgbaRegion } from './pixels.ts';

let dir = '';
/** The whole base, read as one region. */
let base: RgbaRegion;
let geometry: EyesGeometry;
/** Each eye's lid-contour box in patch pixels. */
let eyeBoxes: Box[] = [];
const patches: Record<'half' | 'closed', RgbaImage> = {} as Record<'half' | 'closed', RgbaImage>;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'eye-shapes-'));
  const photoPath = await cutToFile(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!, dir, 'man', { width: 600 });
  const [face] = await detectFaces(photoPath);
  assert.ok(face);
  const photo = await loadPhoto(photoPath);
  const placed = await renderBase(photo, planFraming(photo, face.box, { width: 576, height: 1024, fps: 30 }));
  base = await placed.read({ x: 0, y: 0, width: placed.width, height: placed.height });
  const points = mapLandmarks(face, placed.toBase);
  // The blur around the eyes, measured on the face's box.
  const [x0, y0] = placed.toBase(face.box.x, face.box.y);
  const [x1, y1] = placed.toBase(face.box.x + face.box.width, face.box.y + face.box.height);
  const blur = edgeBlur(
    base,
    evenRectInside({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, base.width, base.height),
  );
  geometry = eyesGeometry(points, base, blur);
  patches.half = renderEyes(base, geometry, 0.5, blur);
  patches.closed = renderEyes(base, geometry, 1, blur);
  eyeBoxes = [face.leftEye, face.rightEye].map((e) => {
    const [x0, y0] = placed.toBase(e.x, e.y);
    const [x1, y1] = placed.toBase(e.x + e.width, e.y + e.height);
    return { x: x0 - geometry.patch.x, y: y0 - geometry.patch.y, width: x1 - x0, height: y1 - y0 };
  });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const luma = (d: Uint8Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;

/** Mean brightness of the middle of the upper or lower half of an eye's box (the photo's when `image` is null). */
function brightness(image: RgbaImage | null, box: Box, half: 'upper' | 'lower'): number {
  const { x: px, y: py } = geometry.patch;
  const y0 = Math.round(box.y + (half === 'upper' ? 0 : box.height / 2));
  const y1 = Math.round(box.y + (half === 'upper' ? box.height / 2 : box.height));
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = Math.round(box.x + box.width * 0.25); x < Math.round(box.x + box.width * 0.75); x++) {
      sum += image
        ? luma(image.data, (y * image.width + x) * 4)
        : luma(base.data, ((py + y) * base.width + px + x) * 4);
      n++;
    }
  }
  return sum / n;
}

test('the patch holds both eyes and matches the photo at its border', () => {
  const { patch } = geometry;
  for (const box of eyeBoxes) {
    assert.ok(
      box.x >= 0 && box.y >= 0 && box.x + box.width <= patch.width && box.y + box.height <= patch.height,
    );
  }
  for (const image of [patches.half, patches.closed]) {
    assert.deepEqual([image.width, image.height], [patch.width, patch.height]);
    let worst = 0;
    for (let y = 0; y < patch.height; y++) {
      for (let x = 0; x < patch.width; x++) {
        if (Math.min(x, y, patch.width - 1 - x, patch.height - 1 - y) >= 3) continue;
        const b = ((patch.y + y) * base.width + patch.x + x) * 4;
        worst = Math.max(worst, Math.abs(luma(image.data, (y * patch.width + x) * 4) - luma(base.data, b)));
      }
    }
    assert.ok(worst < 2, `border differs by ${worst}`);
  }
});

test('a closed lid covers the eye with lid skin; half-closed covers its upper half, leaving the lower', () => {
  for (const box of eyeBoxes) {
    const at = (image: RgbaImage | null) => ({
      upper: brightness(image, box, 'upper'),
      lower: brightness(image, box, 'lower'),
    });
    const open = at(null);
    const half = at(patches.half);
    const closed = at(patches.closed);
    const seen = JSON.stringify({ open, half, closed });
    // His lids are lighter than his irises: where the lid comes down, the eye gets brighter.
    assert.ok(half.upper > open.upper + 10, seen);
    assert.ok(Math.abs(half.lower - open.lower) < 8, seen);
    assert.ok(closed.upper > half.upper + 8, seen);
  }
});
