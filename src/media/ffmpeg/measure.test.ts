import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildBlackDetectArgs,
  buildLoudnessArgs,
  buildPosterArgs,
  detectBlack,
  extractPoster,
  measureLoudness,
  parseBlackDetectLine,
  parseEbur128Summary,
} from './measure.ts';
import { probeMedia } from './probe.ts';
import { runFfmpeg } from './runner.ts';

const SUMMARY = `[Parsed_ebur128_0 @ 0x55aee41c3480] t: 2.9   TARGET:-23 LUFS    M: -27.8 S:-120.7     I: -27.9 LUFS
[Parsed_ebur128_0 @ 0x55aee41c3480] Summary:

  Integrated loudness:
    I:         -27.8 LUFS
    Threshold: -37.8 LUFS

  Loudness range:
    LRA:        20.0 LU
    Threshold: -47.8 LUFS
    LRA low:   -47.8 LUFS
    LRA high:  -27.8 LUFS

  True peak:
    Peak:      -24.1 dBFS
`;

describe('parseEbur128Summary', () => {
  test('reads I, LRA and true peak from the summary, not the frame log', () => {
    assert.deepEqual(parseEbur128Summary(SUMMARY), { integratedLufs: -27.8, truePeakDb: -24.1, lra: 20 });
  });
  test('silence', () => {
    const silent = SUMMARY.replace(
      '-27.8 LUFS\n    Threshold: -37.8',
      '-70.0 LUFS\n    Threshold:   0.0',
    ).replace('-24.1 dBFS', '-inf dBFS');
    assert.deepEqual(parseEbur128Summary(silent), { integratedLufs: -70, truePeakDb: -Infinity, lra: 20 });
  });
  test('no summary', () =>
    assert.throws(() => parseEbur128Summary('Conversion failed!'), /no ebur128 summary/));
});

describe('parseBlackDetectLine', () => {
  const cases: [string, ReturnType<typeof parseBlackDetectLine>][] = [
    [
      '[blackdetect @ 0x5581] black_start:0 black_end:1.04 black_duration:1.04',
      { start: 0, end: 1.04, duration: 1.04 },
    ],
    [
      '[blackdetect @ 0x5581] black_start:2.5 black_end:3 black_duration:0.5',
      { start: 2.5, end: 3, duration: 0.5 },
    ],
    ['frame=  100 fps=0.0 q=-0.0 size=N/A', null],
  ];
  for (const [line, expected] of cases) {
    test(line.slice(0, 50), () => assert.deepEqual(parseBlackDetectLine(line), expected));
  }
});

describe('argument builders', () => {
  test('loudness', () =>
    assert.deepEqual(buildLoudnessArgs('a.mp4'), [
      '-i',
      'a.mp4',
      '-vn',
      '-sn',
      '-dn',
      '-af',
      'ebur128=peak=true',
      '-f',
      'null',
      '-',
    ]));
  test('black detection', () =>
    assert.deepEqual(buildBlackDetectArgs('a.mp4', { minDuration: 0.25 }), [
      '-i',
      'a.mp4',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      'blackdetect=d=0.25:pix_th=0.1',
      '-f',
      'null',
      '-',
    ]));
  test('poster', () =>
    assert.deepEqual(buildPosterArgs('a.mp4', 'p.jpg', 1.23456), [
      '-y',
      '-ss',
      '1.235',
      '-i',
      'a.mp4',
      '-frames:v',
      '1',
      '-q:v',
      '2',
      '-update',
      '1',
      'p.jpg',
    ]));
});

describe('real measurements', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-measure-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('measureLoudness of a 997 Hz sine at -18 dBFS peak', async () => {
    // BS.1770 puts a full-scale 997 Hz mono sine at -3.01 LUFS; amplitude 1/8 is 18.06 dB lower.
    const wav = join(dir, 'sine.wav');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=f=997:d=4', wav]);
    const stats = await measureLoudness(wav);
    assert.ok(Math.abs(stats.integratedLufs - -21.07) <= 0.2, `I ${stats.integratedLufs}`);
    assert.ok(Math.abs(stats.truePeakDb - -18.06) <= 0.2, `TP ${stats.truePeakDb}`);
  });

  test('detectBlack finds the black runs and ignores short ones', async () => {
    const mp4 = join(dir, 'black.mp4');
    // 1 s black, 1 s white, 0.3 s black, 1 s white, 1 s black.
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=64x64:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'color=c=white:s=64x64:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=64x64:r=25:d=0.3',
      '-f',
      'lavfi',
      '-i',
      'color=c=white:s=64x64:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=64x64:r=25:d=1',
      '-filter_complex',
      '[0:v][1:v][2:v][3:v][4:v]concat=n=5:v=1:a=0',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      mp4,
    ]);
    const intervals = await detectBlack(mp4, { minDuration: 0.5 });
    assert.equal(intervals.length, 2, JSON.stringify(intervals));
    assert.ok(Math.abs((intervals[0]?.start ?? -1) - 0) < 0.05);
    assert.ok(Math.abs((intervals[0]?.end ?? -1) - 1) < 0.05);
    assert.ok(Math.abs((intervals[1]?.start ?? -1) - 3.3) < 0.05);
    assert.ok(Math.abs((intervals[1]?.end ?? -1) - 4.3) < 0.05);
  });

  test('extractPoster writes one JPEG frame', async () => {
    const mp4 = join(dir, 'poster-src.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=96x64:r=25:d=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      mp4,
    ]);
    const jpg = join(dir, 'poster.jpg');
    await extractPoster(mp4, jpg, 1);
    const info = await probeMedia(jpg);
    assert.equal(info.video?.codec, 'mjpeg');
    assert.equal(info.video?.width, 96);
    assert.equal(info.video?.height, 64);
  });
});
