import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { contentStems, contentTerms, exclusionTest, phraseMatcher, stem, tokenize } from './text-match.ts';

describe('tokenize', () => {
  const cases: [string, string[]][] = [
    ["Don't stop — it's 2024!", ['dont', 'stop', 'its', '2024']],
    ['Café crème', ['cafe', 'creme']],
    ['e-commerce/online', ['e', 'commerce', 'online']],
    ['', []],
  ];
  for (const [input, expected] of cases)
    test(JSON.stringify(input), () => assert.deepEqual(tokenize(input), expected));
});

describe('stem brings inflections together', () => {
  const pairs: [string, string][] = [
    ['cars', 'car'],
    ['parties', 'party'],
    ['boxes', 'box'],
    ['driving', 'drive'],
    ['stopped', 'stop'],
    ['running', 'run'],
    ['traders', 'trader'],
    ['glasses', 'glass'],
    ['coding', 'code'],
  ];
  for (const [a, b] of pairs) test(`${a} ~ ${b}`, () => assert.equal(stem(a), stem(b)));

  const apart: [string, string][] = [
    ['car', 'carpet'],
    ['star', 'start'],
    ['string', 'str'],
  ];
  for (const [a, b] of apart) test(`${a} !~ ${b}`, () => assert.notEqual(stem(a), stem(b)));

  test('short and -ss words are left alone', () => {
    assert.equal(stem('bus'), 'bus');
    assert.equal(stem('gas'), 'gas');
    assert.equal(stem('class'), 'class');
    assert.equal(stem('speed'), 'speed');
  });
});

test('contentStems drops stop words and bare numbers', () => {
  assert.deepEqual(contentStems('The 3 best ways to save money in your twenties'), [
    'best',
    'sav',
    'money',
    'twenty',
  ]);
});

test('contentTerms keeps each content word beside its stem', () => {
  assert.deepEqual(contentTerms('Driving 3 cars to the parties'), [
    { word: 'driving', stem: 'driv' },
    { word: 'cars', stem: 'car' },
    { word: 'parties', stem: 'party' },
  ]);
});

describe('phrase exclusion', () => {
  const cases: { phrase: string; text: string; match: boolean }[] = [
    { phrase: 'car', text: 'red car at night', match: true },
    { phrase: 'car', text: 'Cars on a highway', match: true },
    { phrase: 'car', text: 'carpet texture', match: false },
    { phrase: 'car', text: 'sidecar', match: false },
    { phrase: 'cars', text: 'vintage car', match: true },
    { phrase: 'party', text: 'rooftop parties', match: true },
    { phrase: 'parties', text: 'birthday party', match: true },
    { phrase: 'box', text: 'boxes stacked', match: true },
    { phrase: 'glass', text: 'glasses of wine', match: true },
    { phrase: 'sports car', text: 'two red sports cars', match: true },
    { phrase: 'sports car', text: 'sports fans in a car', match: false },
    { phrase: 'sports car', text: 'sports carpet', match: false },
    { phrase: 'light leak', text: 'Light-leak overlay', match: true },
    { phrase: 'Gold', text: 'golden glow', match: false },
    { phrase: 'bus', text: 'city buses', match: true },
    { phrase: 'bus', text: 'business office', match: false },
  ];
  for (const c of cases) {
    test(`'${c.phrase}' vs '${c.text}'`, () => assert.equal(phraseMatcher(c.phrase)!(c.text), c.match));
  }

  test('a phrase with no words matches nothing', () => assert.equal(phraseMatcher(' - '), undefined));

  test('exclusionTest reports the first phrase that hits any text', () => {
    const excludedBy = exclusionTest(['car', '', 'particle', 'dust']);
    assert.equal(excludedBy(['Gold dust', 'particles', 'glow']), 'particle');
    assert.equal(excludedBy(['Sports cars']), 'car');
    assert.equal(excludedBy(['carpet']), undefined);
    assert.equal(exclusionTest([])(['anything']), undefined);
  });
});
