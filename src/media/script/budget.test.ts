import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSentScript, countWords, estimateSeconds, scriptBudget } from './budget.ts';

describe('scriptBudget', () => {
  const cases: Array<[number, number, number]> = [
    [15, 1, 25],
    [30, 1, 65],
    [45, 1, 100],
    [60, 1, 135],
    [120, 1, 267],
    [30, 1.2, 78],
    [30, 0.7, 46],
    [60, 1.3, 176],
    [20, 1, 38],
  ];
  for (const [durationSec, voiceSpeed, words] of cases) {
    test(`${durationSec}s at ${voiceSpeed} → ${words} words`, () => {
      const b = scriptBudget({ durationSec, voiceSpeed });
      assert.equal(b.targetWords, words);
      assert.equal(b.minWords, Math.ceil(words * 0.9));
      assert.equal(b.maxWords, Math.floor(words * 1.1));
    });
  }
  test('defaults to 30 s at speed 1', () => assert.equal(scriptBudget({}).targetWords, 65));
  test('rejects durations and speeds outside the API ranges', () => {
    assert.throws(() => scriptBudget({ durationSec: 10, voiceSpeed: 1 }), RangeError);
    assert.throws(() => scriptBudget({ durationSec: 121, voiceSpeed: 1 }), RangeError);
    assert.throws(() => scriptBudget({ durationSec: 30, voiceSpeed: 1.5 }), RangeError);
  });
});

describe('checkSentScript', () => {
  test('a short script fits and gets a duration estimate', () => {
    const r = checkSentScript('Compound interest grows your savings while you sleep.', 1);
    assert.deepEqual(r, { ok: true, words: 8, estimatedSec: 4.8, maxWords: 267 });
  });
  test('65 words at speed 1 take 30 s', () => assert.equal(estimateSeconds(65, 1), 30));
  test('a faster voice fits more words in 120 s', () =>
    assert.equal(checkSentScript('word', 1.3).maxWords, 347));
  test('a script over the 120 s budget is reported, not cut', () => {
    const script = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const r = checkSentScript(script, 1);
    assert.equal(r.ok, false);
    assert.equal(r.words, 300);
    assert.equal(r.maxWords, 267);
    assert.ok(r.estimatedSec > 120);
  });
  test('an empty script does not fit', () => assert.equal(checkSentScript('  ', 1).ok, false));
});

describe('countWords', () => {
  const cases: Array<[string, number]> = [
    ['Hello world.', 2],
    ['Visit taskly.app — today!', 3],
    ['It costs $3.50, e.g. lunch.', 5],
    ['  ', 0],
    ['one\ntwo   three', 3],
  ];
  for (const [text, n] of cases) test(JSON.stringify(text), () => assert.equal(countWords(text), n));
});
