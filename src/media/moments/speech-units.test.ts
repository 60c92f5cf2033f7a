import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timedWords } from '../../../test/support/long-video-fixture.ts';
import { splitSpeechUnits } from './speech-units.ts';

test('units end at sentence punctuation and at pauses', () => {
  const words = timedWords(['Why is this so hard?', 'and then it works', 'Numbers: ninety percent.'], {
    sentenceGapSec: [0.1, 0.4, 0.5],
  });
  // No pause after the question, but its "?" ends a unit; the 0.4 s pause ends the second.
  const units = splitSpeechUnits(words, 20);
  assert.deepEqual(
    units.map((u) => u.tokens.join(' ')),
    ['why is this so hard', 'and then it works', 'numbers ninety percent'],
  );
  assert.equal(units[0]!.question, true);
  assert.equal(units[0]!.gapBefore, 0.5);
  assert.equal(units[1]!.startsOnConnective, true);
  assert.equal(units[1]!.endsSentence, false);
  assert.equal(units[2]!.numbers, 1);
  assert.equal(units[2]!.endsSentence, true);
  assert.ok(Math.abs(units[2]!.gapAfter - (20 - units[2]!.end)) < 1e-9);
});

test('without punctuation, pauses alone cut and question words mark questions', () => {
  const words = timedWords(['why do people never save', 'most people spend it all', 'and that is the'], {
    sentenceGapSec: 0.6,
  });
  const units = splitSpeechUnits(words, 30);
  assert.equal(units.length, 3);
  assert.deepEqual(
    units.map((u) => u.question),
    [true, false, false],
  );
  assert.equal(units[1]!.claims, 1);
  assert.equal(units[2]!.endsDangling, true);
});

test('a unit longer than the limit is split at its widest inner silence', () => {
  const sentence = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  const words = timedWords([sentence], { wordSec: 0.3, wordGapSec: 0.02 });
  // Widen one gap in the middle: that is where the split goes.
  for (let i = 31; i < words.length; i++) {
    words[i] = { ...words[i]!, start: words[i]!.start + 0.2, end: words[i]!.end + 0.2 };
  }
  const units = splitSpeechUnits(words, 30);
  assert.equal(units.length, 2);
  assert.equal(units[0]!.last, 30);
  assert.equal(units[1]!.first, 31);
});

test('no words, no units', () => {
  assert.deepEqual(splitSpeechUnits([], 10), []);
});
