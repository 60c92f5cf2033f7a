import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { alignFace, detectFaces, faceDistance, SAME_PERSON_DISTANCE, type Box, type Face } from './faces.ts';
import { decodeRgb } from './image-input.ts';
import {
  cutRaw,
  FACE_DETECT_SCREENSHOT,
  FACE_MATCH_SCREENSHOT,
  FACE_ROW,
  FIVE_PEOPLE,
  MAN_AT_TABLE,
  SAMPLES,
} from '../../../test/support/sample-photos.ts';

/** The face-match screenshot's large "selected face": the man of MAN_AT_TABLE and FIVE_PEOPLE[0] in a third photo. */
const MAN_SELECTED = { left: 0, top: 28, width: 172, height: 172 };

async function onlyFace(...cut: Parameters<typeof cutRaw>): Promise<Face> {
  const faces = await detectFaces(await cutRaw(...cut));
  assert.equal(faces.length, 1, `one face in ${cut[0]}`);
  return faces[0]!;
}

const eyeCentre = (face: Face, corners: [number, number]) => {
  const [a, b] = corners.map((i) => face.landmarks[i]!);
  return { x: (a![0] + b![0]) / 2, y: (a![1] + b![1]) / 2 };
};

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe('detectFaces', () => {
  test('one face in a photo of one man at a table, with landmarks, regions and a descriptor where they belong', async () => {
    // The 211x158 thumbnail scaled 4x: 844x632.
    const photo = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 844 });
    const faces = await detectFaces(photo);
    assert.equal(faces.length, 1);
    const face = faces[0]!;
    // His face sits right of centre in the upper half, about 100–160 px wide at this scale.
    const cx = face.box.x + face.box.width / 2;
    const cy = face.box.y + face.box.height / 2;
    assert.ok(cx > 440 && cx < 560, `face centre x ${cx}`);
    assert.ok(cy > 100 && cy < 220, `face centre y ${cy}`);
    assert.ok(face.box.width > 90 && face.box.width < 180, `face width ${face.box.width}`);
    assert.ok(face.score > 0.8);
    assert.equal(face.landmarks.length, 478);
    assert.equal(face.descriptor.length, 1024);
    assert.ok(Math.abs(Math.hypot(...face.descriptor) - 1) < 1e-3);
    for (const region of [face.mouth, face.leftEye, face.rightEye]) assert.ok(inside(region, face.box));
    assert.ok(face.leftEye.x + face.leftEye.width <= face.rightEye.x, 'eyes side by side, left first');
    assert.ok(
      face.mouth.y > face.leftEye.y + face.leftEye.height &&
        face.mouth.y > face.rightEye.y + face.rightEye.height,
    );
    assert.ok(face.mouth.width > face.leftEye.width, 'mouth wider than an eye');
  });

  test('a row of 18 face photos gives many faces, each apart from the others', async () => {
    const row = await cutRaw(FACE_MATCH_SCREENSHOT, FACE_ROW);
    const faces = await detectFaces(row, { minFaceSize: 50, maxFaces: 30 });
    assert.ok(faces.length >= 15 && faces.length <= 18, `${faces.length} faces`);
    const centres = faces.map((f) => f.box.x + f.box.width / 2).sort((a, b) => a - b);
    for (let i = 1; i < centres.length; i++)
      assert.ok(centres[i]! - centres[i - 1]! > 60, 'one face per tile of the grid');
  });

  test('maxFaces bounds the analysis to that many faces', async () => {
    const row = await cutRaw(FACE_MATCH_SCREENSHOT, FACE_ROW);
    const faces = await detectFaces(row, { minFaceSize: 50, maxFaces: 3 });
    assert.ok(faces.length >= 1 && faces.length <= 3, `${faces.length} faces`);
  });

  test('descriptors: the same face mirrored and rescaled is closer than any two of five different people', async () => {
    const originals: Face[] = [];
    const same: number[] = [];
    for (const region of FIVE_PEOPLE) {
      const [a] = await detectFaces(await cutRaw(FACE_DETECT_SCREENSHOT, region));
      const [b] = await detectFaces(
        await cutRaw(FACE_DETECT_SCREENSHOT, region, { mirror: true, width: 196 }),
      );
      assert.ok(a && b, 'a face in each portrait');
      originals.push(a);
      same.push(faceDistance(a.descriptor, b.descriptor));
    }
    const different: number[] = [];
    for (let i = 0; i < originals.length; i++) {
      for (let j = i + 1; j < originals.length; j++)
        different.push(faceDistance(originals[i]!.descriptor, originals[j]!.descriptor));
    }
    assert.ok(
      Math.max(...same) < SAME_PERSON_DISTANCE,
      `same person: ${same.map((d) => d.toFixed(2)).join(' ')}`,
    );
    assert.ok(
      Math.min(...different) > SAME_PERSON_DISTANCE,
      `different people: ${different.map((d) => d.toFixed(2)).join(' ')}`,
    );
  });

  test('three different photos of one man are one person, and another person than each of four women', async () => {
    const man = [
      await onlyFace(SAMPLES, MAN_AT_TABLE, { width: 844 }),
      await onlyFace(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!),
      await onlyFace(FACE_MATCH_SCREENSHOT, MAN_SELECTED),
    ];
    const women: Face[] = [];
    for (const region of FIVE_PEOPLE.slice(1)) women.push(await onlyFace(FACE_DETECT_SCREENSHOT, region));
    const same: number[] = [];
    for (let i = 0; i < man.length; i++)
      for (let j = i + 1; j < man.length; j++)
        same.push(faceDistance(man[i]!.descriptor, man[j]!.descriptor));
    const different = man.flatMap((m) => women.map((w) => faceDistance(m.descriptor, w.descriptor)));
    assert.ok(
      Math.max(...same) <= SAME_PERSON_DISTANCE,
      `his photos: ${same.map((d) => d.toFixed(2)).join(' ')}`,
    );
    assert.ok(
      Math.min(...different) > SAME_PERSON_DISTANCE,
      `him and the women: ${different.map((d) => d.toFixed(2)).join(' ')}`,
    );
    // Apparent gender and age come from the same model run: he is male, they are female, all are adults.
    for (const m of man) assert.equal(m.gender, 'male');
    for (const w of women) assert.equal(w.gender, 'female');
    for (const f of [...man, ...women]) {
      assert.ok((f.genderScore ?? 0) >= 0.5, `gender score ${f.genderScore}`);
      assert.ok(f.age !== undefined && f.age >= 18 && f.age < 70, `age ${f.age}`);
    }
  });

  test('alignFace turns a tilted face upright with its eyes on the reference points', async () => {
    const photo = await cutRaw(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!);
    const { data, info } = await sharp(photo.data, {
      raw: { width: photo.width, height: photo.height, channels: 3 },
    })
      .rotate(20, { background: '#000' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tilted = await decodeRgb({ data: new Uint8Array(data), width: info.width, height: info.height });
    const [face] = await detectFaces(tilted);
    assert.ok(face);
    const before = [eyeCentre(face, [33, 133]), eyeCentre(face, [263, 362])];
    const tilt = Math.atan2(before[1]!.y - before[0]!.y, before[1]!.x - before[0]!.x);
    assert.ok(Math.abs(tilt) > 0.25, `the photo tilts the eyes by ${tilt} rad`);

    const aligned = await alignFace(tilted, face.landmarks, 224, 1.5);
    assert.deepEqual(aligned.shape, [1, 224, 224, 3]);
    const pixels = Uint8Array.from(await aligned.data(), (v) => Math.round(v));
    aligned.dispose();
    const [upright] = await detectFaces({ data: pixels, width: 224, height: 224 });
    assert.ok(upright, 'a face in the aligned crop');
    // ArcFace's eye points (38.29, 51.70) and (73.53, 51.50) in 112 px, here at 224 px drawn in by 1.5.
    const expected = [
      { x: 88.4, y: 106.3 },
      { x: 135.4, y: 106.0 },
    ];
    const after = [eyeCentre(upright, [33, 133]), eyeCentre(upright, [263, 362])];
    const tiltAfter = Math.atan2(after[1]!.y - after[0]!.y, after[1]!.x - after[0]!.x);
    assert.ok(Math.abs(tiltAfter) < 0.05, `eyes level after alignment: ${tiltAfter} rad`);
    // The fit also places nose and mouth corners, so the eyes land near, not on, their points.
    after.forEach((eye, i) => {
      const miss = Math.hypot(eye.x - expected[i]!.x, eye.y - expected[i]!.y);
      assert.ok(miss < 5, `eye ${i} at ${eye.x.toFixed(1)},${eye.y.toFixed(1)}: ${miss.toFixed(1)} px off`);
    });
  });

  test('raw RGBA pixels give the same face as RGB', async () => {
    const rgb = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 422 });
    const rgba = new Uint8Array(rgb.width * rgb.height * 4);
    for (let i = 0; i < rgb.width * rgb.height; i++) {
      rgba.set(rgb.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    const [a] = await detectFaces(rgb);
    const [b] = await detectFaces({ data: rgba, width: rgb.width, height: rgb.height });
    assert.ok(a && b);
    assert.ok(faceDistance(a.descriptor, b.descriptor) < 1e-3);
    await assert.rejects(
      detectFaces({ data: rgb.data.subarray(1), width: rgb.width, height: rgb.height }),
      /needs/,
    );
  });
});
