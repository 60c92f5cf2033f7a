import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSourceAudioArgs, parseEbur128FrameLine } from './source-audio.ts';

test('frame-log lines become blocks: mono, stereo and silence', () => {
  assert.deepEqual(
    parseEbur128FrameLine(
      '[Parsed_ebur128_0 @ 0x5623] t: 1.09998    TARGET:-23 LUFS    M: -21.9 S:-120.7     I: -21.9 LUFS       LRA:   0.0 LU  FTPK: -21.0 -19.5 dBFS  TPK: -20.9 -19.5 dBFS',
    ),
    { t: 1.09998, momentaryLufs: -21.9, peakDb: -19.5 },
  );
  assert.deepEqual(
    parseEbur128FrameLine(
      '[Parsed_ebur128_0 @ 0x5604] t: 0.299955   TARGET:-23 LUFS    M:-120.7 S:-120.7     I: -70.0 LUFS       LRA:   0.0 LU  FTPK:  -3.0 dBFS  TPK:  -1.5 dBFS',
    ),
    { t: 0.299955, momentaryLufs: -120.7, peakDb: -3 },
  );
  assert.deepEqual(
    parseEbur128FrameLine(
      '[Parsed_ebur128_0 @ 0x1] t: 0.7  TARGET:-23 LUFS  M: -60.2 S: -70.1  I: -70.0 LUFS  LRA: 0.0 LU  FTPK: -inf -inf dBFS  TPK: -inf -inf dBFS',
    ),
    { t: 0.7, momentaryLufs: -60.2, peakDb: -Infinity },
  );
  assert.equal(parseEbur128FrameLine('  Integrated loudness:'), null);
  assert.equal(parseEbur128FrameLine('Stream mapping:'), null);
});

test('one pass: the meter to the null muxer and a 16 kHz mono WAV', () => {
  assert.deepEqual(buildSourceAudioArgs('in.mp4', 'out.wav'), [
    '-y',
    '-i',
    'in.mp4',
    '-filter_complex',
    '[0:a:0]ebur128=peak=true:framelog=info[meter]',
    '-map',
    '[meter]',
    '-f',
    'null',
    '-',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    'out.wav',
  ]);
});
