import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesisCommand } from './synthesis-command.ts';

void test('each engine gets its own command; flite and festival get the text folded to ASCII', () => {
  assert.deepEqual(
    synthesisCommand({ engine: 'espeak', engineVoice: 'gmw/en-US+f3' }, 'Café.', 1, '/t/a.wav'),
    {
      command: 'espeak-ng',
      args: ['-v', 'gmw/en-US+f3', '-s', '175', '-w', '/t/a.wav', '--stdin'],
      input: 'Café.',
    },
  );
  assert.deepEqual(synthesisCommand({ engine: 'flite', engineVoice: 'rms' }, 'Café.', 1, '/t/a.wav'), {
    command: 'flite',
    args: ['-voice', 'rms', '--setf', 'duration_stretch=1', '-o', '/t/a.wav', '-t', 'Cafe.'],
  });
  const festival = synthesisCommand(
    { engine: 'festival', engineVoice: 'cmu_us_slt_arctic_hts' },
    'Café.',
    1.2,
    '/t/a.wav',
  );
  assert.equal(festival.command, 'text2wave');
  assert.equal(festival.input, 'Cafe.');
  assert.deepEqual(festival.args.slice(0, 2), ['-eval', '(voice_cmu_us_slt_arctic_hts)']);
  assert.match(festival.args[3]!, /"-r" 1\.2/);
});
