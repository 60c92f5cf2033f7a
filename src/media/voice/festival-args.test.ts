import { test } from 'node:test';
import assert from 'node:assert/strict';
import { festivalSynthesisArgs, parseFestivalVoiceList } from './festival-args.ts';

void test('text2wave selects the voice and sets the HTS speech rate to the speed', () => {
  assert.deepEqual(festivalSynthesisArgs('cmu_us_slt_arctic_hts', 1.3, '/tmp/s.wav'), [
    ...['-eval', '(voice_cmu_us_slt_arctic_hts)'],
    ...['-eval', `(set! hts_engine_params (append hts_engine_params '(("-r" 1.3))))`],
    ...['-o', '/tmp/s.wav'],
  ]);
  assert.match(festivalSynthesisArgs('cmu_us_slt_arctic_hts', 0.7, '/tmp/s.wav')[3]!, /"-r" 0\.7\)/);
});

void test('speeds outside 0.7–1.3 and names that are not voice names are refused', () => {
  assert.throws(() => festivalSynthesisArgs('cmu_us_slt_arctic_hts', 1.5, '/tmp/s.wav'), RangeError);
  assert.throws(() => festivalSynthesisArgs('x) (system "rm"', 1, '/tmp/s.wav'), /not a festival voice/);
});

void test('the voice list festival prints', () => {
  assert.deepEqual(parseFestivalVoiceList('(cmu_us_slt_arctic_hts kal_diphone)\n'), [
    'cmu_us_slt_arctic_hts',
    'kal_diphone',
  ]);
  assert.deepEqual(parseFestivalVoiceList('nil\n'), []);
});
