import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bassNote, padVoicing, parseChord, voiceInOctave } from './theory.ts';

describe('parseChord', () => {
  const cases: [string, number, number[]][] = [
    ['C', 0, [0, 4, 7]],
    ['Am', 9, [0, 3, 7]],
    ['F#m7', 6, [0, 3, 7, 10]],
    ['Bbmaj7', 10, [0, 4, 7, 11]],
    ['Gsus4', 7, [0, 5, 7]],
    ['Dadd9', 2, [0, 4, 7, 14]],
    ['Cb', 11, [0, 4, 7]],
  ];
  for (const [name, root, intervals] of cases) {
    test(name, () => assert.deepEqual(parseChord(name), { name, root, intervals }));
  }
  test('unknown chords are refused', () => {
    assert.throws(() => parseChord('H'), /unknown chord/);
    assert.throws(() => parseChord('Cdim13'), /unknown chord/);
  });
});

describe('voicing', () => {
  const cases: [string, number, number[]][] = [
    ['Cmaj7', 55, [55, 59, 60, 64]],
    ['G', 55, [55, 59, 62, 67]],
    ['Am', 57, [57, 60, 64, 69]],
    ['Dadd9', 57, [57, 62, 64, 66]],
  ];
  for (const [name, low, expected] of cases) {
    test(`${name} from ${low}`, () => assert.deepEqual(padVoicing(parseChord(name), low), expected));
  }
  test('voiceInOctave stays within the octave', () => {
    assert.deepEqual(voiceInOctave(parseChord('Bb'), 60), [62, 65, 70]);
  });
  test('bassNote', () => {
    assert.equal(bassNote(parseChord('F#m'), 36), 42);
    assert.equal(bassNote(parseChord('C'), 36), 36);
    assert.equal(bassNote(parseChord('B7'), 36), 47);
  });
});
