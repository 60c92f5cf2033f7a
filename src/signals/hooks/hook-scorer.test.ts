import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOOK_SIGNAL_WEIGHTS } from './hook-score-weights.ts';
import {
  curiositySignal,
  lengthSignal,
  readingEaseSignal,
  scoreHook,
  secondPersonSignal,
  specificitySignal,
} from './hook-scorer.ts';
import { readability, syllableCount } from './readability.ts';

test('the five weights add up to 1', () => {
  const sum = Object.values(HOOK_SIGNAL_WEIGHTS).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9);
});

test('length fits the platform: a short hook suits a vertical video, a long one a text post', () => {
  const short = 'Stop scrolling if you care about sleep.';
  const long =
    'Everyone has an opinion about remote work productivity, so here is the other side nobody tells you.';
  assert.equal(lengthSignal(short, 'shortsite').value, 1);
  assert.ok(lengthSignal(long, 'shortsite').value < lengthSignal(long, 'microsite').value);
  assert.equal(lengthSignal(long, 'microsite').value, 1);
  assert.match(lengthSignal(short, 'shortsite').reason!, /fits shortsite: 7 words \(ideal 5-10\)/);
  // Past the characters a platform shows, length scores nothing.
  assert.equal(lengthSignal('word '.repeat(30).trim() + '.', 'shortsite').value, 0);
});

test('curiosity: a question, an open loop and tension each add to it', () => {
  const flat = curiositySignal('Sleep helps athletes recover.').value;
  const question = curiositySignal('Does sleep help athletes recover?').value;
  const loop = curiositySignal("Here's what sleep does for athletes.").value;
  const all = curiositySignal('What if everything you know about sleep is wrong?').value;
  assert.equal(flat, 0);
  assert.ok(question > flat && loop > flat);
  assert.ok(all > question && all > loop);
  assert.match(curiositySignal('Stop scrolling.').reason!, /tension \("stop"\)/);
});

test('specificity: naming the topic and a number count; vague words cost', () => {
  const named = specificitySignal('Why sleep matters for athletes, explained.', 'sleep for athletes').value;
  const unnamed = specificitySignal('Why this matters, explained.', 'sleep for athletes').value;
  const numbered = specificitySignal('3 reasons sleep matters for athletes.', 'sleep for athletes').value;
  const vague = specificitySignal('Things and stuff about sleep for athletes.', 'sleep for athletes').value;
  assert.ok(named > unnamed);
  assert.ok(numbered > named);
  assert.ok(vague < named);
  assert.match(specificitySignal('3 steps to sleep.', 'sleep').reason!, /names a number; names the topic/);
});

test('second person: "you" scores full, an opening imperative partly, neither nothing', () => {
  assert.equal(secondPersonSignal('What are you missing about sleep?').value, 1);
  assert.equal(secondPersonSignal("Don't skip sleep before a race.").value, 0.6);
  assert.equal(secondPersonSignal('Stop scrolling.').value, 0.6);
  assert.equal(secondPersonSignal('Athletes sleep more than most people.').value, 0);
});

test('reading ease: plain words read easier than long ones', () => {
  const plain = readingEaseSignal('You need more sleep than you think.').value;
  const dense = readingEaseSignal(
    'Comprehensive physiological considerations necessitate prioritization.',
  ).value;
  assert.ok(plain > 0.8, String(plain));
  assert.ok(dense < 0.1, String(dense));
});

test('syllables are estimated from spelling; Flesch follows its published formula', () => {
  const counts = Object.fromEntries(
    [
      'make',
      'makes',
      'table',
      'jumped',
      'needed',
      'boxes',
      'beautiful',
      'scrolling',
      'understand',
      'the',
    ].map((w) => [w, syllableCount(w)]),
  );
  assert.deepEqual(counts, {
    make: 1,
    makes: 1,
    table: 2,
    jumped: 1,
    needed: 2,
    boxes: 2,
    beautiful: 3,
    scrolling: 2,
    understand: 3,
    the: 1,
  });
  // 8 words, 1 sentence, 11 syllables: 206.835 - 1.015 × 8 - 84.6 × 11/8 = 82.39.
  const r = readability('Stop scrolling if you care about climate change.');
  assert.deepEqual([r.words, r.sentences, r.syllables], [8, 1, 11]);
  assert.ok(Math.abs(r.fleschReadingEase - 82.39) < 0.01);
});

test('a hook is scored as the weighted sum of its signals, reasons strongest first', () => {
  const strong = scoreHook('What are you missing about sleep for athletes?', {
    platform: 'shortsite',
    keyPhrase: 'sleep for athletes',
  });
  const weak = scoreHook(
    'Comprehensive physiological considerations regarding nocturnal restoration necessitate institutional prioritization.',
    { platform: 'shortsite', keyPhrase: 'sleep for athletes' },
  );
  assert.ok(strong.score > weak.score + 0.3, `${strong.score} vs ${weak.score}`);
  assert.ok(strong.score > 0 && strong.score <= 1);
  assert.equal(strong.reasons.length, 5);
  assert.match(strong.reasons[0]!, /^fits shortsite/);
  assert.ok(strong.reasons.some((r) => r.startsWith('speaks to the viewer')));
  // The weak hook asks nothing, names no topic word and addresses nobody: those signals give no reason.
  assert.ok(!weak.reasons.some((r) => /curiosity|viewer/.test(r)), weak.reasons.join(' | '));
});
