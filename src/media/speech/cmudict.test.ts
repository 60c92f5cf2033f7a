import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCmuDict, parseCmuDict } from './cmudict.ts';
import { DEBIAN_EN_US_MODEL, DEBIAN_MODEL_ROOT } from './model.ts';

void test('parseCmuDict groups alternate pronunciations under the word, skipping comments and blanks', () => {
  const dict = parseCmuDict(
    ";;; comment line\ntoday T AH D EY\ntoday(2) T UW D EY\n\n  don't   D OW N T \r\nlonely\n",
  );
  assert.deepEqual(dict.get('today'), [
    ['T', 'AH', 'D', 'EY'],
    ['T', 'UW', 'D', 'EY'],
  ]);
  assert.deepEqual(dict.get("don't"), [['D', 'OW', 'N', 'T']]);
  assert.equal(dict.size, 2);
  assert.ok(dict.has('today'));
  assert.equal(dict.has('lonely'), false);
  assert.equal(dict.get('lonely'), undefined);
});

void test('each lookup returns fresh arrays, so a caller changing them cannot change the dictionary', () => {
  const dict = parseCmuDict(Buffer.from('the DH AH\nthe(2) DH IY\n'));
  const first = dict.get('the') as string[][];
  first[0]!.push('Z');
  first.pop();
  assert.deepEqual(dict.get('the'), [
    ['DH', 'AH'],
    ['DH', 'IY'],
  ]);
});

void test('the installed en-us dictionary loads once and knows common words', async () => {
  const [dict, again] = await Promise.all([
    loadCmuDict(DEBIAN_EN_US_MODEL.dictPath),
    loadCmuDict(DEBIAN_EN_US_MODEL.dictPath),
  ]);
  assert.equal(dict, again);
  assert.equal(await loadCmuDict(DEBIAN_EN_US_MODEL.dictPath), dict);
  // Callers build the path from a model directory; another spelling of the same file shares the one copy.
  assert.equal(await loadCmuDict(`${DEBIAN_MODEL_ROOT}/./cmudict-en-us.dict`), dict);
  assert.ok(dict.size > 100_000);
  assert.deepEqual(dict.get('quick'), [['K', 'W', 'IH', 'K']]);
  assert.equal(dict.get('read')?.length, 2);
});

void test('a dictionary that cannot be read is retried on the next load', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cmudict-'));
  try {
    const path = join(dir, 'words.dict');
    await assert.rejects(loadCmuDict(path), { code: 'ENOENT' });
    await writeFile(path, 'hello HH AH L OW\n');
    assert.deepEqual((await loadCmuDict(path)).get('hello'), [['HH', 'AH', 'L', 'OW']]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
