import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { seedMusicRecipes } from './beds.ts';
import { bedFiles, seedMusicLibrary, type MusicSeedProgress } from './seed.ts';

// The bed with the shortest render.
const RECIPES = seedMusicRecipes().filter((b) => b.id === 'energetic-drive');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'music-seed-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('file names carry a hash of the recipe and the generator: an edited recipe is a new bed', () => {
  const [drive] = RECIPES;
  const files = bedFiles('/lib/music', drive!);
  assert.match(files.loop, /^\/lib\/music\/energetic-drive\.[0-9a-f]{10}\.m4a$/);
  assert.equal(files.intro, files.loop.replace(/\.m4a$/, '.intro.m4a'));
  assert.equal(files.outro, files.loop.replace(/\.m4a$/, '.outro.m4a'));
  assert.deepEqual(bedFiles('/lib/music', structuredClone(drive!)), files);
  const faster = { ...drive!, bpm: 124 };
  assert.notEqual(bedFiles('/lib/music', faster).loop, files.loop);
  const retitled = { ...drive!, title: 'Another title', folders: ['gym'] };
  assert.equal(bedFiles('/lib/music', retitled).loop, files.loop);
});

test('renders a missing bed once and keeps it afterwards; a stale file of the same id is not taken', async () => {
  // What an older generator left: a file named after the bed alone.
  await writeFile(join(dir, 'energetic-drive.m4a'), 'old tone bed');
  const progress: MusicSeedProgress[] = [];
  const [bed] = await seedMusicLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => [p.id, p.index, p.total, p.status]),
    [['energetic-drive', 1, 1, 'generated']],
  );
  assert.ok(bed);
  const files = bedFiles(dir, RECIPES[0]!);
  assert.deepEqual([bed.path, bed.introPath, bed.outroPath], [files.loop, files.intro, files.outro]);
  assert.equal(bed.durationSec, 16);
  assert.deepEqual(
    [bed.sections.loopSamples, bed.sections.introSamples, bed.sections.barSamples],
    [768000, 192000, 96000],
  );
  assert.deepEqual([bed.mood, bed.bpm, bed.title], ['energetic', 120, 'Drive']);
  assert.equal(
    bed.sizeBytes,
    [files.intro, files.loop, files.outro].reduce((sum, p) => sum + statSync(p).size, 0),
  );
  assert.deepEqual(
    readdirSync(dir).sort(),
    ['energetic-drive.m4a', basename(files.intro), basename(files.loop), basename(files.outro)].sort(),
  );

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

test('a bed with a missing outro is made again', async () => {
  const files = bedFiles(dir, RECIPES[0]!);
  await rm(files.outro);
  const progress: MusicSeedProgress[] = [];
  await seedMusicLibrary(dir, { recipes: RECIPES, onProgress: (p) => progress.push(p) });
  assert.deepEqual(
    progress.map((p) => p.status),
    ['generated'],
  );
  assert.ok(statSync(files.outro).size > 0);
});
