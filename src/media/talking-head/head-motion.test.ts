import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { baseSize } from './framing.ts';
import { MAX_SHIFT, MOTION_MARGIN, motionFilters, planHeadMotion, SUPERSAMPLE } from './head-motion.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'head-motion-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the motion is seeded and small enough to stay inside the margin', () => {
  const motion = planHeadMotion('a');
  assert.deepEqual(planHeadMotion('a'), motion);
  assert.notDeepEqual(planHeadMotion('b'), motion);
  const drift = (waves: { amplitude: number }[]) => waves.reduce((s, w) => s + w.amplitude, 0);
  assert.ok(drift(motion.x) <= MOTION_MARGIN / 2 && drift(motion.y) <= MOTION_MARGIN / 2);
  assert.ok(MAX_SHIFT >= drift(motion.x) && MAX_SHIFT >= drift(motion.y));
  for (const w of [...motion.x, ...motion.y]) assert.ok(w.periodSec >= 2.5 && w.periodSec <= 12);
});

test('rendered by ffmpeg: a mark in the middle of the base drifts smoothly, a little, and stays in the frame', async () => {
  const frame = { width: 160, height: 96, fps: 30 };
  const base = baseSize({ width: frame.width * SUPERSAMPLE, height: frame.height * SUPERSAMPLE });
  const frames = 240;
  const raw = join(dir, 'motion.gray');
  const mark = 16;
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=black:s=${base.width}x${base.height}:r=${frame.fps}:d=${frames / frame.fps}`,
    '-vf',
    `format=yuv420p,drawbox=x=${(base.width - mark) / 2}:y=${(base.height - mark) / 2}:w=${mark}:h=${mark}:color=white:t=fill,` +
      `${motionFilters(planHeadMotion('mark'), frame)},format=gray`,
    '-f',
    'rawvideo',
    raw,
  ]);
  const data = await readFile(raw);
  const size = frame.width * frame.height;
  assert.equal(data.length, size * frames);
  const centres = Array.from({ length: frames }, (_, k) => {
    let sum = 0;
    let sx = 0;
    let sy = 0;
    for (let p = 0; p < size; p++) {
      const v = data[k * size + p]!;
      sum += v;
      sx += v * (p % frame.width);
      sy += v * Math.floor(p / frame.width);
    }
    assert.ok(sum > 0, `the mark is in frame ${k}`);
    return { x: sx / sum, y: sy / sum };
  });
  const offsets = centres.map((c) => Math.hypot(c.x - (frame.width - 1) / 2, c.y - (frame.height - 1) / 2));
  assert.ok(
    Math.max(...offsets) <= MAX_SHIFT * frame.width + 1,
    `offset up to ${Math.max(...offsets).toFixed(2)}`,
  );
  assert.ok(Math.max(...offsets) > 0.5, 'it moves');
  // Half-pixel steps at most on each axis: the base is twice the frame's scale and moved pixel by pixel.
  for (let k = 1; k < frames; k++) {
    const step = Math.max(
      Math.abs(centres[k]!.x - centres[k - 1]!.x),
      Math.abs(centres[k]!.y - centres[k - 1]!.y),
    );
    assert.ok(step < 0.6, `step ${step.toFixed(2)} px at frame ${k}`);
  }
});
