import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { srtTimestamp, vttTimestamp } from './timecode.ts';

describe('subtitle timestamps', () => {
  const cases: [number, string, string][] = [
    [0, '00:00:00,000', '00:00:00.000'],
    [62.345, '00:01:02,345', '00:01:02.345'],
    [0.1 + 0.2, '00:00:00,300', '00:00:00.300'],
    [1.0005, '00:00:01,001', '00:00:01.001'],
    [59.9996, '00:01:00,000', '00:01:00.000'],
    [3599.9995, '01:00:00,000', '01:00:00.000'],
    [3723.004, '01:02:03,004', '01:02:03.004'],
    [36000, '10:00:00,000', '10:00:00.000'],
    [-0.5, '00:00:00,000', '00:00:00.000'],
  ];
  for (const [seconds, srt, vtt] of cases) {
    test(`${seconds} s`, () => {
      assert.equal(srtTimestamp(seconds), srt);
      assert.equal(vttTimestamp(seconds), vtt);
    });
  }
});
