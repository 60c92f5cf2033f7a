import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildCtl,
  buildDictionary,
  buildFsg,
  parseCtm,
  pocketsphinxBatchArgs,
  wordKey,
} from './pocketsphinx-files.ts';

void test('each word position gets its own dictionary entry with all its pronunciations', () => {
  assert.equal(wordKey(7), 'w7');
  assert.equal(
    buildDictionary([
      { key: 'w0', pronunciations: ['T AH D EY', 'T UW D EY'] },
      { key: 'w1', pronunciations: ['K W IH K'] },
    ]),
    'w0 T AH D EY\nw0(2) T UW D EY\nw1 K W IH K\n',
  );
});

void test('the grammar is the exact word sequence, each word skippable, closed by silence', () => {
  assert.equal(
    buildFsg('s0', ['w0', 'w1']),
    [
      'FSG_BEGIN s0',
      'NUM_STATES 4',
      'START_STATE 0',
      'FINAL_STATE 3',
      'TRANSITION 0 1 0.999 w0',
      'TRANSITION 0 1 0.001',
      'TRANSITION 1 2 0.999 w1',
      'TRANSITION 1 2 0.001',
      'TRANSITION 2 3 1.0 <sil>',
      'FSG_END',
      '',
    ].join('\n'),
  );
});

void test('the control file names frame ranges of one audio file', () => {
  assert.equal(
    buildCtl('audio', [
      { id: 's0', startFrame: 0, endFrame: 113, keys: ['w0'] },
      { id: 's1', startFrame: 114, endFrame: 405, keys: ['w1'] },
    ]),
    'audio 0 113 s0\naudio 114 405 s1\n',
  );
});

void test('pocketsphinx_batch arguments', () => {
  assert.deepEqual(
    pocketsphinxBatchArgs({
      modelDir: '/m',
      dir: '/t',
      ctlPath: '/t/u.ctl',
      fsgCtlPath: '/t/g.ctl',
      dictPath: '/t/w.dict',
      ctmPath: '/t/o.ctm',
    }),
    [
      ...['-hmm', '/m/en-us', '-dict', '/t/w.dict', '-adcin', 'yes', '-cepdir', '/t', '-cepext', '.raw'],
      ...['-ctl', '/t/u.ctl', '-fsgctl', '/t/g.ctl', '-fsgdir', '/t', '-fsgext', '.fsg', '-ctm', '/t/o.ctm'],
      ...['-remove_silence', 'no', '-dither', 'yes', '-seed', '1'],
    ],
  );
});

void test('parseCtm keeps words, drops fillers and alternate-pronunciation suffixes', () => {
  assert.deepEqual(
    parseCtm('s0 1 0.00 0.08 w0 1.000\ns0 1 0.10 0.20 <sil> 1.000\ns1 1 0.15 0.30 w3(2) 0.9\n\n'),
    [
      { utterance: 's0', key: 'w0', start: 0, end: 0.08 },
      { utterance: 's1', key: 'w3', start: 0.15, end: 0.44999999999999996 },
    ],
  );
});
