import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONTENT_PURPOSES } from '../script/writer.ts';
import { BASE_WEIGHTS, PURPOSE_MULTIPLIERS, SIGNALS, weightsFor } from './score-weights.ts';

const sum = (w: Record<string, number>) => Object.values(w).reduce((a, b) => a + b, 0);

test('base weights add up to 100 and cover every signal', () => {
  assert.equal(sum(BASE_WEIGHTS), 100);
  assert.deepEqual(Object.keys(BASE_WEIGHTS).sort(), [...SIGNALS].sort());
});

test('every content purpose has steering, and its weights still add up to 100', () => {
  for (const purpose of CONTENT_PURPOSES) {
    assert.ok(PURPOSE_MULTIPLIERS[purpose], purpose);
    assert.ok(Math.abs(sum(weightsFor(purpose)) - 100) < 1e-9, purpose);
  }
});

test('a purpose moves weight towards its signals; unknown purposes use the base weights', () => {
  assert.ok(weightsFor('case_study').numbers > BASE_WEIGHTS.numbers);
  assert.ok(weightsFor('entertainment').emotion > BASE_WEIGHTS.emotion);
  assert.ok(weightsFor('entertainment').numbers < BASE_WEIGHTS.numbers);
  assert.deepEqual(weightsFor('unknown'), { ...BASE_WEIGHTS });
  assert.deepEqual(weightsFor(undefined), { ...BASE_WEIGHTS });
});
