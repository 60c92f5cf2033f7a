import assert from 'node:assert/strict';
import { test } from 'node:test';
import { providerQueries } from './provider-footage.ts';

const scenes = [
  'Compound interest grows your savings every single year.',
  'The money you leave alone starts working for you.',
  'Compound interest grows quietly.',
  'So start today.',
  'Even 50 dollars a month adds up over 30 years.',
];

void test('the footage keywords come first, then each scene’s first content words, without repeats', () => {
  assert.deepEqual(providerQueries(scenes, ['piggy bank', 'coins']), [
    'piggy bank coins',
    'compound interest grows',
    'money leave alone',
    'start today',
  ]);
});

void test('without keywords every query comes from a scene; numbers and stop words never make a query', () => {
  assert.deepEqual(providerQueries(scenes, [], 10), [
    'compound interest grows',
    'money leave alone',
    'start today',
    'dollars month adds',
  ]);
});

void test('nothing to search for gives no query', () => {
  assert.deepEqual(providerQueries(['It is what it is.'], []), []);
});
