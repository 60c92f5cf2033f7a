import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { seedMusicRecipes } from './beds.ts';
import { BED_SAMPLE_RATE, bedSections, bedTiming, JOIN_SAMPLES, renderLayout } from './timing.ts';

describe('bedTiming', () => {
  const cases: {
    bpm: number;
    chords: number;
    bars: 1 | 2;
    loopSec: number;
    cycles: number;
    sectionBars: number;
    tailBars: number;
  }[] = [
    { bpm: 120, chords: 4, bars: 1, loopSec: 16, cycles: 2, sectionBars: 2, tailBars: 3 },
    { bpm: 64, chords: 4, bars: 2, loopSec: 60, cycles: 2, sectionBars: 1, tailBars: 2 },
    { bpm: 100, chords: 4, bars: 1, loopSec: 19.2, cycles: 2, sectionBars: 2, tailBars: 3 },
    // Two chords of one bar at 120 bpm are a 4 s cycle: four of them make the shortest loop of 15 s or more.
    { bpm: 120, chords: 2, bars: 1, loopSec: 16, cycles: 4, sectionBars: 2, tailBars: 3 },
    { bpm: 75, chords: 4, bars: 2, loopSec: 51.2, cycles: 2, sectionBars: 1, tailBars: 2 },
  ];
  for (const c of cases) {
    test(`${c.bpm} bpm, ${c.chords}×${c.bars} bars`, () => {
      const t = bedTiming({ bpm: c.bpm, chordCount: c.chords, barsPerChord: c.bars });
      assert.deepEqual(
        [t.loopSamples / BED_SAMPLE_RATE, t.loopCycles, t.introBars, t.outroBars, t.tailBars],
        [c.loopSec, c.cycles, c.sectionBars, c.sectionBars, c.tailBars],
      );
      assert.equal(t.barSamples, 4 * t.beatSamples);
      assert.equal(t.loopSamples % t.barSamples, 0);
    });
  }
  test('a beat that is not a whole number of samples is refused', () => {
    assert.throws(
      () => bedTiming({ bpm: 70, chordCount: 4, barsPerChord: 1 }),
      /not a whole number of samples/,
    );
  });
  test('a loop over 70 s is refused', () => {
    assert.throws(() => bedTiming({ bpm: 60, chordCount: 8, barsPerChord: 2 }), /over 70 s/);
  });
  test('every catalogue bed has a loop of whole bars, 15–70 s', () => {
    for (const bed of seedMusicRecipes()) {
      const t = bedTiming({
        bpm: bed.bpm,
        chordCount: bed.arrangement.chords.length,
        barsPerChord: bed.arrangement.barsPerChord,
      });
      const sec = t.loopSamples / BED_SAMPLE_RATE;
      assert.ok(sec >= 15 && sec <= 70, `${bed.id}: ${sec} s`);
    }
  });
});

test('renderLayout: each section followed by silence for its tail', () => {
  const t = bedTiming({ bpm: 120, chordCount: 4, barsPerChord: 1 });
  // Intro 2 bars + 3 of tail; the loop's 8 bars + 3; the last chord again (1 bar); outro 2 bars + 3.
  assert.deepEqual(renderLayout(t, 1), { intro: 0, loop: 5, outroLead: 16, outro: 17, end: 22 });
});

test('bedSections', () => {
  const t = bedTiming({ bpm: 120, chordCount: 4, barsPerChord: 1 });
  assert.deepEqual(bedSections(t), {
    barSamples: 96000,
    introSamples: 192000,
    loopSamples: 768000,
    joinSamples: JOIN_SAMPLES,
    outroBodySamples: 192000,
    outroSamples: JOIN_SAMPLES + 5 * 96000,
  });
});
