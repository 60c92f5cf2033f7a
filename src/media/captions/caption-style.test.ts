import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classicPreset, highlightPreset } from './caption-presets.ts';
import { captionStyleProblems, type CaptionStyle } from './caption-style.ts';

describe('captionStyleProblems', () => {
  test('the stock presets are valid', () => {
    assert.deepEqual(captionStyleProblems(highlightPreset()), []);
    assert.deepEqual(captionStyleProblems(classicPreset()), []);
  });

  test('a shipped web font is a caption font', () => {
    assert.deepEqual(captionStyleProblems({ ...highlightPreset(), fontFamily: 'Bebas Neue' }), []);
  });

  const cases: [string, Partial<CaptionStyle>, RegExp][] = [
    ['a font that is not installed', { fontFamily: 'Comic Sans MS' }, /font "Comic Sans MS"/],
    ['a caption font spelled loosely', { fontFamily: 'bebas neue' }, /font "bebas neue"/],
    ['a colour name', { outlineColor: 'black' }, /outlineColor must be #RRGGBB/],
    ['a giant font', { fontSize: 400 }, /fontSize/],
    ['an opacity above 1', { outlineOpacity: 1.5 }, /outlineOpacity/],
    ['a negative blur', { blur: -1 }, /blur/],
    ['a steep tilt', { rotation: 45 }, /rotation/],
    ['a word box on a boxed style', { animation: 'word-box', border: 'box' }, /word-box/],
    ['an unknown animation', { animation: 'spin' as CaptionStyle['animation'] }, /unknown animation/],
  ];
  for (const [name, change, problem] of cases) {
    test(`rejects ${name}`, () => {
      const problems = captionStyleProblems({ ...highlightPreset(), ...change });
      assert.equal(problems.length, 1, problems.join('; '));
      assert.match(problems[0] ?? '', problem);
    });
  }

  test('rejects chunking that cannot be shown', () => {
    const style = {
      ...highlightPreset(),
      chunking: { maxWords: 0, maxChars: 2.5, maxPauseSec: 0, breakOnClause: false },
    };
    assert.equal(captionStyleProblems(style).length, 3);
  });
});
