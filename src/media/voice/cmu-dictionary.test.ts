import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCmuDictionary, parseCmuDictionary } from './cmu-dictionary.ts';

void test('parseCmuDictionary groups alternate pronunciations under the word', () => {
  const dict = parseCmuDictionary("today T AH D EY\ntoday(2) T UW D EY\ndon't D OW N T\n\n");
  assert.deepEqual(
    [...dict.entries()],
    [
      ['today', ['T AH D EY', 'T UW D EY']],
      ["don't", ['D OW N T']],
    ],
  );
});

void test('the installed en-us dictionary loads once and knows common words', async () => {
  const [dict, again] = await Promise.all([loadCmuDictionary(), loadCmuDictionary()]);
  assert.equal(dict, again);
  assert.ok(dict.size > 100_000);
  assert.deepEqual(dict.get('quick'), ['K W IH K']);
});
