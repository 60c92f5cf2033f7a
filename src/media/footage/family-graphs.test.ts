import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { familyGraph, type FootageFamily, type FootageLook } from './family-graphs.ts';
import { seedFootageRecipes } from './footage-recipes.ts';

const T = { durationSec: 2, fps: 30 };

describe('exact graphs', () => {
  test('linear gradient: mirrored stops, half a turn per loop', () => {
    assert.equal(
      familyGraph({ family: 'gradients', shape: 'linear', colors: ['#000000', '#ffffff'] }, T),
      'gradients=s=540x960:r=30:n=4:c0=0x000000:c1=0xffffff:c2=0xffffff:c3=0x000000:x0=108:y0=144:x1=431:y1=815:' +
        'speed=0.0523599:type=linear:seed=1,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[base]',
    );
  });

  test('radial gradient: a whole turn per loop', () => {
    assert.equal(
      familyGraph({ family: 'gradients', shape: 'radial', colors: ['#ffffff', '#000000'] }, T),
      'gradients=s=540x960:r=30:n=2:c0=0xffffff:c1=0x000000:x0=189:y0=384:x1=270:y1=959:' +
        'speed=0.1047198:type=radial:seed=1,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[base]',
    );
  });

  test('colour field: vignetted in RGB', () => {
    assert.equal(
      familyGraph({ family: 'color-field', colors: ['#101010', '#202020'] }, T),
      'gradients=s=540x960:r=30:n=4:c0=0x101010:c1=0x202020:c2=0x202020:c3=0x101010:x0=54:y0=96:x1=485:y1=863:' +
        'speed=0.0523599:type=linear:seed=1,format=rgb24,vignette=angle=PI/4.5:dither=0,' +
        'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[base]',
    );
  });
});

describe('every catalogue graph is well formed', () => {
  for (const recipe of seedFootageRecipes()) {
    test(recipe.id, () => {
      const graph = familyGraph(recipe.look, { durationSec: recipe.durationSec, fps: 30 });
      assert.ok(graph.endsWith('[base]'));
      // Every label is produced once and consumed once, except [base] which is left for the encoder.
      const labels = (run: string): string[] => [...run.matchAll(/\[(\w+)\]/g)].map((x) => x[1]!);
      const produced = [...graph.matchAll(/((?:\[\w+\])+)(?=;|$)/g)].flatMap((m) => labels(m[1]!));
      const consumed = [...graph.matchAll(/(?:^|;)((?:\[\w+\])+)/g)].flatMap((m) => labels(m[1]!));
      assert.equal(new Set(produced).size, produced.length, 'labels produced twice');
      assert.deepEqual([...consumed].sort(), produced.filter((l) => l !== 'base').sort());
      assert.doesNotMatch(graph, /NaN|undefined|Infinity/);
    });
  }
});

/** Mean absolute difference of two grey frames. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

// One look per family, drawn at its internal size over a one-second loop and shrunk to a thumbnail.
describe('each family moves and loops seamlessly', () => {
  const seen = new Set<FootageFamily>();
  const looks: FootageLook[] = [];
  for (const r of seedFootageRecipes()) {
    if (!seen.has(r.family)) looks.push(r.look);
    seen.add(r.family);
  }
  const [w, h, frames] = [68, 120, 30];
  for (const look of looks) {
    test(look.family, () => {
      const graph = `${familyGraph(look, { durationSec: 1, fps: 30 })};[base]scale=${w}:${h},format=gray[o]`;
      const raw = execFileSync(
        'ffmpeg',
        [
          '-v',
          'error',
          '-filter_complex',
          graph,
          '-map',
          '[o]',
          '-frames:v',
          String(frames),
          '-f',
          'rawvideo',
          '-',
        ],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      assert.equal(raw.length, w * h * frames);
      const frame = (i: number): Buffer => raw.subarray(i * w * h, (i + 1) * w * h);
      const steps = Array.from({ length: frames - 1 }, (_, i) => difference(frame(i), frame(i + 1)));
      const largestStep = Math.max(...steps);
      const wrap = difference(frame(frames - 1), frame(0));
      assert.ok(largestStep > 0.05, `no motion (largest step ${largestStep})`);
      assert.ok(
        wrap <= largestStep * 1.5 + 0.2,
        `seam ${wrap.toFixed(3)} vs largest step ${largestStep.toFixed(3)}`,
      );
    });
  }
});

test('a linear gradient of more than four colours is refused (mirrored, it would exceed eight stops)', () => {
  const colors = ['#000000', '#111111', '#222222', '#333333', '#444444'];
  assert.throws(() => familyGraph({ family: 'gradients', shape: 'linear', colors }, T), /2–8 colours/);
});
