import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frameTopic, MAX_KEY_PHRASE_WORDS } from './topic-frame.ts';

test('a noun phrase is its own key phrase, a capital that only opens the topic lowered', () => {
  assert.deepEqual(frameTopic('electric cars'), { keyPhrase: 'electric cars', kind: 'subject' });
  assert.deepEqual(frameTopic('The history of the Roman Empire'), {
    keyPhrase: 'the history of the Roman Empire',
    kind: 'subject',
  });
  assert.deepEqual(frameTopic('Dogs'), { keyPhrase: 'dogs', kind: 'subject' });
  assert.equal(frameTopic("Taylor Swift's new album").keyPhrase, "Taylor Swift's new album");
  assert.equal(frameTopic('NASA Artemis moon mission').keyPhrase, 'NASA Artemis moon mission');
  assert.equal(frameTopic('iPhone 16 battery life').keyPhrase, 'iPhone 16 battery life');
});

test('verb-looking nouns stay noun phrases: "index funds", "the Fed raising interest rates"', () => {
  assert.deepEqual(frameTopic('index funds'), { keyPhrase: 'index funds', kind: 'subject' });
  assert.deepEqual(frameTopic('interest rates'), { keyPhrase: 'interest rates', kind: 'subject' });
  assert.deepEqual(frameTopic('the Fed raising interest rates'), {
    keyPhrase: 'the Fed raising interest rates',
    kind: 'subject',
  });
  assert.deepEqual(frameTopic('learning Spanish fast'), {
    keyPhrase: 'learning Spanish fast',
    kind: 'subject',
  });
});

test('"how to …" and a bare verb phrase are actions', () => {
  assert.deepEqual(frameTopic('How to start investing in index funds'), {
    keyPhrase: 'start investing in index funds',
    kind: 'action',
  });
  assert.deepEqual(frameTopic('bake sourdough bread'), { keyPhrase: 'bake sourdough bread', kind: 'action' });
});

test('an embedded question reads as a phrase; a direct one is kept and its subject found', () => {
  assert.deepEqual(frameTopic('Why sleep matters for athletes'), {
    keyPhrase: 'why sleep matters for athletes',
    kind: 'subject',
  });
  assert.deepEqual(frameTopic('why you should start investing early'), {
    keyPhrase: 'why you should start investing early',
    kind: 'subject',
  });
  assert.deepEqual(frameTopic('Is coffee bad for you?'), {
    keyPhrase: 'coffee',
    kind: 'subject',
    question: 'is coffee bad for you',
  });
  assert.equal(frameTopic('why do cats purr').keyPhrase, 'cats');
  assert.equal(frameTopic('how does inflation work').keyPhrase, 'inflation');
  assert.equal(frameTopic('what is quantitative easing').keyPhrase, 'quantitative easing');
  assert.equal(frameTopic('how much protein do you need').keyPhrase, 'protein');
  assert.deepEqual(frameTopic('should you rent or buy a home'), {
    keyPhrase: 'rent or buy a home',
    kind: 'action',
    question: 'should you rent or buy a home',
  });
});

test('a statement keeps its claim and names its subject', () => {
  assert.deepEqual(frameTopic('Tesla cuts prices in China'), {
    keyPhrase: 'Tesla',
    kind: 'subject',
    claim: 'Tesla cuts prices in China',
  });
  assert.deepEqual(frameTopic('the Fed raised interest rates'), {
    keyPhrase: 'the Fed',
    kind: 'subject',
    claim: 'the Fed raised interest rates',
  });
});

test('only the first sentence before a colon is read, and a long phrase is cut at a phrase boundary', () => {
  assert.equal(
    frameTopic('Apple unveils the new iPhone: what changed').claim,
    'Apple unveils the new iPhone',
  );
  assert.equal(frameTopic('Meal prep. Also mention freezer tips.').keyPhrase, 'meal prep');
  const long = frameTopic(
    'The Surprising Economics of Running a Small Bakery in New York City During a Recession',
  ).keyPhrase;
  assert.equal(long, 'The Surprising Economics of Running a Small Bakery');
  assert.ok(long.split(' ').length <= MAX_KEY_PHRASE_WORDS);
});

test('text compromise cannot tag is still used whole', () => {
  assert.deepEqual(frameTopic('東京オリンピック'), { keyPhrase: '東京オリンピック', kind: 'subject' });
  assert.deepEqual(frameTopic('"Minimalism"'), { keyPhrase: 'minimalism', kind: 'subject' });
});
