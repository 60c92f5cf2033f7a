import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KIT_ID_PATTERN, newKitId } from './kit-ids.ts';

test('kit ids are 24 hex characters that sort by creation, even within one millisecond', () => {
  const ids = Array.from({ length: 500 }, () => newKitId(1_700_000_000_000));
  for (const id of ids) assert.match(id, KIT_ID_PATTERN);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  const later = newKitId(1_700_000_000_001);
  assert.ok(later > ids[ids.length - 1]!);
  assert.equal(parseInt(later.slice(0, 12), 16), 1_700_000_000_001);
});

test('a clock that steps back does not make an id sort before an earlier one', () => {
  const first = newKitId(1_800_000_000_000);
  const second = newKitId(1_799_999_999_000);
  assert.ok(second > first);
});
