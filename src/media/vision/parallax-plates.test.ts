import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { fillHole, FOREGROUND_MIN_ALPHA, growWhite, makeParallaxPlates } from './parallax-plates.ts';
import { cutToFile, SAMPLES, WOMAN_PORTRAIT } from '../../../test/support/sample-photos.ts';
import { PERSON_ALPHA, segmentPerson } from './segment.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vision-plates-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function decode(path: string) {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

describe('makeParallaxPlates', () => {
  test('a woman portrait: a feathered cut-out inside the mask and a background with the person filled in', async () => {
    const photo = await cutToFile(SAMPLES, WOMAN_PORTRAIT, dir, 'woman', { width: 1032 });
    const segmented = await segmentPerson(photo);
    assert.ok(segmented);
    const { mask, width, height } = segmented;
    const plates = await makeParallaxPlates(photo, segmented, join(dir, 'plates'));

    const fg = await decode(plates.foreground);
    assert.equal(fg.channels, 4);
    assert.deepEqual([fg.width, fg.height], [plates.box.width, plates.box.height]);
    let edge = 0;
    let opaque = 0;
    for (let y = 0; y < fg.height; y++) {
      for (let x = 0; x < fg.width; x++) {
        const alpha = fg.data[(y * fg.width + x) * 4 + 3]!;
        const m = mask[(y + plates.box.y) * width + x + plates.box.x]!;
        if (m < FOREGROUND_MIN_ALPHA) assert.equal(alpha, 0, `alpha outside the mask at ${x},${y}`);
        assert.ok(alpha <= m);
        if (alpha > 0 && alpha < 255) edge++;
        if (alpha === 255) opaque++;
      }
    }
    assert.ok(opaque > 0.15 * width * height, `opaque ${opaque}`);
    assert.ok(edge > 0, 'a feathered edge');

    const bg = await decode(plates.background);
    const original = await decode(photo);
    assert.deepEqual([bg.width, bg.height], [width, height]);
    // The band around the person: untouched pixels (the background plate equals the photo there) within 8 % of
    // the diagonal of the mask. The fill continues them, so the hole must look like them on average.
    const person = new Uint8Array(width * height);
    for (let i = 0; i < person.length; i++) person[i] = mask[i]! >= PERSON_ALPHA ? 255 : 0;
    const near = await growWhite(person, width, height, Math.round(Math.hypot(width, height) * 0.08));
    const luma = (img: { data: Buffer }, i: number) =>
      (img.data[i * 3]! + img.data[i * 3 + 1]! + img.data[i * 3 + 2]!) / 3;
    let holeSum = 0;
    let holeCount = 0;
    let black = 0;
    let changed = 0;
    let bandSum = 0;
    let bandCount = 0;
    for (let i = 0; i < width * height; i++) {
      const filled = luma(bg, i);
      if (person[i]) {
        holeSum += filled;
        holeCount++;
        if (filled < 8) black++;
        if (Math.abs(luma(original, i) - filled) > 20) changed++;
      } else if (
        near[i] &&
        bg.data.subarray(i * 3, i * 3 + 3).equals(original.data.subarray(i * 3, i * 3 + 3))
      ) {
        bandSum += filled;
        bandCount++;
      }
    }
    assert.ok(black / holeCount < 0.01, `black share ${black / holeCount}`);
    assert.ok(changed / holeCount > 0.3, `changed share ${changed / holeCount}`);
    assert.ok(bandCount > 1000, `band of ${bandCount} pixels`);
    const holeMean = holeSum / holeCount;
    const bandMean = bandSum / bandCount;
    assert.ok(
      Math.abs(holeMean - bandMean) < 25,
      `hole ${holeMean.toFixed(0)} vs band around it ${bandMean.toFixed(0)}`,
    );
    // Outside the grown hole the photo is untouched.
    assert.equal(bg.data[0], original.data[0]);
  });

  test('fillHole carries the colours of the hole border inwards smoothly', () => {
    const width = 64;
    const height = 32;
    const rgb = new Uint8Array(width * height * 3);
    const hole = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        rgb[i * 3] = x < width / 2 ? 200 : 40;
        if (x >= 16 && x < 48 && y >= 8 && y < 24) hole[i] = 255;
      }
    }
    const out = fillHole(rgb, width, height, hole);
    const red = (x: number, y: number) => out[(y * width + x) * 3]!;
    assert.ok(
      red(17, 16) > red(30, 16) && red(30, 16) > red(33, 16) && red(33, 16) > red(46, 16),
      'a ramp from 200 to 40',
    );
    assert.ok(red(17, 16) > 150 && red(46, 16) < 90);
    assert.equal(red(0, 0), 200);
  });

  test('growWhite grows a white square by about the radius', async () => {
    const width = 61;
    const square = new Uint8Array(width * width);
    for (let y = 25; y < 36; y++) for (let x = 25; x < 36; x++) square[y * width + x] = 255;
    const grown = await growWhite(square, width, width, 6);
    const at = (x: number, y: number) => grown[y * width + x];
    assert.equal(at(30, 30), 255);
    assert.equal(at(35 + 5, 30), 255, '5 px out of the right edge');
    assert.equal(at(30, 25 - 5), 255, '5 px above the top edge');
    assert.equal(at(35 + 9, 30), 0, '9 px out');
    assert.equal(at(0, 0), 0);
  });

  test('a mask of another size is refused', async () => {
    const photo = await cutToFile(SAMPLES, WOMAN_PORTRAIT, dir, 'small');
    await assert.rejects(
      makeParallaxPlates(photo, { mask: new Uint8Array(4), width: 2, height: 2 }, dir),
      /does not match/,
    );
  });
});
