import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Box } from '../vision/faces.ts';
import { baseSize, planFraming, type Framing, type FrameRequest } from './framing.ts';
import { MAX_SHIFT, MOTION_MARGIN } from './head-motion.ts';

test('baseSize: the frame plus the motion margin, even sides', () => {
  assert.deepEqual(baseSize({ width: 1080, height: 1920 }), { width: 1144, height: 2036 });
  assert.deepEqual(baseSize({ width: 2160, height: 3840 }), { width: 2290, height: 4070 });
  const size = baseSize({ width: 542, height: 962 });
  assert.ok(size.width % 2 === 0 && size.height % 2 === 0);
  assert.ok(size.width >= 542 * (1 + MOTION_MARGIN) - 1 && size.height >= 962 * (1 + MOTION_MARGIN) - 1);
});

/** Where a photo box lands in the frame (frame pixels) at rest. */
function inFrame(f: Framing, frame: FrameRequest, box: Box): Box {
  const dx = (f.base.width - frame.width) / 2;
  const dy = (f.base.height - frame.height) / 2;
  return {
    x: (box.x - f.origin.x) * f.scale - dx,
    y: (box.y - f.origin.y) * f.scale - dy,
    width: box.width * f.scale,
    height: box.height * f.scale,
  };
}

describe('planFraming', () => {
  const frame: FrameRequest = { width: 1080, height: 1920, fps: 30 };

  test('a large photo is cover-cropped with the face at the asked height and place', () => {
    const face = { x: 1400, y: 900, width: 500, height: 600 };
    const f = planFraming({ width: 3000, height: 4000 }, face, frame);
    assert.equal(f.covered, true);
    const box = inFrame(f, frame, face);
    assert.ok(Math.abs(box.height - 0.3 * 1920) < 1e-6, `face height ${box.height}`);
    assert.ok(Math.abs(box.x + box.width / 2 - 540) < 1e-6);
    assert.ok(Math.abs(box.y + box.height / 2 - 0.4 * 1920) < 1e-6);
  });

  test('a face near the photo’s edge: the photo still covers the frame, the face moves off its mark but stays in', () => {
    const face = { x: 2350, y: 400, width: 400, height: 480 };
    const f = planFraming({ width: 3000, height: 4000 }, face, { ...frame, faceHeight: 0.25 });
    assert.equal(f.covered, true);
    const box = inFrame(f, frame, face);
    const room = MAX_SHIFT * 1080;
    assert.ok(box.x >= room && box.x + box.width <= 1080 - room, JSON.stringify(box));
    assert.ok(box.y >= room, JSON.stringify(box));
    assert.ok(box.x + box.width / 2 > 600, 'the face is right of the middle, as in the photo');
  });

  test('a tight head shot cannot cover a tall frame: it is shown whole-headed and the rest filled', () => {
    const face = { x: 130, y: 100, width: 340, height: 370 };
    const f = planFraming({ width: 600, height: 608 }, face, { width: 540, height: 960, fps: 30 });
    assert.equal(f.covered, false);
    const box = inFrame(f, { width: 540, height: 960, fps: 30 }, face);
    assert.ok(box.x >= MAX_SHIFT * 540 && box.x + box.width <= 540 * (1 - MAX_SHIFT), JSON.stringify(box));
    assert.ok(box.y > 0 && box.y + box.height < 960);
  });

  test('landscape frames give the face more of the height by default; bad requests are refused', () => {
    const face = { x: 1400, y: 900, width: 500, height: 600 };
    const wide: FrameRequest = { width: 1920, height: 1080, fps: 25 };
    const f = planFraming({ width: 4000, height: 3000 }, face, wide);
    assert.ok(Math.abs(inFrame(f, wide, face).height - 0.4 * 1080) < 1e-6);
    assert.throws(
      () => planFraming({ width: 4000, height: 3000 }, face, { ...wide, faceHeight: 1.2 }),
      /faceHeight/,
    );
    assert.throws(
      () => planFraming({ width: 4000, height: 3000 }, face, { ...wide, faceCenter: { x: -0.1, y: 0.5 } }),
      /faceCenter/,
    );
  });
});
