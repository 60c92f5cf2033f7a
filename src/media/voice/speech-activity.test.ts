import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findActivity, levelTrack } from './speech-activity.ts';

const RATE = 1000;

/** Builds audio from [seconds, amplitude] runs; amplitude 0 is silence, otherwise a square wave. */
function audio(runs: [number, number][]): Float32Array {
  const out: number[] = [];
  for (const [sec, amp] of runs)
    for (let i = 0; i < Math.round(sec * RATE); i++) out.push(i % 2 ? amp : -amp);
  return Float32Array.from(out);
}

void test('finds the speech span and the pauses inside it', () => {
  const track = levelTrack(
    audio([
      [0.1, 0],
      [0.3, 0.5],
      [0.2, 0],
      [0.04, 0.5],
      [0.05, 0],
      [0.2, 0.5],
      [0.3, 0],
    ]),
    RATE,
  );
  assert.deepEqual(findActivity(track, { start: 0, end: 1.19 }, { minPauseSec: 0.1 }), {
    speech: { start: 0.1, end: 0.89 },
    pauses: [{ start: 0.4, end: 0.6 }],
  });
  assert.deepEqual(findActivity(track, { start: 0, end: 1.19 }, { minPauseSec: 0.05 }).pauses, [
    { start: 0.4, end: 0.6 },
    { start: 0.64, end: 0.69 },
  ]);
});

void test('looks only inside the range, and ignores a click at its edge', () => {
  const track = levelTrack(
    audio([
      [0.2, 0.5],
      [0.1, 0],
      [0.01, 0.5],
      [0.3, 0],
      [0.2, 0.4],
      [0.1, 0],
    ]),
    RATE,
  );
  assert.deepEqual(findActivity(track, { start: 0.25, end: 0.91 }), {
    speech: { start: 0.61, end: 0.81 },
    pauses: [],
  });
});

void test('a silent range has no speech; a noise floor does not count as speech', () => {
  assert.deepEqual(findActivity(levelTrack(audio([[0.5, 0]]), RATE), { start: 0, end: 0.5 }), {
    speech: null,
    pauses: [],
  });
  const noisy = levelTrack(
    audio([
      [0.2, 0.01],
      [0.2, 0.3],
      [0.2, 0.01],
      [0.2, 0.3],
      [0.2, 0.01],
    ]),
    RATE,
  );
  assert.deepEqual(findActivity(noisy, { start: 0, end: 1 }), {
    speech: { start: 0.2, end: 0.8 },
    pauses: [{ start: 0.4, end: 0.6 }],
  });
});
