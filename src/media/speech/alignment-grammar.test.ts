import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alignmentDictionary, alignmentFsg, alignmentIndex, alignmentToken } from './alignment-grammar.ts';

describe('alignment grammar', () => {
  test('a linear FSG without skips', () => {
    assert.equal(
      alignmentFsg(2, 0),
      'FSG_BEGIN align\nNUM_STATES 3\nSTART_STATE 0\nFINAL_STATE 2\n' +
        'TRANSITION 0 1 1 w0\nTRANSITION 1 2 1 w1\nFSG_END\n',
    );
  });

  test('a linear FSG whose words may be skipped, and whose tail may be dropped at once', () => {
    assert.equal(
      alignmentFsg(3, 0.25),
      'FSG_BEGIN align\nNUM_STATES 4\nSTART_STATE 0\nFINAL_STATE 3\n' +
        'TRANSITION 0 1 0.75 w0\nTRANSITION 0 1 0.25 skip\nTRANSITION 0 3 0.25 skip\n' +
        'TRANSITION 1 2 0.75 w1\nTRANSITION 1 2 0.25 skip\nTRANSITION 1 3 0.25 skip\n' +
        'TRANSITION 2 3 0.75 w2\nTRANSITION 2 3 0.25 skip\nFSG_END\n',
    );
  });

  test('dictionary entries per position, alternates numbered from 2', () => {
    assert.equal(
      alignmentDictionary([
        [
          ['DH', 'AH'],
          ['DH', 'IY'],
        ],
        [['K', 'AE', 'T']],
      ]),
      'w0 DH AH\nw0(2) DH IY\nw1 K AE T\nskip SIL\n',
    );
  });

  const indexCases: [string, number | undefined][] = [
    ['w0', 0],
    ['w17', 17],
    ['<sil>', undefined],
    ['w', undefined],
    ['hello', undefined],
  ];
  for (const [token, index] of indexCases) {
    test(`index of ${token}`, () => assert.equal(alignmentIndex(token), index));
  }

  test('token and index round-trip', () => assert.equal(alignmentIndex(alignmentToken(42)), 42));
});
