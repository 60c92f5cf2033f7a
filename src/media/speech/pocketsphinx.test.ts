import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PocketsphinxModel } from './model.ts';
import { alignArgs, parseTimedWords, transcribeArgs, tuningArgs } from './pocketsphinx.ts';

const model: PocketsphinxModel = { hmmDir: '/m/hmm', lmPath: '/m/lm.bin', dictPath: '/m/cmu.dict' };

describe('pocketsphinx command lines', () => {
  const tuningCases: [Parameters<typeof tuningArgs>[0], string[]][] = [
    [{}, []],
    [{ lw: 6, fwdflat: true, bestpath: false }, ['-lw', '6', '-fwdflat', 'yes', '-bestpath', 'no']],
    [
      { beam: 1e-80, removeSilence: false, vadThreshold: 3 },
      ['-beam', '1e-80', '-remove_silence', 'no', '-vad_threshold', '3'],
    ],
  ];
  for (const [tuning, expected] of tuningCases) {
    test(`tuning ${JSON.stringify(tuning)}`, () => assert.deepEqual(tuningArgs(tuning), expected));
  }

  test('transcription', () => {
    assert.deepEqual(transcribeArgs(model, '/t/a.raw', { lw: 6 }), [
      '-hmm',
      '/m/hmm',
      '-lm',
      '/m/lm.bin',
      '-dict',
      '/m/cmu.dict',
      '-infile',
      '/t/a.raw',
      '-time',
      'yes',
      '-logfn',
      '/dev/null',
      '-lw',
      '6',
    ]);
  });

  test('alignment', () => {
    assert.deepEqual(alignArgs(model, '/t/a.raw', '/t/g.fsg', '/t/g.dict', { removeSilence: false }), [
      '-hmm',
      '/m/hmm',
      '-fsg',
      '/t/g.fsg',
      '-dict',
      '/t/g.dict',
      '-infile',
      '/t/a.raw',
      '-time',
      'yes',
      '-logfn',
      '/dev/null',
      '-remove_silence',
      'no',
    ]);
  });
});

describe('parseTimedWords', () => {
  test('keeps words, drops fillers and hypothesis lines, ends words after their last frame', () => {
    const stdout = [
      'go forward ten meters',
      '<s> 0.000 0.240 1.000000',
      '<sil> 0.250 0.450 0.706282',
      'go 0.460 0.630 0.997303',
      'forward(2) 0.640 1.160 0.996207',
      '[NOISE] 1.170 1.200 0.5',
      'ten 1.210 1.520 0.243981',
      '</s> 2.120 2.600 1.000000',
      '',
    ].join('\n');
    assert.deepEqual(parseTimedWords(stdout), [
      { word: 'go', start: 0.46, end: 0.64, posterior: 0.997303 },
      { word: 'forward', start: 0.64, end: 1.17, posterior: 0.996207 },
      { word: 'ten', start: 1.21, end: 1.53, posterior: 0.243981 },
    ]);
  });

  test('clamps posteriors into 0–1', () => {
    assert.deepEqual(parseTimedWords('yes 1.000 1.100 1.000300'), [
      { word: 'yes', start: 1, end: 1.11, posterior: 1 },
    ]);
  });

  test('nothing recognized', () => assert.deepEqual(parseTimedWords('\n'), []));
});
