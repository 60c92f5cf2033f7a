import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import {
  cardQuad,
  cubeFaces,
  expressionAlgebra,
  numberAlgebra,
  type LoopPlan,
  type Quad,
} from './logo-host-motion.ts';

const PLAN: LoopPlan = { frames: 90, canvas: 400 };
const KEYS = ['x0', 'y0', 'x1', 'y1', 'x2', 'y2', 'x3', 'y3'] as const;

/**
 * What ffmpeg's own evaluator makes of the expressions over the loop: aevalsrc computes one channel per
 * expression at one sample per frame, with the frame number standing for `in`.
 */
async function evaluate(expressions: string[], frames: number): Promise<number[][]> {
  const out = join(tmpdir(), `rs-eval-${process.pid}-${Math.random().toString(36).slice(2)}.f64`);
  const exprs = expressions.map((e) => e.replace(/\bin\b/g, `(t*${frames})`)).join('|');
  try {
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `aevalsrc=exprs='${exprs}':s=${frames}:d=1`,
      '-f',
      'f64le',
      '-c:a',
      'pcm_f64le',
      out,
    ]);
    const data = new Float64Array((await readFile(out)).buffer.slice(0));
    return Array.from({ length: frames }, (_, k) =>
      expressions.map((_, c) => data[k * expressions.length + c]!),
    );
  } finally {
    await rm(out, { force: true });
  }
}

function quadValues(q: Quad<number>): number[] {
  return KEYS.map((k) => q[k]);
}

describe('the expressions ffmpeg evaluates are the numbers planned', () => {
  test('card', async () => {
    const expr = cardQuad(expressionAlgebra('in'), PLAN);
    const got = await evaluate(
      KEYS.map((k) => expr[k]),
      PLAN.frames,
    );
    for (let k = 0; k < PLAN.frames; k += 7) {
      const want = quadValues(cardQuad(numberAlgebra(k), PLAN));
      want.forEach((v, i) =>
        assert.ok(Math.abs(v - got[k]![i]!) < 0.01, `frame ${k} ${KEYS[i]}: ${got[k]![i]} vs ${v}`),
      );
    }
  });

  test('cube faces', async () => {
    const expr = cubeFaces(expressionAlgebra('in'), PLAN);
    const got = await evaluate(
      [...KEYS.map((k) => expr.front[k]), ...KEYS.map((k) => expr.side[k])],
      PLAN.frames,
    );
    for (let k = 0; k < PLAN.frames; k += 5) {
      const faces = cubeFaces(numberAlgebra(k), PLAN);
      const want = [...quadValues(faces.front), ...quadValues(faces.side)];
      want.forEach((v, i) =>
        assert.ok(Math.abs(v - got[k]![i]!) < 0.01, `frame ${k} value ${i}: ${got[k]![i]} vs ${v}`),
      );
    }
  });
});

describe('cube', () => {
  const faces = Array.from({ length: PLAN.frames }, (_, k) => cubeFaces(numberAlgebra(k), PLAN));
  /** Left and right ends of what is seen of the cube. */
  const extent = (f: (typeof faces)[number]) => {
    const xs = [...quadValues(f.front), ...quadValues(f.side)].filter((_, i) => i % 2 === 0);
    return [Math.min(...xs), Math.max(...xs)] as const;
  };

  test('stays on its canvas, its front face never a line', () => {
    for (const f of faces) {
      for (const v of [...quadValues(f.front), ...quadValues(f.side)]) assert.ok(v >= 0 && v <= PLAN.canvas);
      assert.ok(f.front.x1 - f.front.x0 > PLAN.canvas * 0.3);
    }
  });

  test('the front face is the nearer one: its near edge is the taller', () => {
    for (const f of faces) {
      const frontHeight = Math.max(f.front.y2 - f.front.y0, f.front.y3 - f.front.y1);
      const sideHeight = Math.max(f.side.y2 - f.side.y0, f.side.y3 - f.side.y1);
      assert.ok(frontHeight >= sideHeight - 1e-9);
      assert.ok(f.frontShade >= f.sideShade - 1e-9, 'the front face is the brighter');
    }
  });

  test('turns smoothly, also across the loop’s end', () => {
    const step = (a: (typeof faces)[number], b: (typeof faces)[number]) => {
      const [al, ar] = extent(a);
      const [bl, br] = extent(b);
      return Math.max(Math.abs(al - bl), Math.abs(ar - br));
    };
    const steps = faces.slice(1).map((f, k) => step(faces[k]!, f));
    const wrap = step(faces[PLAN.frames - 1]!, faces[0]!);
    assert.ok(wrap <= Math.max(...steps) + 0.5, `wrap ${wrap} vs largest step ${Math.max(...steps)}`);
    assert.ok(Math.max(...steps) < PLAN.canvas * 0.02, 'no jumps');
  });
});

describe('card', () => {
  test('its loop closes and it moves in between', () => {
    const at = (k: number) => quadValues(cardQuad(numberAlgebra(k), PLAN));
    at(0).forEach((v, i) => assert.ok(Math.abs(v - at(PLAN.frames)[i]!) < 1e-9));
    const moved = Math.max(...at(PLAN.frames / 4).map((v, i) => Math.abs(v - at(0)[i]!)));
    assert.ok(moved > PLAN.canvas * 0.02, `a corner moves ${moved.toFixed(1)} px in a quarter loop`);
  });
});
