import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedMusicRecipes } from './beds.ts';
import { seedMusicLibrary, type MusicSeedProgress } from './seed.ts';

// The bed with the shortest chord cycle renders fastest.
const RECIPES = seedMusicRecipes().filter((b) => b.id === 'energetic-drive');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'music-seed-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('renders a missing bed once and keeps it afterwards', async () => {
  const progress: MusicSeedProgress[] = [];
  const [bed] = await seedMusicLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => [p.id, p.index, p.total, p.status]),
    [['energetic-drive', 1, 1, 'generated']],
  );
  assert.ok(bed);
  assert.equal(bed.path, join(dir, 'energetic-drive.m4a'));
  assert.ok(Math.abs(bed.durationSec - 72) < 0.2, String(bed.durationSec));
  assert.deepEqual([bed.mood, bed.bpm, bed.title], ['energetic', 120, 'Drive']);
  assert.equal(bed.sizeBytes, statSync(bed.path).size);
  assert.deepEqual(readdirSync(dir), ['energetic-drive.m4a']);

  const modified = statSync(bed.path).mtimeMs;
  progress.length = 0;
  const [again] = await seedMusicLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => p.status),
    ['existing'],
  );
  assert.equal(statSync(bed.path).mtimeMs, modified);
  assert.deepEqual(again, bed);
});
