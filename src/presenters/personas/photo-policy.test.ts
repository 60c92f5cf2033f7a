import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp, { type Sharp } from 'sharp';
import type { Box, Face } from '../../media/vision/index.ts';
import {
  flatFaceShare,
  judgeFaces,
  MAX_FLAT_FACE_SHARE,
  MIN_APPARENT_AGE,
  MIN_FACE_HEIGHT_PX,
  PHOTO_POLICY,
  suggestedVoiceGender,
} from './photo-policy.ts';

/** A face as detectFaces reports it, with the box (and estimates) a rule looks at. */
function face(box: Box, extra: Partial<Face> = {}): Face {
  return {
    box,
    score: 0.95,
    landmarks: [],
    descriptor: new Float32Array(1024),
    mouth: box,
    leftEye: box,
    rightEye: box,
    rotation: null,
    ...extra,
  };
}

const PHOTO = { width: 1000, height: 1000 };
const big = (x = 300, height = 300, extra: Partial<Face> = {}) =>
  face({ x, y: 200, width: height * 0.8, height }, extra);

describe('judgeFaces', () => {
  test('one large face is the face', () => {
    const main = big();
    assert.deepEqual(judgeFaces([main], PHOTO), { face: main });
  });

  test('no face', () => {
    assert.deepEqual(judgeFaces([], PHOTO), { refusal: { reason: 'no_face' } });
  });

  test('another face at least half as tall makes several faces; a far smaller one is tolerated', () => {
    const main = big(100, 300);
    assert.deepEqual(judgeFaces([main, big(600, 150)], PHOTO), {
      refusal: { reason: 'several_faces', faces: 2 },
    });
    assert.deepEqual(judgeFaces([big(600, 149), main], PHOTO), { face: main });
  });

  test('too small: under 12 % of the photo height, or under 128 px', () => {
    assert.deepEqual(judgeFaces([big(300, 119)], PHOTO), {
      refusal: { reason: 'face_too_small', face_height_px: 119, min_face_height_px: MIN_FACE_HEIGHT_PX },
    });
    const short = { width: 1000, height: 600 };
    assert.deepEqual(judgeFaces([big(300, 100)], short), {
      refusal: { reason: 'face_too_small', face_height_px: 100, min_face_height_px: MIN_FACE_HEIGHT_PX },
    });
    const tall = { width: 1000, height: 2000 };
    assert.deepEqual(judgeFaces([big(300, 230)], tall), {
      refusal: { reason: 'face_too_small', face_height_px: 230, min_face_height_px: 240 },
    });
    assert.ok('face' in judgeFaces([big(300, 240)], tall));
  });

  test('a face whose apparent age is under 18 is blocked; no estimate, or an adult, passes', () => {
    assert.deepEqual(judgeFaces([big(300, 300, { age: MIN_APPARENT_AGE - 0.5 })], PHOTO), {
      refusal: { reason: 'blocked', rule: 'minor' },
    });
    assert.ok('face' in judgeFaces([big(300, 300, { age: 31 })], PHOTO));
    assert.ok('face' in judgeFaces([big(300, 300)], PHOTO));
  });

  test('every refusal reason has a rule in the published policy', () => {
    const reasons = PHOTO_POLICY.map((r) => r.reason);
    for (const reason of [
      'no_face',
      'several_faces',
      'face_too_small',
      'blocked: minor',
      'blocked: not_photographic',
    ])
      assert.ok(reasons.includes(reason), reason);
  });
});

describe('suggestedVoiceGender', () => {
  test('only when the face model is confident', () => {
    assert.equal(suggestedVoiceGender({ gender: 'male', genderScore: 0.97 }), 'male');
    assert.equal(suggestedVoiceGender({ gender: 'female', genderScore: 0.54 }), 'female');
    assert.equal(suggestedVoiceGender({ gender: 'female', genderScore: 0.05 }), undefined);
    assert.equal(suggestedVoiceGender({}), undefined);
  });
});

describe('flatFaceShare', () => {
  const box = { x: 50, y: 50, width: 200, height: 200 };

  async function pixels(input: Sharp) {
    const { data, info } = await input.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  }

  test('flat colour fills are flat; sensor-like noise is not; a face box of nothing but clipped white is flat', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">
      <rect width="300" height="300" fill="#e0b090"/><circle cx="150" cy="150" r="60" fill="#a06040"/></svg>`;
    const flat = await flatFaceShare(await pixels(sharp(Buffer.from(svg))), box);
    assert.ok(flat > 0.8, `flat graphic ${flat}`);

    const noise = new Uint8Array(300 * 300 * 3);
    let seed = 7;
    for (let i = 0; i < noise.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      noise[i] = 100 + (seed % 40);
    }
    const grainy = await flatFaceShare({ data: noise, width: 300, height: 300 }, box);
    assert.ok(grainy < MAX_FLAT_FACE_SHARE, `noise ${grainy}`);

    const white = await pixels(
      sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } }),
    );
    assert.equal(await flatFaceShare(white, box), 1, 'nothing but clipped pixels counts as flat');
  });
});
