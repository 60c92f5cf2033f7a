// Prompt parsing, seeded shot moves, easing, and the guarantee that every view stays inside the source.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chooseShotMove,
  easeInOut,
  foregroundViewport,
  moveViewports,
  parseCameraMove,
  type CameraMove,
  type MoveKind,
} from './camera-move.ts';

describe('parseCameraMove', () => {
  const table: [string, MoveKind, string, string][] = [
    ['slow zoom in', 'zoom', 'in', 'slow'],
    ['Zoom out to reveal the city', 'zoom', 'out', 'normal'],
    ['a fast zoom-out', 'zoom', 'out', 'fast'],
    ['pan left across the beach', 'pan', 'left', 'normal'],
    ['camera pans right', 'pan', 'right', 'normal'],
    ['tilt up to the sky', 'tilt', 'up', 'normal'],
    ['gentle tilt down', 'tilt', 'down', 'slow'],
    ['dolly in', 'dolly', 'in', 'normal'],
    ['dolly out slowly', 'dolly', 'out', 'slow'],
    ['pull back from the table', 'dolly', 'out', 'normal'],
    ['push in on the subject', 'push-in', 'in', 'normal'],
    ['slow orbit around her', 'orbit', 'right', 'slow'],
    ['orbit counterclockwise', 'orbit', 'left', 'normal'],
    ['subtle parallax', 'parallax', 'right', 'slow'],
    ['static shot', 'static', 'none', 'normal'],
    ['zoom in, then pan left', 'zoom', 'in', 'normal'],
    ['a cat sleeping in the sun', 'push-in', 'in', 'slow'],
  ];
  for (const [prompt, kind, direction, speed] of table) {
    test(`"${prompt}" → ${kind} ${direction} ${speed}`, () => {
      const move = parseCameraMove(prompt);
      assert.deepEqual([move.kind, move.direction, move.speed], [kind, direction, speed]);
    });
  }
  test('speed words scale the strength', () => {
    const s = (p: string) => parseCameraMove(p).strength;
    assert.ok(s('slow zoom in') < s('zoom in') && s('zoom in') < s('fast zoom in'));
    assert.equal(parseCameraMove('static').strength, 0);
  });
});

describe('chooseShotMove', () => {
  test('is deterministic per seed, varies between shots and keeps a move the words name', () => {
    const a = Array.from({ length: 8 }, (_, i) => chooseShotMove(42, i));
    const b = Array.from({ length: 8 }, (_, i) => chooseShotMove(42, i));
    assert.deepEqual(a, b);
    for (let i = 1; i < a.length; i++)
      assert.notDeepEqual([a[i]!.kind, a[i]!.direction], [a[i - 1]!.kind, a[i - 1]!.direction]);
    assert.ok(new Set(a.map((m) => `${m.kind}-${m.direction}`)).size >= 3);
    assert.equal(chooseShotMove(42, 0, 'drone shot, pan left over the hills').direction, 'left');
  });
});

describe('easeInOut', () => {
  test('runs 0 → 1, monotonically, slower at the ends than in the middle', () => {
    assert.equal(easeInOut(0), 0);
    assert.ok(Math.abs(easeInOut(1) - 1) < 1e-12);
    let last = -1;
    for (let i = 0; i <= 100; i++) {
      const v = easeInOut(i / 100);
      assert.ok(v > last);
      last = v;
    }
    const speed = (t: number) => (easeInOut(t + 0.001) - easeInOut(t)) / 0.001;
    assert.ok(speed(0.01) < 0.5 && speed(0.5) > 1.5);
  });
});

describe('moveViewports', () => {
  const kinds: CameraMove[] = [
    ...(['in', 'out'] as const).flatMap((d) =>
      (['zoom', 'dolly', 'push-in'] as const).map((kind) => ({
        kind,
        direction: d,
        speed: 'fast' as const,
        strength: 1,
      })),
    ),
    { kind: 'push-in', direction: 'in', speed: 'normal', strength: 0.6, focus: { x: 0.02, y: 0.97 } },
    { kind: 'pan', direction: 'left', speed: 'fast', strength: 1 },
    { kind: 'pan', direction: 'right', speed: 'slow', strength: 0.35 },
    { kind: 'tilt', direction: 'up', speed: 'fast', strength: 1 },
    { kind: 'tilt', direction: 'down', speed: 'normal', strength: 0.6 },
    { kind: 'orbit', direction: 'left', speed: 'fast', strength: 1 },
    { kind: 'parallax', direction: 'right', speed: 'normal', strength: 0.6 },
    { kind: 'static', direction: 'none', speed: 'normal', strength: 0 },
  ];
  const sources = [
    { width: 4000, height: 3000 },
    { width: 1080, height: 1920 },
    { width: 640, height: 640 },
    { width: 6000, height: 1000 },
  ];
  const outputs = [
    { width: 1080, height: 1920 },
    { width: 1920, height: 1080 },
    { width: 720, height: 720 },
  ];
  test('every view of every move lies inside the source and keeps the output aspect', () => {
    for (const move of kinds)
      for (const source of sources)
        for (const output of outputs) {
          for (const v of moveViewports(move, source, output, 61)) {
            const where = `${move.kind}-${move.direction} ${source.width}x${source.height}→${output.width}x${output.height}`;
            assert.ok(v.x >= -1e-9 && v.y >= -1e-9, where);
            assert.ok(v.x + v.width <= source.width + 1e-9 && v.y + v.height <= source.height + 1e-9, where);
            assert.ok(Math.abs(v.width / v.height - output.width / output.height) < 1e-9, where);
          }
        }
  });

  test('moves go the way they are named', () => {
    const source = { width: 3000, height: 3000 };
    const output = { width: 1080, height: 1920 };
    const ends = (m: Partial<CameraMove>) => {
      const v = moveViewports(
        { kind: 'zoom', direction: 'in', speed: 'normal', strength: 0.6, ...m },
        source,
        output,
        30,
      );
      return [v[0]!, v[v.length - 1]!] as const;
    };
    const [zi0, zi1] = ends({ kind: 'zoom', direction: 'in' });
    assert.ok(zi1.width < zi0.width / 1.1);
    const [zo0, zo1] = ends({ kind: 'zoom', direction: 'out' });
    assert.ok(zo1.width > zo0.width * 1.1);
    const [pl0, pl1] = ends({ kind: 'pan', direction: 'left' });
    assert.ok(pl1.x < pl0.x - 50);
    const [tu0, tu1] = ends({ kind: 'tilt', direction: 'up' });
    assert.ok(tu1.y < tu0.y - 50);
    const [st0, st1] = ends({ kind: 'static', direction: 'none', strength: 0 });
    assert.deepEqual(st0, st1);
  });

  test('the parallax layer moves further than the background and lines up halfway', () => {
    const v = moveViewports(
      { kind: 'orbit', direction: 'right', speed: 'normal', strength: 0.6 },
      { width: 2000, height: 2000 },
      { width: 1080, height: 1080 },
      31,
    );
    const middle = v[15]!;
    assert.deepEqual(foregroundViewport(middle, middle), middle);
    const bgTravel = v[30]!.x - v[0]!.x;
    const fgTravel = foregroundViewport(v[30]!, middle).x - foregroundViewport(v[0]!, middle).x;
    assert.ok(fgTravel > 1.5 * bgTravel && bgTravel > 0);
  });
});
