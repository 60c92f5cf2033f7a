import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNiche } from './niches.ts';
import {
  buildClipArgs,
  buildClipGraph,
  generateClip,
  seedFootageRecipes,
  type FootageRecipe,
} from './procedural.ts';
import { detectBlack } from '../ffmpeg/measure.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg, runFfprobe } from '../ffmpeg/runner.ts';

function recipe(id: string): FootageRecipe {
  const found = seedFootageRecipes().find((r) => r.id === id);
  assert.ok(found, id);
  return found;
}

describe('catalogue', () => {
  const recipes = seedFootageRecipes();

  test('about forty recipes across all nine families, ids unique and file-safe', () => {
    assert.ok(recipes.length >= 36 && recipes.length <= 44, String(recipes.length));
    assert.equal(new Set(recipes.map((r) => r.id)).size, recipes.length);
    assert.ok(recipes.every((r) => /^[a-z0-9-]+$/.test(r.id)));
    assert.deepEqual([...new Set(recipes.map((r) => r.family))].sort(), [
      'bokeh',
      'color-field',
      'film-grain',
      'geometric',
      'gradients',
      'light-leaks',
      'liquid',
      'particles',
      'stars',
    ]);
  });

  test('metadata: valid niches, descriptive tags, 6–10 s, family matches the look', () => {
    for (const r of recipes) {
      assert.ok(r.niches.length > 0 && r.niches.every(isNiche), r.id);
      assert.ok(r.tags.length >= 4, r.id);
      assert.ok(r.durationSec >= 6 && r.durationSec <= 10, r.id);
      assert.equal(r.family, r.look.family, r.id);
      assert.ok(r.title.length > 10, r.id);
    }
  });

  test('niche claims stay honest', () => {
    for (const r of recipes) {
      if (r.niches.includes('Space')) assert.equal(r.family, 'stars', r.id);
      if (r.niches.includes('colors/gold')) assert.ok(r.tags.includes('gold'), r.id);
      if (r.niches.includes('overlays/film_grain')) assert.equal(r.family, 'film-grain', r.id);
      if (r.niches.includes('overlays/bokeh')) assert.equal(r.family, 'bokeh', r.id);
      if (r.niches.includes('tech/futurism')) assert.ok(r.tags.includes('grid'), r.id);
      // Nothing generated here shows people, products, places or vehicles.
      for (const n of r.niches)
        assert.doesNotMatch(
          n,
          /^(business|finance|travel|food|urban\/(street|aerial)|realestate|automotive|default|places|gym)/,
          r.id,
        );
    }
  });

  test('a new array each call', () => {
    const a = seedFootageRecipes();
    a[0]!.tags.push('changed');
    assert.ok(!seedFootageRecipes()[0]!.tags.includes('changed'));
  });
});

test('buildClipArgs: exact encoder settings around the graph', () => {
  const r = recipe('gradient-ocean');
  assert.deepEqual(buildClipArgs(r, '/tmp/x.mp4', { durationSec: 2 }), [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-filter_complex',
    buildClipGraph(r, { durationSec: 2 }),
    '-map',
    '[out]',
    '-frames:v',
    '60',
    '-r',
    '30',
    '-g',
    '30',
    '-c:v',
    'libx264',
    '-preset',
    'superfast',
    '-crf',
    '22',
    '-pix_fmt',
    'yuv420p',
    '-colorspace',
    'bt709',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-movflags',
    '+faststart',
    '-an',
    '/tmp/x.mp4',
  ]);
  assert.match(
    buildClipGraph(r, { durationSec: 2 }),
    /;\[base\]scale=out_color_matrix=bt709:out_range=tv,format=yuv420p,scale=1080:1920:flags=bicubic,setsar=1\[out\]$/,
  );
});

describe('real generation (full size, 2 s)', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'footage-gen-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const id of ['liquid-aurora', 'particles-gold-dust', 'geometric-synthwave-grid']) {
    test(id, async () => {
      const out = join(dir, `${id}.mp4`);
      await generateClip(recipe(id), out, { durationSec: 2 });
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.includes('.part')),
        [],
      );

      const info = await probeMedia(out);
      assert.deepEqual(info.video, { width: 1080, height: 1920, fps: 30, codec: 'h264', pixFmt: 'yuv420p' });
      assert.equal(info.audio, undefined);
      assert.ok(Math.abs(info.durationSec - 2) < 0.05, String(info.durationSec));
      const size = statSync(out).size;
      assert.ok(size > 20_000 && size < 2_500_000, `size ${size}`);

      // It moves: consecutive decoded frames differ.
      const md5File = `${out}.framemd5`;
      await runFfmpeg(['-v', 'error', '-y', '-i', out, '-f', 'framemd5', md5File]);
      const hashes = readFileSync(md5File, 'utf8')
        .split('\n')
        .filter((l) => /^\d/.test(l))
        .map((l) => l.split(',').at(-1)!.trim());
      assert.equal(hashes.length, 60);
      const changes = hashes.slice(1).filter((h, i) => h !== hashes[i]).length;
      assert.ok(changes >= 55, `only ${changes} of 59 frame changes`);

      // It is not black.
      assert.deepEqual(await detectBlack(out, { minDuration: 0.1 }), []);

      // A keyframe at least every second, so a scene that starts part-way into the clip decodes at most a second
      // of it to get there.
      const { stdout } = await runFfprobe([
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'frame=key_frame,pts_time',
        '-of',
        'csv=p=0',
        out,
      ]);
      const keyframes = stdout
        .split('\n')
        .map((line) => line.split(','))
        .filter(([key]) => key === '1')
        .map(([, at]) => Math.round(Number(at) * 10) / 10);
      // x264 may add one at a scene change; the gap to the next is still at most a second.
      assert.equal(keyframes[0], 0);
      const gaps = [...keyframes, info.durationSec].slice(1).map((at, i) => at - keyframes[i]!);
      assert.ok(Math.max(...gaps) <= 1.05, `keyframes at ${keyframes.join(', ')} s`);
    });
  }

  test('an aborted generation leaves no file', async () => {
    const out = join(dir, 'aborted.mp4');
    const controller = new AbortController();
    const pending = generateClip(recipe('liquid-ocean'), out, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(pending, { name: 'AbortError' });
    assert.ok(!existsSync(out));
    assert.ok(!existsSync(`${out}.part.mp4`));
  });
});
