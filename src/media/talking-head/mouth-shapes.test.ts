// Mouth patches made from a real photo, measured on their pixels.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cutToFile, FACE_DETECT_SCREENSHOT, FIVE_PEOPLE } from '../../../test/support/sample-photos.ts';
import { detectFaces } from '../vision/faces.ts';
import { loadPhoto, renderBase } from './base-image.ts';
import { planFraming } from './framing.ts';
import { mapLandmarks } from './landmarks.ts';
import { mouthGeometry, mouthTone, renderMouth, type MouthGeometry, type MouthTone } from './mouth-shapes.ts';
import { edgeBlur, type RgbaImage, type RgbaRegion } from './pixels.ts';
import { MOUTH_SHAPES, type Viseme } from './visemes.ts';

let dir = '';
/** The whole base, read as one region. */
let base: RgbaRegion;
let geometry: MouthGeometry;
let tone: MouthTone;
let blur = 1;
/** The lips' bounds in patch pixels, from the face's own mouth box. */
let lips = { x0: 0, y0: 0, x1: 0, y1: 0 };
const patches = new Map<Viseme, RgbaImage>();

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mouth-shapes-'));
  // A man with his mouth closed.
  const photoPath = await cutToFile(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!, dir, 'man', { width: 600 });
  const [face] = await detectFaces(photoPath);
  assert.ok(face);
  const photo = await loadPhoto(photoPath);
  const placed = await renderBase(photo, planFraming(photo, face.box, { width: 576, height: 1024, fps: 30 }));
  base = await placed.read({ x: 0, y: 0, width: placed.width, height: placed.height });
  geometry = mouthGeometry(mapLandmarks(face, placed.toBase), base);
  tone = mouthTone(base, geometry);
  blur = edgeBlur(base, geometry.patch);
  const [x0, y0] = placed.toBase(face.mouth.x, face.mouth.y);
  const [x1, y1] = placed.toBase(face.mouth.x + face.mouth.width, face.mouth.y + face.mouth.height);
  lips = {
    x0: x0 - geometry.patch.x,
    y0: y0 - geometry.patch.y,
    x1: x1 - geometry.patch.x,
    y1: y1 - geometry.patch.y,
  };
  for (const viseme of Object.keys(MOUTH_SHAPES) as Viseme[]) {
    patches.set(viseme, renderMouth(base, geometry, MOUTH_SHAPES[viseme], tone, blur));
  }
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const luma = (d: Uint8Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
const saturation = (d: Uint8Array, i: number) => {
  const max = Math.max(d[i]!, d[i + 1]!, d[i + 2]!);
  return max === 0 ? 0 : (max - Math.min(d[i]!, d[i + 1]!, d[i + 2]!)) / max;
};

/** Mean absolute difference from the base, over the patch pixels that `keep` selects (patch coordinates). */
function differenceFromBase(patch: RgbaImage, keep: (x: number, y: number) => boolean): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < patch.height; y++) {
    for (let x = 0; x < patch.width; x++) {
      if (!keep(x, y)) continue;
      const p = (y * patch.width + x) * 4;
      const b = ((geometry.patch.y + y) * base.width + geometry.patch.x + x) * 4;
      for (let c = 0; c < 3; c++) sum += Math.abs(patch.data[p + c]! - base.data[b + c]!);
      n += 3;
    }
  }
  return sum / n;
}

/**
 * Within the lips' box (and as far again below it, where the lower lip goes): pixels much darker than the photo
 * (the opening), pale near-neutral pixels where the photo had coloured lips or skin (teeth), the opening's width.
 */
function opening(patch: RgbaImage): { dark: number; width: number; light: number } {
  let dark = 0;
  let light = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let y = Math.floor(lips.y0); y < Math.ceil(2 * lips.y1 - lips.y0); y++) {
    for (let x = Math.floor(lips.x0); x < Math.ceil(lips.x1); x++) {
      const i = (y * patch.width + x) * 4;
      const b = ((geometry.patch.y + y) * base.width + geometry.patch.x + x) * 4;
      const change = luma(patch.data, i) - luma(base.data, b);
      if (luma(patch.data, i) > 110 && saturation(patch.data, i) < 0.22 && saturation(base.data, b) >= 0.22)
        light++;
      if (change < -40) {
        dark++;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
      }
    }
  }
  return { dark, light, width: dark > 0 ? maxX - minX + 1 : 0 };
}

