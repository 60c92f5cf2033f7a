import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bedGraph, bedInputArgs, planBed } from './bed-graph.ts';
import { bedSections, bedTiming } from './timing.ts';

// 120 bpm, four one-bar chords: 2 s bars, a 4 s intro, a 16 s loop, a 4 s outro body.
const SECTIONS = bedSections(bedTiming({ bpm: 120, chordCount: 4, barsPerChord: 1 }));
const S = 48000;

describe('planBed', () => {
  const cases: {
    sec: number;
    intro: boolean;
    loop: number;
    outro: boolean;
    outroSec: number;
    fade: number;
    seams: number[];
  }[] = [
    // 4 s intro, 34 s of loop (wrapping at 16 and 32 s in), the outro on the bar line that leaves it ≥ 6 s.
    { sec: 45, intro: true, loop: 34, outro: true, outroSec: 7, fade: 1, seams: [4, 20, 36, 38] },
    { sec: 30, intro: true, loop: 20, outro: true, outroSec: 6, fade: 1, seams: [4, 20, 24] },
    { sec: 16, intro: true, loop: 6, outro: true, outroSec: 6, fade: 1, seams: [4, 10] },
    // Too short for intro, a bar and the outro: it starts on the downbeat.
    { sec: 11, intro: false, loop: 4, outro: true, outroSec: 7, fade: 1, seams: [4] },
    { sec: 9, intro: false, loop: 2, outro: true, outroSec: 7, fade: 1, seams: [2] },
    // Too short for a bar and the outro: the loop alone, faded over a quarter of it.
    { sec: 7, intro: false, loop: 7, outro: false, outroSec: 0, fade: 1.75, seams: [] },
    { sec: 20.5, intro: true, loop: 10, outro: true, outroSec: 6.5, fade: 1, seams: [4, 14] },
  ];
  for (const c of cases) {
    test(`${c.sec} s`, () => {
      const plan = planBed(SECTIONS, c.sec);
      assert.deepEqual(plan, {
        lengthSamples: c.sec * S,
        intro: c.intro,
        loopSamples: c.loop * S,
        outro: c.outro,
        outroSamples: c.outroSec * S,
        fadeOutSamples: c.fade * S,
        seams: c.seams.map((s) => s * S),
      });
      assert.equal(
        (plan.intro ? SECTIONS.introSamples : 0) + plan.loopSamples + plan.outroSamples,
        plan.lengthSamples,
      );
      if (plan.outro) {
        assert.equal(plan.loopSamples % SECTIONS.barSamples, 0, 'the outro starts on a bar line');
        assert.ok(
          plan.outroSamples + SECTIONS.joinSamples <= SECTIONS.outroSamples,
          'the outro file fills its part',
        );
      }
    });
  }
  test('a long bed wraps the loop every 16 s', () => {
    const plan = planBed(SECTIONS, 120);
    assert.deepEqual(
      plan.seams.map((s) => s / S),
      [4, 20, 36, 52, 68, 84, 100, 114],
    );
  });
  test('no length, no bed', () => {
    assert.throws(() => planBed(SECTIONS, 0), /cannot last 0 s/);
    assert.throws(() => planBed(SECTIONS, Number.NaN), /cannot last NaN s/);
  });
});

describe('bedGraph', () => {
  const inputs = { intro: '4:a', loop: '5:a', outro: '6:a' };
  const fmt = 'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

  test('intro, loop and outro: the loop enters 50 ms before its downbeat, each join crossfades', () => {
    assert.deepEqual(bedGraph(SECTIONS, planBed(SECTIONS, 45), inputs, 'music').split(';'), [
      `[5:a]${fmt},atrim=start_sample=765600:end_sample=2400000,asetpts=PTS-STARTPTS[bedloop]`,
      `[4:a]${fmt},atrim=start_sample=0:end_sample=192000,asetpts=PTS-STARTPTS[bedintro]`,
      '[bedintro][bedloop]acrossfade=ns=2400:c1=tri:c2=tri[bedhead]',
      `[6:a]${fmt},atrim=start_sample=0:end_sample=338400,asetpts=PTS-STARTPTS[bedoutro]`,
      '[bedhead][bedoutro]acrossfade=ns=2400:c1=tri:c2=tri[bedbody]',
      '[bedbody]afade=t=out:ss=2112000:ns=48000[music]',
    ]);
  });

  test('the loop alone, from its downbeat, faded', () => {
    assert.deepEqual(bedGraph(SECTIONS, planBed(SECTIONS, 7), inputs, 'music').split(';'), [
      `[5:a]${fmt},atrim=start_sample=0:end_sample=336000,asetpts=PTS-STARTPTS[bedloop]`,
      '[bedloop]afade=t=out:ss=252000:ns=84000[music]',
    ]);
  });

  test('the inputs: the loop read round and round', () => {
    assert.deepEqual(bedInputArgs({ intro: '/i.m4a', loop: '/l.m4a', outro: '/o.m4a' }), [
      '-i',
      '/i.m4a',
      '-stream_loop',
      '-1',
      '-i',
      '/l.m4a',
      '-i',
      '/o.m4a',
    ]);
  });
});
