import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findFigures } from '../../media/script/figures.ts';
import type { HookCandidate } from './hook-formats.ts';
import { statesNewFigure } from './hook-service.ts';
import { contentTokens, NearDuplicateFilter, tokenSimilarity } from './near-duplicates.ts';
import { rankHooks } from './rank-hooks.ts';

const TOPIC = 'sleep for athletes';
const options = (count: number) => ({
  count,
  platform: 'shortsite' as const,
  keyPhrase: TOPIC,
  topic: TOPIC,
});

test('content tokens leave out stop words and the topic, and fold a plural', () => {
  const topicWords = contentTokens(TOPIC);
  assert.deepEqual([...topicWords].sort(), ['athlete', 'sleep']);
  assert.deepEqual([...contentTokens('3 mistakes athletes make with sleep', topicWords)].sort(), [
    '3',
    'make',
    'mistake',
  ]);
  assert.equal(tokenSimilarity(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
});

test('near-duplicates: punctuation, case, plurals and the topic words do not make hooks different', () => {
  const filter = new NearDuplicateFilter(TOPIC);
  assert.equal(filter.admit('Stop scrolling if you care about sleep for athletes.'), true);
  assert.equal(filter.admit('STOP scrolling if you care about sleep for athletes!'), false);
  assert.equal(filter.admit('Stop scrolling now if you care about sleep for athletes.'), false);
  assert.equal(filter.admit('What are you missing about sleep for athletes?'), true);
  assert.equal(filter.admit('3 mistakes athletes make with sleep.'), true);
  assert.equal(filter.admit('3 mistake athletes make with their sleep'), false);
});

test('ranked best first, alike hooks dropped, and a short list spreads over formats', () => {
  const candidates: HookCandidate[] = [
    { format: 'question', text: 'What are you missing about sleep for athletes?' },
    { format: 'question', text: 'What are you really missing about sleep for athletes?' },
    { format: 'question', text: 'Do you really understand sleep for athletes?' },
    { format: 'question', text: 'Are you getting sleep for athletes wrong?' },
    { format: 'number', text: '3 things about sleep for athletes.' },
    { format: 'how_to', text: 'Here is how to think about sleep for athletes.' },
  ];
  const all = rankHooks(candidates, options(10));
  assert.equal(all.length, 5, 'the "really missing" near-duplicate is dropped');
  assert.ok(!all.some((h) => h.text.includes('really missing')));
  for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.score >= all[i]!.score);

  const three = rankHooks(candidates, options(3));
  assert.equal(three.length, 3);
  assert.deepEqual(new Set(three.map((h) => h.format)), new Set(['question', 'number', 'how_to']));
  assert.equal(three[0]!.text, all[0]!.text, 'the best hook is always first');
});

test('hooks already chosen count towards the total and are not repeated', () => {
  const [first] = rankHooks(
    [{ format: 'question', text: 'What are you missing about sleep for athletes?' }],
    {
      ...options(1),
    },
  );
  const more = rankHooks(
    [
      { format: 'question', text: 'What are you missing about sleep for athletes??' },
      { format: 'warning', text: 'Stop scrolling if you care about sleep for athletes.' },
      { format: 'story', text: 'Let me tell you the story behind sleep for athletes.' },
    ],
    { ...options(2), chosen: [first!] },
  );
  assert.equal(more.length, 2);
  assert.equal(more.filter((h) => h.text.startsWith('What are you missing')).length, 1);
});

test('figures: structural counts pass; statistics, prices and years pass only when the topic holds them', () => {
  const none = findFigures('sleep for athletes');
  assert.equal(statesNewFigure('3 mistakes athletes make with sleep.', none), false);
  assert.equal(statesNewFigure('Five questions about sleep.', none), false);
  assert.equal(statesNewFigure('73% of athletes sleep too little.', none), true);
  assert.equal(statesNewFigure('This $40 pillow changes sleep.', none), true);
  assert.equal(statesNewFigure('Sleep science changed in 2019.', none), true);
  assert.equal(statesNewFigure('Athletes sleep twice as long.', none), true);
  assert.equal(statesNewFigure('What changes at the World Cup 2026?', findFigures('World Cup 2026')), false);
});
