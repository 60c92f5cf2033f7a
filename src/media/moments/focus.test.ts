import assert from 'node:assert/strict';
import { test } from 'node:test';
import { focusRelevance, focusTerms } from './focus.ts';

test('focus terms are stemmed content words', () => {
  assert.deepEqual(focusTerms('Moments about saving money for retirement'), ['sav', 'money', 'retirement']);
  assert.deepEqual(focusTerms('the parts where they talk about it'), []);
  assert.deepEqual(focusTerms(undefined), []);
});

test('relevance blends coverage of the terms with mention density', () => {
  const terms = focusTerms('saving money');
  assert.equal(focusRelevance('we talk about the weather'.split(' '), terms, 20), 0);
  const one = focusRelevance('i saved a little'.split(' '), terms, 30);
  const both = focusRelevance('i saved money and more money'.split(' '), terms, 30);
  assert.ok(one > 0 && both > one, `${one} < ${both}`);
  // Half the terms, one mention in 30 s: 0.7 · 0.5 + 0.3 · (1 / 3).
  assert.ok(Math.abs(one - (0.35 + 0.1)) < 1e-9);
  assert.equal(focusRelevance(['money'], [], 10), 0);
});
