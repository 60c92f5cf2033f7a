import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectFaces, faceDistance, SAME_PERSON_DISTANCE, type Box, type Face } from './faces.ts';
import {
  cutRaw,
  FACE_DETECT_SCREENSHOT,
  FACE_MATCH_SCREENSHOT,
  FACE_ROW,
  FIVE_PEOPLE,
  MAN_AT_TABLE,
  SAMPLES,
} from '../../../test/support/sample-photos.ts';

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
