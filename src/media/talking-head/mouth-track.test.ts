import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WordTiming } from '../types.ts';
import {
  frameVisemes,
  LEAD_SEC,
  MIN_RUN_FRAMES,
  mouthRuns,
  phoneSpans,
  smoothRuns,
  toRuns,
} from './mouth-track.ts';
import { phoneWeight, type Viseme } from './visemes.ts';

const word = (text: string, start: number, end: number): WordTiming => ({ word: text, start, end });

describe('phoneSpans', () => {
  test("a word's phones fill its time in order, in proportion to their weights, a little early", () => {
    const spans = phoneSpans([word('map', 1, 1.5)], [['M', 'AE1', 'P']]);
    assert.deepEqual(
      spans.map((s) => s.viseme),
      ['closed', 'open', 'closed'],
    );
    assert.ok(Math.abs(spans[0]!.start - (1 - LEAD_SEC)) < 1e-9);
    assert.ok(Math.abs(spans[2]!.end - (1.5 - LEAD_SEC)) < 1e-9);
    for (let i = 1; i < spans.length; i++) assert.ok(Math.abs(spans[i]!.start - spans[i - 1]!.end) < 1e-9);
    const total = phoneWeight('M') + phoneWeight('AE1') + phoneWeight('P');
    const vowel = spans[1]!.end - spans[1]!.start;
    assert.ok(Math.abs(vowel - (0.5 * phoneWeight('AE1')) / total) < 1e-9);
  });

  test('words without phones or without length add nothing', () => {
    assert.deepEqual(phoneSpans([word('—', 0, 0.2), word('x', 1, 1)], [[], ['K', 'S']]), []);
  });
});

describe('frameVisemes', () => {
  test('closed in silences, rest in a short gap between words, the phone under each frame otherwise', () => {
    const fps = 10;
    const spans = [
      { viseme: 'open' as Viseme, start: 0.2, end: 0.5 },
      { viseme: 'wide' as Viseme, start: 0.6, end: 0.9 },
      { viseme: 'round' as Viseme, start: 2, end: 2.3 },
    ];
    const frames = frameVisemes(spans, fps, 26);
    assert.deepEqual(frames.slice(0, 10), [
      'closed',
      'closed',
      'open',
      'open',
      'open',
      'rest',
      'wide',
      'wide',
      'wide',
      'closed',
    ]);
    assert.deepEqual(frames.slice(19, 26), [
      'closed',
      'round',
      'round',
      'round',
      'closed',
      'closed',
      'closed',
    ]);
  });

  test('a lip closure shorter than a frame still gets the frame nearest to it', () => {
    const fps = 10;
    const spans = [
      { viseme: 'open' as Viseme, start: 0, end: 0.32 },
      { viseme: 'closed' as Viseme, start: 0.32, end: 0.37 },
      { viseme: 'open' as Viseme, start: 0.37, end: 0.8 },
    ];
    const frames = frameVisemes(spans, fps, 8);
    assert.equal(frames.filter((v) => v === 'closed').length, 1);
    assert.equal(frames[3], 'closed');
  });
});

describe('smoothRuns', () => {
  test('single frames join the neighbour closest in opening; closures borrow a frame instead', () => {
    const frames: Viseme[] = ['open', 'open', 'open', 'wide', 'closed', 'closed', 'closed'];
    frames.push('open', 'open', 'open', 'closed', 'slight', 'slight', 'slight');
    const runs = smoothRuns(toRuns(frames));
    // "wide" (0.12) is nearer "open" (0.22) than "closed" (0) and joins it; the lone closure is kept, two
    // frames long, its extra frame taken from the run before it.
    assert.deepEqual(runs, [
      { state: 'open', frames: 4 },
      { state: 'closed', frames: 3 },
      { state: 'open', frames: 2 },
      { state: 'closed', frames: 2 },
      { state: 'slight', frames: 3 },
    ]);
  });

  test('a track of a single short run is left as it is', () => {
    assert.deepEqual(smoothRuns([{ state: 'open', frames: 1 }]), [{ state: 'open', frames: 1 }]);
  });
});

test('mouthRuns covers exactly the frames asked for, closed before and after the speech', () => {
  const words = [word('hello', 0.5, 0.9), word('world', 0.95, 1.4)];
  const phones = [
    ['HH', 'AH0', 'L', 'OW1'],
    ['W', 'ER1', 'L', 'D'],
  ];
  const runs = mouthRuns(words, phones, 30, 60);
  assert.equal(
    runs.reduce((n, r) => n + r.frames, 0),
    60,
  );
  assert.equal(runs[0]!.state, 'closed');
  assert.equal(runs[runs.length - 1]!.state, 'closed');
  assert.ok(runs[0]!.frames >= 13 && runs[0]!.frames <= 15, `${runs[0]!.frames} closed frames first`);
  assert.ok(runs.some((r) => r.state === 'round'));
  assert.ok(runs.every((r) => r.frames >= MIN_RUN_FRAMES));
});
