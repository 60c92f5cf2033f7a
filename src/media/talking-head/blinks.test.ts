import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blinkStates, eyeRuns, planBlinks } from './blinks.ts';

test('blinks every 2–6 s, each 120–180 ms, inside the video, the same for the same seed', () => {
  const fps = 30;
  const blinks = planBlinks(60, fps, 'presenter-1');
  assert.deepEqual(planBlinks(60, fps, 'presenter-1'), blinks);
  assert.notDeepEqual(planBlinks(60, fps, 'presenter-2'), blinks);
  assert.ok(blinks.length >= 10 && blinks.length <= 30, `${blinks.length} blinks in a minute`);
  assert.ok(blinks[0]!.frame / fps >= 0.6 && blinks[0]!.frame / fps <= 2.2);
  for (let i = 1; i < blinks.length; i++) {
    const gap = (blinks[i]!.frame - blinks[i - 1]!.frame) / fps;
    assert.ok(gap >= 1.95 && gap <= 6.05, `gap ${gap}`);
  }
  for (const b of blinks) assert.ok(b.frames >= 4 && b.frames <= 5, `${b.frames} frames`);
  const last = blinks[blinks.length - 1]!;
  assert.ok(last.frame + last.frames <= 60 * fps);
});

test('at a low frame rate a blink still shows the lid half down, closed, half up', () => {
  assert.deepEqual(
    planBlinks(30, 10, 'x').map((b) => b.frames),
    planBlinks(30, 10, 'x').map(() => 3),
  );
  assert.deepEqual(blinkStates(3), ['half', 'closed', 'half']);
  assert.deepEqual(blinkStates(4), ['half', 'closed', 'closed', 'half']);
  assert.deepEqual(blinkStates(5), ['half', 'closed', 'closed', 'half', 'half']);
});

test('eyeRuns: open between blinks, covering every frame', () => {
  const runs = eyeRuns(
    [
      { frame: 10, frames: 4 },
      { frame: 40, frames: 3 },
    ],
    50,
  );
  assert.deepEqual(runs, [
    { state: 'open', frames: 10 },
    { state: 'half', frames: 1 },
    { state: 'closed', frames: 2 },
    { state: 'half', frames: 1 },
    { state: 'open', frames: 26 },
    { state: 'half', frames: 1 },
    { state: 'closed', frames: 1 },
    { state: 'half', frames: 1 },
    { state: 'open', frames: 7 },
  ]);
  assert.equal(planBlinks(0.5, 30, 'short').length, 0);
});
