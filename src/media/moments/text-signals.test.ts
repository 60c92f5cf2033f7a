import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countEmotion,
  countFillers,
  countNumbers,
  countPhrases,
  firstPhrase,
  HOOK_PHRASES,
  isQuestion,
  normalizeToken,
  stem,
} from './text-signals.ts';

const tokens = (text: string) => text.split(' ').map(normalizeToken);

describe('normalizeToken', () => {
  for (const [raw, expected] of [
    ['Hello,', 'hello'],
    ['“Don’t', "don't"],
    ['rich?', 'rich'],
    ['$10', '$10'],
    ['90%', '90%'],
    ['...', ''],
  ] as const) {
    test(`${raw} → ${expected}`, () => assert.equal(normalizeToken(raw), expected));
  }
});

describe('stem', () => {
  for (const [word, expected] of [
    ['saving', 'sav'],
    ['savings', 'sav'],
    ['saved', 'sav'],
    ['saves', 'sav'],
    ['running', 'run'],
    ['businesses', 'business'],
    ['stories', 'story'],
    ['phones', 'phon'],
    ['phone', 'phon'],
    ['happily', 'happi'],
    ['bus', 'bus'],
    ['cat', 'cat'],
  ] as const) {
    test(`${word} → ${expected}`, () => assert.equal(stem(word), expected));
  }
});

describe('countNumbers', () => {
  for (const [text, expected] of [
    ['three thousand six hundred dollars in one year', 1],
    ['ninety percent fail within five years', 2],
    ['one hundred and twenty people', 1],
    ['the one thing that matters', 0],
    ['twenty one days and 90% of 3 cases', 3],
    ['no numbers here at all', 0],
  ] as const) {
    test(`"${text}" has ${expected}`, () => assert.equal(countNumbers(tokens(text)), expected));
  }
});

test('emotion words count by stem, intensifiers half', () => {
  assert.equal(countEmotion(tokens('I loved it and was terrified')), 2);
  assert.equal(countEmotion(tokens('it was really amazing')), 1.5);
  assert.equal(countEmotion(tokens('the table is brown')), 0);
});

test('fillers: single words and pairs', () => {
  assert.equal(countFillers(tokens('um so you know it is kind of basically done')), 4);
  assert.equal(countFillers(tokens('I know the kind that works')), 0);
});

test('phrases are matched on whole tokens', () => {
  assert.equal(countPhrases(tokens('here is the truth nobody tells you'), HOOK_PHRASES), 3);
  assert.equal(firstPhrase(tokens('so here is the deal'), HOOK_PHRASES), 1);
  assert.equal(firstPhrase(tokens('the table is brown'), HOOK_PHRASES), -1);
});

describe('isQuestion', () => {
  for (const [text, expected] of [
    ['Why do people never save?', true],
    ['why do people never save', true],
    ['have you seen this', true],
    ['It works, right?', true],
    ['Why it works is simple.', false],
    ['this is how it works', false],
  ] as const) {
    test(`"${text}" → ${expected}`, () => {
      const raw = text.split(' ');
      const punctuated = /[.!]$/.test(text);
      assert.equal(isQuestion(raw[raw.length - 1]!, tokens(text), punctuated), expected);
    });
  }
});
