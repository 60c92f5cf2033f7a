import assert from 'node:assert/strict';
import { test } from 'node:test';
import { destinationWaitMs, retryDelayMs } from './retry-schedule.ts';

const DAY_MS = 86_400_000;

function schedule(maxAttempts: number, retryDelayScale = 1, random = () => 0): number[] {
  const delays: number[] = [];
  for (let made = 1; ; made++) {
    const delay = retryDelayMs(made, { maxAttempts, retryDelayScale }, random);
    if (delay === undefined) return delays;
    delays.push(delay);
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

test('the default 12 attempts keep retrying for between 2.5 and 3 days, each wait at least the last', () => {
  const delays = schedule(12);
  assert.equal(delays.length, 11, 'one delay before each attempt after the first');
  assert.ok(sum(delays) > 2.5 * DAY_MS && sum(delays) < 3 * DAY_MS, `${sum(delays) / DAY_MS} days`);
  for (let i = 1; i < delays.length; i++) assert.ok(delays[i]! >= delays[i - 1]!);
  assert.equal(delays[0], 5000, 'the first retry comes 5 s after the first attempt');
});

test('8 attempts give the Standard Webhooks schedule, about 27.6 hours', () => {
  assert.equal(Math.round(sum(schedule(8)) / 60_000), 27 * 60 + 35);
});

test('a single attempt is never retried', () => {
  assert.deepEqual(schedule(1), []);
});

test('the scale compresses every delay alike, and jitter only ever adds up to 10 %', () => {
  const full = schedule(12);
  const compressed = schedule(12, 0.001);
  compressed.forEach((delay, i) => assert.equal(delay, Math.round(full[i]! * 0.001)));
  const jittered = schedule(12, 1, () => 0.999);
  jittered.forEach((delay, i) => {
    assert.ok(delay >= full[i]! && delay <= full[i]! * 1.1, `${delay} against ${full[i]}`);
  });
});

test('waiting for a busy destination doubles up to 30 s', () => {
  const waits = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => destinationWaitMs(n, () => 1));
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  assert.equal(
    destinationWaitMs(0, () => 0),
    500,
    'at least half the ceiling',
  );
});