describe('mouth patches', () => {
  test('the patch surrounds the mouth, lies inside the base and has even placement', () => {
    const { patch } = geometry;
    assert.ok(patch.x % 2 === 0 && patch.y % 2 === 0 && patch.width % 2 === 0 && patch.height % 2 === 0);
    assert.ok(
      patch.x >= 0 &&
        patch.y >= 0 &&
        patch.x + patch.width <= base.width &&
        patch.y + patch.height <= base.height,
    );
    assert.ok(patch.width > 2 * geometry.width && patch.height > geometry.width);
    for (const p of patches.values()) assert.deepEqual([p.width, p.height], [patch.width, patch.height]);
  });

  test('closed on a closed mouth is the photo itself; every shape blends in at its border', () => {
    assert.ok(differenceFromBase(patches.get('closed')!, () => true) < 0.5);
    const w = geometry.patch.width;
    const h = geometry.patch.height;
    const ring = (x: number, y: number) => Math.min(x, y, w - 1 - x, h - 1 - y) < 4;
    for (const [viseme, patch] of patches) {
      assert.ok(differenceFromBase(patch, ring) < 1, `${viseme} differs at its border`);
      // Alpha fades out towards the edge and is solid inside.
      assert.ok(patch.data[3]! < 32 && patch.data[(2 * w + 2) * 4 + 3]! > patch.data[3]!, viseme);
      assert.equal(patch.data[((h >> 1) * w + (w >> 1)) * 4 + 3], 255, viseme);
    }
  });

  test('openings grow from rest to slight to wide to open; rounded lips are narrower than spread ones', () => {
    const [rest, slight, wide, open, round] = (['rest', 'slight', 'wide', 'open', 'round'] as const).map(
      (v) => opening(patches.get(v)!),
    );
    assert.ok(rest!.dark < slight!.dark, `rest ${rest!.dark}, slight ${slight!.dark}`);
    assert.ok(slight!.dark < open!.dark && wide!.dark < open!.dark, `wide ${wide!.dark}, open ${open!.dark}`);
    assert.ok(round!.width < 0.85 * wide!.width, `round ${round!.width} px wide, wide ${wide!.width} px`);
    assert.ok(open!.dark > 0.02 * geometry.width * geometry.width);
  });

  test('teeth show under the upper lip in spread and f/v shapes, hardly at all in a rounded one', () => {
    const fv = opening(patches.get('fv')!);
    const wide = opening(patches.get('wide')!);
    const round = opening(patches.get('round')!);
    assert.ok(fv.light > fv.dark, `f/v: ${fv.light} light, ${fv.dark} dark pixels`);
    assert.ok(wide.light > round.light * 2, `wide ${wide.light}, round ${round.light} light pixels`);
  });

  test('the jaw drops with an open mouth: the chin below the lips comes down', () => {
    const open = patches.get('open')!;
    // Along the mouth's middle column, the first row (from the patch bottom up) where the picture differs from
    // the base is where the moved skin ends; for an open mouth it lies below the lower lip.
    const x = Math.round(geometry.frame.origin[0] - geometry.patch.x);
    let lowest = -1;
    for (let y = open.height - 1; y >= 0 && lowest < 0; y--) {
      const i = (y * open.width + x) * 4;
      const b = ((geometry.patch.y + y) * base.width + geometry.patch.x + x) * 4;
      if (Math.abs(luma(open.data, i) - luma(base.data, b)) > 3) lowest = y;
    }
    const lipBottom = geometry.frame.origin[1] + geometry.lowerOuter.at(0) - geometry.patch.y;
    assert.ok(
      lowest > lipBottom + 0.15 * geometry.width,
      `moved down to row ${lowest}, lower lip at ${lipBottom}`,
    );
  });
});
