import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { recognizerPcmArgs } from './audio-prep.ts';
import { parseSilences, planChunks, silenceDetectArgs, type Interval } from './silence-split.ts';

describe('parseSilences', () => {
  test('pairs starts with ends and closes an open silence at the end', () => {
    const log = [
      '[silencedetect @ 0x1] silence_start: -0.0123',
      '[silencedetect @ 0x1] silence_end: 0.52 | silence_duration: 0.53',
      '[silencedetect @ 0x1] silence_start: 4.25',
      '[silencedetect @ 0x1] silence_end: 5 | silence_duration: 0.75',
      '[silencedetect @ 0x1] silence_start: 9.5',
    ].join('\n');
    assert.deepEqual(parseSilences(log, 10), [
      { start: 0, end: 0.52 },
      { start: 4.25, end: 5 },
      { start: 9.5, end: 10 },
    ]);
  });

  test('no silence', () => assert.deepEqual(parseSilences('size=N/A time=00:00:10.00', 10), []));
});

describe('planChunks', () => {
  const cases: {
    name: string;
    duration: number;
    silences: Interval[];
    min: number;
    max: number;
    expected: Interval[];
  }[] = [
    {
      name: 'short audio is one chunk',
      duration: 20,
      silences: [{ start: 5, end: 6 }],
      min: 10,
      max: 30,
      expected: [{ start: 0, end: 20 }],
    },
    {
      name: 'cuts at the longest pause in range',
      duration: 50,
      silences: [
        { start: 12, end: 12.4 },
        { start: 20, end: 22 },
        { start: 28, end: 28.5 },
        { start: 40, end: 41 },
      ],
      min: 10,
      max: 30,
      expected: [
        { start: 0, end: 21 },
        { start: 21, end: 50 },
      ],
    },
    {
      name: 'pauses too early for the minimum are not used',
      duration: 45,
      silences: [
        { start: 3, end: 8 },
        { start: 25, end: 25.4 },
      ],
      min: 10,
      max: 30,
      expected: [
        { start: 0, end: 25.2 },
        { start: 25.2, end: 45 },
      ],
    },
    {
      name: 'without a pause in range the cut goes at the next pause',
      duration: 60,
      silences: [{ start: 40, end: 41 }],
      min: 10,
      max: 30,
      expected: [
        { start: 0, end: 40.5 },
        { start: 40.5, end: 60 },
      ],
    },
    {
      name: 'no pause at all keeps one chunk',
      duration: 90,
      silences: [],
      min: 10,
      max: 30,
      expected: [{ start: 0, end: 90 }],
    },
  ];
  for (const c of cases)
    test(c.name, () => assert.deepEqual(planChunks(c.duration, c.silences, c.min, c.max), c.expected));
});

describe('ffmpeg arguments', () => {
  test('silencedetect over raw PCM', () => {
    assert.deepEqual(silenceDetectArgs('/t/a.raw', -35, 0.3), [
      '-hide_banner',
      '-nostdin',
      '-f',
      's16le',
      '-ar',
      '16000',
      '-ac',
      '1',
      '-i',
      '/t/a.raw',
      '-af',
      'silencedetect=noise=-35dB:d=0.3',
      '-f',
      'null',
      '-',
    ]);
  });

  test('whole input to recognizer PCM', () => {
    assert.deepEqual(recognizerPcmArgs('/in.mp4', '/t/a.raw'), [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-i',
      '/in.mp4',
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      '/t/a.raw',
    ]);
  });
});
