import { test } from 'node:test';
import assert from 'node:assert/strict';
import { espeakToCmu } from './espeak-to-cmu.ts';

void test('espeak English phonemes become ARPAbet phones', () => {
  const cases: [string, string[] | null][] = [
    ["h_@_l_'oU", ['HH', 'AH', 'L', 'OW']],
    ["r_'I_v_3_b_,a_N_k", ['R', 'IH', 'V', 'ER', 'B', 'AE', 'NG', 'K']],
    ["t_'u: T_'aU_z_@_n_d", ['T', 'UW', 'TH', 'AW', 'Z', 'AH', 'N', 'D']],
    ["a#_d_v_'aI_z_3_r-", ['AH', 'D', 'V', 'AY', 'Z', 'ER']],
    ["dZ_'Vmps", null],
    ["b_'V_?_n-", ['B', 'AH', 'T', 'AH', 'N']],
    ["n_'a_s_a#", ['N', 'AE', 'S', 'AH']],
    ['', null],
  ];
  for (const [phonemes, phones] of cases) assert.deepEqual(espeakToCmu(phonemes), phones, phonemes);
});
