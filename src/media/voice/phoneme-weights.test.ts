import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countPhonemes,
  espeakPhonemeArgs,
  parseWordPhonemes,
  phonemeInput,
  phonemeWeight,
  phonemizeWords,
} from './phoneme-weights.ts';

void test('espeak reads the words from stdin as separate paragraphs and prints phonemes only', () => {
  assert.deepEqual(espeakPhonemeArgs('gmw/en-US+f3'), ['-v', 'gmw/en-US+f3', '-q', '-x', '--sep=_']);
  assert.equal(phonemeInput(['one', '2024']), 'one\n\n2024\n\n');
});

void test('parseWordPhonemes splits paragraphs and joins clauses within one', () => {
  const cases: [string, number, string[] | null][] = [
    ["D_'@2\n\nk_w_'I_k\n\n", 2, ["D_'@2", "k_w_'I_k"]],
    ["t_'u: T_'aUz@nd\nf_'o@\n\nh_@_l_'oU\n\n", 2, ["t_'u: T_'aUz@nd f_'o@", "h_@_l_'oU"]],
    ["D_'@2\n\n", 2, null],
  ];
  for (const [stdout, count, expected] of cases) assert.deepEqual(parseWordPhonemes(stdout, count), expected);
});

void test('countPhonemes tells vowels, long and stressed vowels, and consonants apart', () => {
  const cases: [string, ReturnType<typeof countPhonemes>][] = [
    ["h_@_l_'oU", { vowels: 2, longVowels: 1, stressed: 1, consonants: 2 }],
    ["g_r_'y:_s_@", { vowels: 2, longVowels: 1, stressed: 1, consonants: 3 }],
    ["w_'o21__| (en)_m_E44_n_(cmn)", { vowels: 2, longVowels: 0, stressed: 1, consonants: 3 }],
    ['', { vowels: 0, longVowels: 0, stressed: 0, consonants: 0 }],
  ];
  for (const [phonemes, counts] of cases) assert.deepEqual(countPhonemes(phonemes), counts, phonemes);
});

void test('phonemeWeight: a consonant counts 1, a vowel 0.9, plus 0.25 when long and 0.6 when stressed', () => {
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  assert.ok(close(phonemeWeight("h_@_l_'oU"), 2 + 0.9 * 2 + 0.25 + 0.6));
  assert.ok(close(phonemeWeight("k_w_'I_k"), 3 + 0.9 + 0.6));
});

void test('phonemizeWords gets one phoneme string per word from espeak-ng, numbers included', async () => {
  const phonemes = await phonemizeWords(['Honey', '2024,', 'spoils.'], 'gmw/en-US');
  assert.ok(phonemes);
  assert.equal(phonemes.length, 3);
  assert.match(phonemes[0]!, /^h_'V_n_i/);
  assert.match(phonemes[1]!, /T_'aU_z_@_n_d/);
  assert.match(phonemes[2]!, /^s_p_'OI_l_z/);
});
