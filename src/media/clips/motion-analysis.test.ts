import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analysisGrid, analyzeMotion, buildMotionArgs, type AnalysisGrid } from './motion-analysis.ts';

const GRID: AnalysisGrid = { width: 16, height: 9 };

/** Grey frames with a 2×2 bright blob at column `x(f)`, row bouncing, on a background `bg(f)`. */
function frames(count: number, x: (f: number) => number | null, bg: (f: number) => number): Buffer {
  const size = GRID.width * GRID.height;
  const buffer = Buffer.alloc(count * size);
  for (let f = 0; f < count; f++) {
    buffer.fill(bg(f), f * size, (f + 1) * size);
    const col = x(f);
    if (col === null) continue;
    const row = 2 + (f % 4);
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const)
      buffer[f * size + (row + dy) * GRID.width + col + dx] = 230;
  }
  return buffer;
}

const argmax = (xs: readonly number[]) => xs.indexOf(Math.max(...xs));

describe('analyzeMotion', () => {
  test('a cut splits the clip into shots, each with its own centre of motion', () => {
    const data = frames(
      30,
      (f) => (f < 15 ? 12 : 3),
      (f) => (f < 15 ? 40 : 140),
    );
    const motion = analyzeMotion(data, GRID, 5, 6);
    assert.equal(motion.shots.length, 2);
    assert.ok(Math.abs(motion.shots[0]!.endSec - 2.9) < 1e-9);
    assert.equal(motion.shots[1]!.startSec, motion.shots[0]!.endSec);
    assert.equal(motion.shots[1]!.endSec, 6);
    assert.ok([12, 13].includes(argmax(motion.shots[0]!.columns)));
    assert.ok([3, 4].includes(argmax(motion.shots[1]!.columns)));
    // The jump across the cut is not motion: the second shot's energy is only the blob's.
    assert.ok(motion.shots[1]!.columns.every((v, x) => v === 0 || x === 3 || x === 4));
    assert.ok(motion.shots.every((s) => s.activity > 0));
  });

  test('a still picture has no motion', () => {
    const motion = analyzeMotion(
      frames(
        20,
        () => null,
        () => 90,
      ),
      GRID,
      5,
      4,
    );
    assert.equal(motion.shots.length, 1);
    assert.equal(motion.shots[0]!.activity, 0);
  });

  test('a flash shorter than a second is not a shot of its own', () => {
    const motion = analyzeMotion(
      frames(
        30,
        () => 8,
        (f) => (f >= 10 && f < 12 ? 200 : 40),
      ),
      GRID,
      5,
      6,
    );
    assert.equal(motion.shots.length, 2);
    assert.ok(Math.abs(motion.shots[0]!.endSec - 1.9) < 1e-9);
  });
});

test('analysis grid keeps the aspect with the long side at 96', () => {
  assert.deepEqual(analysisGrid(1920, 1080), { width: 96, height: 54 });
  assert.deepEqual(analysisGrid(1080, 1920), { width: 54, height: 96 });
  assert.deepEqual(analysisGrid(640, 480), { width: 96, height: 72 });
});

test('motion frames: the clip range, 5 fps, tiny grey picture, raw', () => {
  assert.deepEqual(buildMotionArgs('in.mp4', 12.5, 30, { width: 96, height: 54 }, 'out.gray'), [
    '-y',
    '-skip_frame',
    'noref',
    '-ss',
    '12.5',
    '-t',
    '30',
    '-i',
    'in.mp4',
    '-map',
    '0:v:0',
    '-vf',
    'fps=5,scale=96:54:flags=area,format=gray',
    '-f',
    'rawvideo',
    'out.gray',
  ]);
});
