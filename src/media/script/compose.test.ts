import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candidate, diversify, fitToBudget, type BeatOptions } from './compose.ts';

const beats: BeatOptions[] = [
  { id: 'a', candidates: [candidate('One two three.', 0), candidate('One two three four five six.', 1)] },
  { id: 'b', candidates: [candidate('Seven eight.', 0)], omitPenalty: 10 },
  { id: 'c', candidates: [candidate('Nine ten eleven twelve.', 0)], omitPenalty: 2 },
];

test('fits the target exactly when a combination allows it', () => {
  assert.deepEqual(fitToBudget(beats, 9), [0, 0, 0]);
  assert.deepEqual(fitToBudget(beats, 12), [1, 0, 0]);
});

test('drops the least important optional beat first', () => {
  assert.deepEqual(fitToBudget(beats, 5), [0, 0, -1]);
});

test('a required beat is always said', () => {
  assert.equal(fitToBudget(beats, 1)[0]! >= 0, true);
});

test('diversify avoids repeating an opener', () => {
  const lines: BeatOptions[] = [
    { id: 'x', candidates: [candidate('Here is the claim: rates rise.', 0)] },
    {
      id: 'y',
      candidates: [candidate('Here is more on rates.', 0), candidate('Also worth knowing today.', 1)],
      omitPenalty: 5,
    },
  ];
  assert.deepEqual(diversify(lines, [0, 0], 10), [0, 1]);
});

test('a line rule is followed when the budget allows it', () => {
  // Rule: the line "Nine ten eleven twelve." must be said.
  const rule = {
    size: 2,
    initial: 0,
    step: (s: number, t: string) => (t.startsWith('Nine') ? 1 : s),
    accepts: (s: number) => s === 1,
  };
  assert.deepEqual(fitToBudget(beats, 5), [0, 0, -1]);
  assert.deepEqual(fitToBudget(beats, 5, rule), [0, -1, 0]);
});
