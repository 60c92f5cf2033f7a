import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCmuDict } from './cmudict.ts';
import { espeakPronunciations, espeakToCmu } from './espeak-phonemes.ts';
import { letterToSound } from './letter-to-sound.ts';
import { dictionaryPronunciations, pronounceWords } from './pronounce.ts';
import { dictionaryKey, scriptWords } from './tokenize.ts';

describe('scriptWords', () => {
  const cases: [string, string[]][] = [
    ['Hello, world!', ['Hello', 'world']],
    ['"Don\u2019t panic," she said\u2014twice...', ['Don\u2019t', 'panic', 'she', 'said', 'twice']],
    ['It costs 3.5 dollars (roughly).', ['It', 'costs', '3.5', 'dollars', 'roughly']],
    ['a well-known fact \u2013 really', ['a', 'well-known', 'fact', 'really']],
    ['wait...what', ['wait', 'what']],
    ['  \n ', []],
    ['- * -', []],
  ];
  for (const [text, expected] of cases)
    test(JSON.stringify(text), () => assert.deepEqual(scriptWords(text), expected));

  test('dictionary key', () => assert.equal(dictionaryKey('Don\u2019T'), "don't"));
});

describe('CMU dictionary', () => {
  const dict = parseCmuDict(
    'the DH AH\nthe(2) DH IY\nwell W EH L\nknown N OW N\n;;; comment\n\nread R IY D\n',
  );

  test('alternates are grouped under the word', () => {
    assert.deepEqual(dict.get('the'), [
      ['DH', 'AH'],
      ['DH', 'IY'],
    ]);
    assert.equal(dict.size, 4);
  });

  const lookups: [string, string[][] | undefined][] = [
    [
      'The',
      [
        ['DH', 'AH'],
        ['DH', 'IY'],
      ],
    ],
    ['well-known', [['W', 'EH', 'L', 'N', 'OW', 'N']]],
    ['well-read', [['W', 'EH', 'L', 'R', 'IY', 'D']]],
    ['well-spoken', undefined],
    ['Reelsmith', undefined],
  ];
  for (const [word, expected] of lookups) {
    test(`lookup ${word}`, () => assert.deepEqual(dictionaryPronunciations(dict, word), expected));
  }
});

describe('espeakToCmu', () => {
  const cases: [string, string[]][] = [
    ["r_'i:_l_s_m_I_T", ['R', 'IY', 'L', 'S', 'M', 'IH', 'TH']],
    ["f_'O@_t_i_t_'u:", ['F', 'AO', 'R', 'T', 'IY', 'T', 'UW']],
    ["k_'0_v_I_d _ n_'aI_n_t_i:_n", ['K', 'AA', 'V', 'IH', 'D', 'N', 'AY', 'N', 'T', 'IY', 'N']],
    ["dZ_,i:_p_,i:_j_'u:", ['JH', 'IY', 'P', 'IY', 'Y', 'UW']],
    ["n_'a_s_a#", ['N', 'AE', 'S', 'AH']],
    ["b_'V_t_n-", ['B', 'AH', 'T', 'AH', 'N']],
    ["h_'V_x", ['HH', 'AH', 'K']],
    ['', []],
  ];
  for (const [line, expected] of cases)
    test(JSON.stringify(line), () => assert.deepEqual(espeakToCmu(line), expected));
});

describe('letterToSound', () => {
  const cases: [string, string[]][] = [
    ['ship', ['SH', 'IH', 'P']],
    ['Zorblatt', ['Z', 'AO', 'R', 'B', 'L', 'AE', 'T']],
    ['station', ['S', 'T', 'AE', 'SH', 'AH', 'N']],
    ['quake', ['K', 'W', 'AE', 'K']],
    ['x-ray', ['K', 'S', 'R', 'EY']],
    ['42', []],
  ];
  for (const [word, expected] of cases) test(word, () => assert.deepEqual(letterToSound(word), expected));
});

describe('espeak-ng pronunciations (real espeak-ng)', () => {
  test('one pronunciation per word, in order, including numbers and names', async () => {
    const result = await espeakPronunciations(['Reelsmith', '42', 'hello']);
    assert.deepEqual(result, [
      ['R', 'IY', 'L', 'S', 'M', 'IH', 'TH'],
      ['F', 'AO', 'R', 'T', 'IY', 'T', 'UW'],
      ['HH', 'AH', 'L', 'OW'],
    ]);
  });

  test('pronounceWords uses the dictionary first and espeak-ng for the rest', async () => {
    const dict = parseCmuDict('the DH AH\n');
    assert.deepEqual(await pronounceWords(['the', 'Reelsmith', 'the'], dict), [
      [['DH', 'AH']],
      [['R', 'IY', 'L', 'S', 'M', 'IH', 'TH']],
      [['DH', 'AH']],
    ]);
  });
});
