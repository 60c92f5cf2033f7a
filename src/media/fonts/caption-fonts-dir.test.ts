import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { captionFontsDir, prepareCaptionFonts } from './caption-fonts-dir.ts';
import { SHIPPED_FONT_FAMILIES, shippedFontFiles } from './font-catalogue.ts';

describe('the caption fonts folder', () => {
  let cache = '';
  before(async () => {
    cache = await mkdtemp(join(tmpdir(), 'rs-fonts-'));
  });
  after(async () => {
    await rm(cache, { recursive: true, force: true });
  });

  test('holds exactly the shipped files, byte for byte', async () => {
    const dir = await prepareCaptionFonts(cache);
    assert.equal(dirname(dir), join(cache, 'fonts'));
    assert.match(basename(dir), /^caption-fonts-[0-9a-f]{16}$/);
    const files = SHIPPED_FONT_FAMILIES.flatMap(shippedFontFiles);
    assert.deepEqual((await readdir(dir)).sort(), files.map((f) => f.name).sort());
    for (const file of files)
      assert.deepEqual(await readFile(join(dir, file.name)), await readFile(file.path), file.name);
  });

  test('is made once: later calls and later processes reuse it untouched', async () => {
    const dir = await prepareCaptionFonts(cache);
    const sample = join(dir, 'bebas-neue-latin-400-normal.woff');
    const before = await stat(sample);
    assert.equal(await prepareCaptionFonts(cache), dir);
    assert.equal(await captionFontsDir(cache), dir);
    const later = await stat(sample);
    assert.equal(later.ino, before.ino);
    assert.equal(later.mtimeMs, before.mtimeMs);
    assert.deepEqual(await readdir(join(cache, 'fonts')), [basename(dir)]);
  });

  test('one process asks once; concurrent first calls in several processes end with one folder', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'rs-fonts-race-'));
    try {
      const dirs = await Promise.all([
        prepareCaptionFonts(fresh),
        prepareCaptionFonts(fresh),
        prepareCaptionFonts(fresh),
      ]);
      assert.equal(new Set(dirs).size, 1);
      // No staging folders are left behind by the racers that lost.
      assert.deepEqual(await readdir(join(fresh, 'fonts')), [basename(dirs[0])]);
      assert.equal(captionFontsDir(fresh), captionFontsDir(fresh));
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
