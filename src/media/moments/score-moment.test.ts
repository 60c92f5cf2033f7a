import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { timedWords } from '../../../test/support/long-video-fixture.ts';
import {
  consistencySignal,
  energySignal,
  hookSignal,
  lengthSignal,
  scoreMoment,
  speechRateSignal,
  type ScoreContext,
} from './score-moment.ts';
import { SIGNALS, weightsFor } from './score-weights.ts';
import { splitSpeechUnits } from './speech-units.ts';
import { normalizeToken } from './text-signals.ts';

const tokens = (text: string) => text.split(' ').map(normalizeToken);

describe('hookSignal', () => {
  const cases: [string, boolean, number][] = [
    ['why do most people never get rich', true, 0.45 + 0.45 + 0.1],
    ['here is the truth nobody tells you', false, 0.45 + 0.15 + 0.1],
    ['imagine losing everything you love', false, 0.45 + 0.15 + 0.2],
    ['ninety percent of businesses fail', false, 0.2],
    ['the weather was mild on tuesday', false, 0],
  ];
  for (const [opening, question, expected] of cases) {
    test(opening, () => assert.ok(Math.abs(hookSignal(tokens(opening), question, false) - expected) < 1e-9));
  }
  test('an opening on a connective is no hook at all', () => {
    assert.equal(hookSignal(tokens('and here is the truth'), false, true), 0);
  });
});

describe('shapes', () => {
  for (const [wps, expected] of [
    [1, 0],
    [2, 0.5],
    [3, 1],
    [3.8, 1],
    [5, 0.6],
    [7, 0.6],
  ] as const) {
    test(`speech rate ${wps} w/s → ${expected}`, () =>
      assert.ok(Math.abs(speechRateSignal(wps) - expected) < 1e-9));
  }
  for (const [sec, expected] of [
    [15, 0.6],
    [17.5, 0.8],
    [30, 1],
    [60, 0.6],
  ] as const) {
    test(`length ${sec} s → ${expected}`, () => assert.ok(Math.abs(lengthSignal(sec) - expected) < 1e-9));
  }
  test('energy: level against the source plus spread; silence is none', () => {
    assert.equal(energySignal(-70, -20, 3), 0);
    assert.ok(Math.abs(energySignal(-20, -20, 0) - 0.7 * (4 / 6)) < 1e-9);
    assert.ok(Math.abs(energySignal(-16, -20, 6) - 1) < 1e-9);
  });
});

describe('consistencySignal', () => {
  test('a long stretch saying nothing measurable costs its share', () => {
    const words = timedWords(
      [
        'Ninety percent fail.',
        'we went on with the plan as it was set out before the day began and then we went home to rest for the night',
      ],
      {
        sentenceGapSec: 0.6,
      },
    );
    const units = splitSpeechUnits(words, 40);
    const duration = units[1]!.end - units[0]!.start;
    const dull = units[1]!.end - units[1]!.start - 5;
    assert.ok(Math.abs(consistencySignal(units, duration) - (1 - dull / duration)) < 1e-9);
    assert.equal(consistencySignal(units.slice(0, 1), units[0]!.end - units[0]!.start), 1);
  });
});

function context(words: ReturnType<typeof timedWords>, focusTerms: string[] = []): ScoreContext {
  return { words, loudness: [], sourceLufs: -20, weights: weightsFor(undefined), focusTerms };
}

describe('scoreMoment', () => {
  const strong = [
    'Why do most people never get rich?',
    'Here is the truth nobody tells you.',
    'Ninety percent of new businesses fail within five years.',
    'The biggest mistake is not the idea, it is cash.',
    'Save ten dollars a day and you will have three thousand six hundred dollars a year.',
    'That single habit changed my life and it was terrifying at first.',
  ];
  const filler = [
    'So we go over the usual things again today.',
    'Then the next part follows the same order as before.',
    'It goes on like that for a while with the rest of it.',
    'After that we move to the other part of the list.',
    'The rest stays the way it was set up earlier on.',
    'That is how this section goes until the end of it.',
  ];

  test('the breakdown adds up to the score and covers every signal', () => {
    const words = timedWords(strong, { sentenceGapSec: 0.6 });
    const units = splitSpeechUnits(words, 60);
    const score = scoreMoment(units, 0, units.length - 1, context(words));
    assert.deepEqual(Object.keys(score.breakdown).sort(), [...SIGNALS].sort());
    const total = Object.values(score.breakdown).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - score.viralScore) <= 1, `${total} vs ${score.viralScore}`);
    assert.ok(score.viralScore >= 0 && score.viralScore <= 100);
  });

  test('hooks, numbers, questions and emotion score far above filler', () => {
    const a = timedWords(strong, { sentenceGapSec: 0.6 });
    const b = timedWords(filler, { sentenceGapSec: 0.6 });
    const ua = splitSpeechUnits(a, 60);
    const ub = splitSpeechUnits(b, 60);
    const sa = scoreMoment(ua, 0, ua.length - 1, context(a)).viralScore;
    const sb = scoreMoment(ub, 0, ub.length - 1, context(b)).viralScore;
    assert.ok(sa >= sb + 30, `${sa} vs ${sb}`);
    assert.ok(sb < 45, `filler scored ${sb}`);
  });

  test('starting on a connective costs the hook and the clean start', () => {
    const words = timedWords(
      [
        'Here is the truth nobody tells you.',
        'And here is the truth nobody tells you.',
        'Ninety percent fail.',
      ],
      {
        sentenceGapSec: 0.6,
      },
    );
    const units = splitSpeechUnits(words, 30);
    const clean = scoreMoment(units, 0, 2, context(words));
    const dangling = scoreMoment(units, 1, 2, context(words));
    assert.equal(dangling.signals.hook, 0);
    assert.ok(dangling.signals.boundaries < clean.signals.boundaries);
  });

  test('a focus adds its share and shrinks the others', () => {
    const words = timedWords(strong, { sentenceGapSec: 0.6 });
    const units = splitSpeechUnits(words, 60);
    const plain = scoreMoment(units, 0, units.length - 1, context(words));
    const focused = scoreMoment(units, 0, units.length - 1, context(words, ['cash']));
    assert.ok(focused.relevance > 0);
    assert.ok((focused.breakdown.focus ?? 0) > 0);
    assert.ok(Math.abs(focused.breakdown.hook! - plain.breakdown.hook! * 0.7) < 0.11);
  });
});
