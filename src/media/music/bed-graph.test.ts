import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  bedGraph,
  bedTiming,
  crossfadeExpr,
  cyclesPerLoop,
  drumsExpr,
  edgesExpr,
  selectExpr,
  SYNTH_SAMPLE_RATE,
  tonalExpr,
  type BedArrangement,
} from './bed-graph.ts';
import { seedMusicRecipes } from './beds.ts';

const SMALL: BedArrangement = {
  chords: ['C', 'G'],
  barsPerChord: 1,
  padLow: 55,
  attackSec: 0.5,
  bass: 'none',
  arp: 'none',
  kick: 'half',
  hat: 'offbeat',
  shimmer: false,
  brightnessHz: 2000,
};

describe('bedTiming', () => {
  const cases: {
    bpm: number;
    chords: number;
    bars: 1 | 2;
    cycleSec: number;
    cycles: number;
    durationSec: number;
  }[] = [
    { bpm: 64, chords: 4, bars: 2, cycleSec: 30, cycles: 3, durationSec: 90 },
    { bpm: 120, chords: 4, bars: 1, cycleSec: 8, cycles: 9, durationSec: 72 },
    { bpm: 120, chords: 2, bars: 1, cycleSec: 4, cycles: 19, durationSec: 76 },
    { bpm: 100, chords: 4, bars: 1, cycleSec: 9.6, cycles: 8, durationSec: 76.8 },
    { bpm: 60, chords: 8, bars: 2, cycleSec: 64, cycles: 1, durationSec: 64 },
  ];
  for (const c of cases) {
    test(`${c.bpm} bpm, ${c.chords}×${c.bars} bars`, () => {
      const t = bedTiming(c.bpm, {
        ...SMALL,
        chords: Array<string>(c.chords).fill('C'),
        barsPerChord: c.bars,
      });
      assert.deepEqual([t.cycleSec, t.cycles, t.durationSec], [c.cycleSec, c.cycles, c.durationSec]);
      assert.equal(t.cycleSamples, c.cycleSec * SYNTH_SAMPLE_RATE);
    });
  }
  test('a beat that is not a whole number of samples is refused', () => {
    assert.throws(() => bedTiming(70, SMALL), /not a whole number of samples/);
  });
  test('a cycle too long for 90 s is refused', () => {
    assert.throws(
      () => bedTiming(60, { ...SMALL, chords: Array<string>(16).fill('C'), barsPerChord: 2 }),
      /cannot make a 60–90 s bed/,
    );
  });
  test('every catalogue bed lasts 60–90 s', () => {
    for (const bed of seedMusicRecipes()) {
      const t = bedTiming(bed.bpm, bed.arrangement);
      assert.ok(t.durationSec >= 60 && t.durationSec <= 90, bed.id);
    }
  });
});

describe('expression builders', () => {
  test('selectExpr', () =>
    assert.equal(selectExpr(0, ['1', '2', '3']), 'if(eq(ld(0),0),1,if(eq(ld(0),1),2,3))'));
  test('crossfadeExpr', () => assert.equal(crossfadeExpr(0.5), 'st(2,(1-cos(PI*min(ld(1)/0.5,1)))/2)'));
  test('edgesExpr', () => assert.equal(edgesExpr('ld(5)', 0.25), 'min(1,ld(5)*200)*min(1,(0.25-ld(5))*100)'));
  test('cyclesPerLoop rounds to whole periods per cycle', () => {
    const t = bedTiming(120, SMALL);
    assert.equal(cyclesPerLoop(440, t), 1760);
    assert.equal(cyclesPerLoop(261.6256, t), 1047);
  });
  test('drumsExpr: half-time kick and off-beat hat', () => {
    assert.equal(
      drumsExpr(SMALL, bedTiming(120, SMALL)),
      '(st(0,mod(t,1));0.55*min(1,ld(0)*200)*min(1,(1-ld(0))*100)*exp(-ld(0)*7)*sin(2*PI*(45*ld(0)+90*(1-exp(-ld(0)*25))/25)))' +
        '+(st(1,mod(t+0.25,0.5));0.1*exp(-ld(1)*60)*(2*random(6)-1))',
    );
  });
  test('no drums, no drum expression', () => {
    assert.equal(drumsExpr({ ...SMALL, kick: 'none', hat: 'none' }, bedTiming(120, SMALL)), undefined);
  });
});

describe('bedGraph', () => {
  const t = bedTiming(120, SMALL);
  const outline = (graph: string): string => graph.replace(/aevalsrc='[^']*'/g, "aevalsrc='…'");

  test('whole bed: one cycle looped to length, faded, metered', () => {
    assert.equal(
      outline(bedGraph(SMALL, t)),
      "aevalsrc='…':s=24000,atrim=end_sample=96000,aloop=loop=18:size=96000,lowpass=f=2000[tonal];" +
        "aevalsrc='…':s=24000,atrim=end_sample=96000,aloop=loop=18:size=96000,aformat=channel_layouts=stereo[drums];" +
        '[tonal][drums]amix=inputs=2:normalize=0,aresample=48000,aecho=0.8:0.8:70|130:0.25|0.15,highpass=f=35,' +
        'afade=t=in:d=1.5,afade=t=out:st=73:d=3,asplit[bed][m];[m]ebur128[meter]',
    );
  });

  test('an opening only: fewer loops, trimmed, shorter fades', () => {
    assert.equal(
      outline(bedGraph({ ...SMALL, kick: 'none', hat: 'none' }, t, 5)),
      "aevalsrc='…':s=24000,atrim=end_sample=96000,aloop=loop=1:size=96000,lowpass=f=2000," +
        'atrim=end_sample=120000,aresample=48000,aecho=0.8:0.8:70|130:0.25|0.15,highpass=f=35,' +
        'afade=t=in:d=1.25,afade=t=out:st=3.75:d=1.25,asplit[bed][m];[m]ebur128[meter]',
    );
  });
});

test('the tonal cycle continues exactly into its own start', () => {
  const full: BedArrangement = { ...SMALL, bass: 'sustain', arp: 'eighths', shimmer: true, kick: 'four' };
  const timing = bedTiming(120, full);
  const extra = 200;
  const graph = `aevalsrc='${tonalExpr(full, timing, -1)}|${tonalExpr(full, timing, 1)}':s=${SYNTH_SAMPLE_RATE},atrim=end_sample=${timing.cycleSamples + extra}`;
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-filter_complex', graph, '-f', 'f32le', '-'], {
    maxBuffer: 1 << 26,
  });
  const samples = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
  assert.equal(samples.length, 2 * (timing.cycleSamples + extra));
  // Past the end of the cycle the expression must repeat its opening: that is what aloop joins.
  let loudest = 0;
  let worst = 0;
  for (let i = 0; i < 2 * extra; i++) {
    loudest = Math.max(loudest, Math.abs(samples[i]!));
    worst = Math.max(worst, Math.abs(samples[2 * timing.cycleSamples + i]! - samples[i]!));
  }
  assert.ok(loudest > 0.02, `the opening is silent (${loudest})`);
  assert.ok(worst < 1e-3, `the cycle does not repeat (difference ${worst})`);
  assert.notEqual(samples[2000], samples[2001], 'left and right differ');
});
