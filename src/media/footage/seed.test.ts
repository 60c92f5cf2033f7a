import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedFootageRecipes, type FootageRecipe } from './procedural.ts';
import { seedLibrary, type SeedProgress } from './seed.ts';

// Two real recipes shortened to one second keep the test quick.
const RECIPES: FootageRecipe[] = seedFootageRecipes()
  .filter((r) => r.id === 'gradient-sunset' || r.id === 'geometric-violet-rings')
  .map((r) => ({ ...r, durationSec: 1 }));

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'footage-seed-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('seeds missing clips, keeps complete ones, replaces broken ones', async () => {
  const progress: SeedProgress[] = [];
  const first = await seedLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => [p.id, p.index, p.total, p.status]),
    [
      ['gradient-sunset', 1, 2, 'generated'],
      ['geometric-violet-rings', 2, 2, 'generated'],
    ],
  );
  assert.deepEqual(
    first.map((c) => c.id),
    ['gradient-sunset', 'geometric-violet-rings'],
  );
  for (const clip of first) {
    assert.equal(clip.path, join(dir, `${clip.id}.mp4`));
    assert.ok(Math.abs(clip.durationSec - 1) < 0.05);
    assert.equal(clip.sizeBytes, statSync(clip.path).size);
    assert.equal(clip.source, 'generated');
    assert.ok(clip.tags.length > 0 && clip.niches.length > 0);
  }
  assert.deepEqual(readdirSync(dir).sort(), ['geometric-violet-rings.mp4', 'gradient-sunset.mp4']);

  const sunsetTime = statSync(first[0]!.path).mtimeMs;
  await writeFile(first[1]!.path, 'not a video');
  progress.length = 0;
  const second = await seedLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => p.status),
    ['existing', 'generated'],
  );
  assert.equal(statSync(first[0]!.path).mtimeMs, sunsetTime);
  assert.deepEqual(
    second.map((c) => c.id),
    first.map((c) => c.id),
  );
  assert.ok(second[1]!.sizeBytes > 1000);
});

test('an aborted seed stops and leaves no partial files', async () => {
  const controller = new AbortController();
  const other = join(dir, 'aborted');
  const pending = seedLibrary(other, { recipes: RECIPES, signal: controller.signal });
  setTimeout(() => controller.abort(), 150);
  await assert.rejects(pending, { name: 'AbortError' });
  assert.deepEqual(
    readdirSync(other).filter((f) => f.includes('.part')),
    [],
  );
});
