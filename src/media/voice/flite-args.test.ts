import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fliteSynthesisArgs, parseFliteVoiceList } from './flite-args.ts';

void test('flite speaks the text argument with the voice, its durations stretched by 1/speed', () => {
  assert.deepEqual(fliteSynthesisArgs('rms', 1, '-t is text, not an option.', '/tmp/s.wav'), [
    ...[
      '-voice',
      'rms',
      '--setf',
      'duration_stretch=1',
      '-o',
      '/tmp/s.wav',
      '-t',
      '-t is text, not an option.',
    ],
  ]);
  const stretch = (speed: number) => fliteSynthesisArgs('slt', speed, 'x', '/tmp/s.wav')[3];
  assert.equal(stretch(1.3), 'duration_stretch=0.7692');
  assert.equal(stretch(0.7), 'duration_stretch=1.4286');
});

void test('speeds outside 0.7–1.3 are refused', () => {
  for (const speed of [0.69, 1.31, Number.NaN]) {
    assert.throws(() => fliteSynthesisArgs('rms', speed, 'x', '/tmp/s.wav'), RangeError);
  }
});

void test('the voice list of `flite -lv`', () => {
  assert.deepEqual(parseFliteVoiceList('Voices available: kal awb_time kal16 awb rms slt \n'), [
    ...['kal', 'awb_time', 'kal16', 'awb', 'rms', 'slt'],
  ]);
  assert.deepEqual(parseFliteVoiceList(''), []);
});
