import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BM25_PARAMETERS, Bm25Index } from './bm25.ts';

const docs = [
  ['tax', 'deadline', 'small', 'business'],
  ['oil', 'price', 'opec'],
  ['tax', 'tax', 'tax', 'refund'],
  ['festival', 'lineup', 'headliner', 'tax', 'music', 'stage', 'crowd', 'ticket'],
];

test('idf follows ln(1 + (N - n + 0.5) / (n + 0.5)) and is never negative', () => {
  const index = new Bm25Index(docs);
  assert.ok(Math.abs(index.idf('tax') - Math.log(1 + (4 - 3 + 0.5) / 3.5)) < 1e-12);
  assert.ok(Math.abs(index.idf('oil') - Math.log(1 + 3.5 / 1.5)) < 1e-12);
  assert.ok(Math.abs(index.idf('absent') - Math.log(1 + 4.5 / 0.5)) < 1e-12);
  const everywhere = new Bm25Index([['a'], ['a'], ['a']]);
  assert.ok(everywhere.idf('a') > 0);
  assert.equal(index.unit, index.idf('oil'));
});

test('a single match at average length, weight 1, scores exactly idf', () => {
  // Every document the same length, so dl = avgdl and the term-frequency part is tf(k1+1)/(tf+k1) = 1.
  const index = new Bm25Index([
    ['a', 'b'],
    ['c', 'd'],
  ]);
  const { score, matched } = index.score(new Map([['a', 1]]), 0);
  assert.ok(Math.abs(score - index.idf('a')) < 1e-12);
  assert.deepEqual(
    matched.map((m) => m.term),
    ['a'],
  );
});

test('more matched terms, rarer terms and shorter documents score higher; repeats saturate', () => {
  const index = new Bm25Index(docs);
  const query = new Map([
    ['tax', 1],
    ['deadline', 1],
    ['business', 1],
  ]);
  const scores = docs.map((_, i) => index.score(query, i).score);
  assert.ok(scores[0]! > scores[2]!, 'three distinct words beat one word said three times');
  assert.ok(scores[2]! > scores[3]!, 'the same word in a long document counts less');
  assert.equal(scores[1], 0);
  const once = new Bm25Index([
    ['x', 'y', 'z'],
    ['q', 'r', 's'],
  ]).score(new Map([['x', 1]]), 0).score;
  const thrice = new Bm25Index([
    ['x', 'x', 'x'],
    ['q', 'r', 's'],
  ]).score(new Map([['x', 1]]), 0).score;
  assert.ok(thrice > once && thrice < 3 * once, `${once} → ${thrice}`);
  assert.ok(thrice < once * (BM25_PARAMETERS.k1 + 1), 'bounded by k1 + 1 times one occurrence');
});

test('query weights saturate with k3 and order the matched terms by contribution', () => {
  const index = new Bm25Index(docs);
  assert.equal(index.queryWeight(1), 1);
  assert.ok(index.queryWeight(2) < 2 && index.queryWeight(2) > 1);
  assert.ok(index.queryWeight(100) < BM25_PARAMETERS.k3 + 1);
  const { matched } = index.score(
    new Map([
      ['small', 0.5],
      ['deadline', 3],
    ]),
    0,
  );
  assert.deepEqual(
    matched.map((m) => m.term),
    ['deadline', 'small'],
  );
});
