import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentions, primaryKeyword, secondaryKeywords, slugify } from './keywords.ts';

test('the primary keyword is the brief’s subject; a list brief keeps its main noun; the pillar stands in', () => {
  assert.equal(primaryKeyword({ topic: 'how compound interest grows savings' }), 'compound interest');
  assert.equal(primaryKeyword({ topic: 'Why sleep matters for athletes' }), 'sleep');
  assert.equal(primaryKeyword({ topic: '5 mistakes beginners make with sourdough' }), 'sourdough');
  assert.equal(primaryKeyword({ topic: 'floating solar farm' }), 'floating solar farm');
  assert.equal(primaryKeyword({ pillar: 'personal finance' }), 'personal finance');
});

test('secondary keywords: the pillar first, then noun phrases, without the primary keyword or repeats', () => {
  assert.deepEqual(
    secondaryKeywords(
      'compound interest',
      { topic: 'how compound interest grows savings', pillar: 'personal finance' },
      ['Savings', 'High-yield savings accounts explained for first-time savers in their twenties'],
    ),
    ['personal finance', 'savings', 'High-yield savings', 'first-time savers', 'twenties'],
  );
});

test('mentions: whole words, any case, the last word singular or plural', () => {
  assert.equal(mentions('Five Compost Bins Compared', 'compost bin'), true);
  assert.equal(mentions('A compost bin guide', 'compost bins'), true);
  assert.equal(mentions('Composting binary files', 'compost bin'), false);
  assert.equal(mentions('', 'compost bin'), false);
});

test('slugs are lower-case ASCII words joined by hyphens, at most 60 characters, cut at a word', () => {
  assert.equal(slugify('Crème Brûlée: 5 Tips!'), 'creme-brulee-5-tips');
  assert.equal(slugify("Beginner's guide"), 'beginners-guide');
  const long = slugify(
    'a very long keyword phrase that keeps going well past the sixty character limit of slugs',
  );
  assert.ok(long.length <= 60 && !long.endsWith('-'), long);
  assert.equal(long, 'a-very-long-keyword-phrase-that-keeps-going-well-past-the');
  assert.equal(slugify('日本語'), '');
});
