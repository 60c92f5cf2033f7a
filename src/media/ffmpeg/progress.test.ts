import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgressParser, parseProgressLine } from './progress.ts';

describe('parseProgressLine', () => {
  const cases: [string, number | null][] = [
    ['out_time_us=1500000', 1.5],
    ['out_time_ms=2000000', 2],
    ['out_time_us=0', 0],
    ['out_time_us=N/A', null],
    ['out_time_us=-9223372036854775807', null],
    ['out_time=00:00:01.500000', null],
    ['frame=45', null],
    ['progress=end', null],
    ['garbage', null],
    ['out_time_us= 250000 ', 0.25],
  ];
  for (const [line, expected] of cases) {
    test(JSON.stringify(line), () => assert.equal(parseProgressLine(line), expected));
  }
});

describe('createProgressParser', () => {
  test('handles lines split across chunks and reports each time once', () => {
    const seen: number[] = [];
    const feed = createProgressParser((s) => seen.push(s));
    feed('frame=10\nout_time_us=33');
    feed('3333\nout_time_ms=333333\nout_time=00:00:00.333333\nprogress=continue\nout_time_us=1000000\n');
    feed('out_time_ms=1000000\nout_time_us=2000');
    assert.deepEqual(seen, [0.333333, 1]);
    feed('000\n');
    assert.deepEqual(seen, [0.333333, 1, 2]);
  });
});
