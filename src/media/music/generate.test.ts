import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureLoudness } from '../ffmpeg/measure.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { seedMusicRecipes } from './beds.ts';
import {
  BED_TARGET_LUFS,
  buildEncodeArgs,
  buildSynthArgs,
  generateBed,
  parseIntegratedLoudness,
} from './generate.ts';

describe('parseIntegratedLoudness', () => {
  const cases: [string, number | undefined][] = [
    ['  Integrated loudness:\n    I:         -23.4 LUFS\n    Threshold: -33.7 LUFS', -23.4],
    ['t: 0.1 M: -120.7 S:-120.7 I: -70.0 LUFS\n...\nSummary:\n    I:         -18.0 LUFS', -18],
    ['    I:         -inf LUFS', -Infinity],
    ['no meter here', undefined],
  ];
  for (const [text, expected] of cases)
    test(JSON.stringify(expected), () => assert.equal(parseIntegratedLoudness(text), expected));
});

test('buildEncodeArgs', () => {
  assert.deepEqual(buildEncodeArgs('/a.wav', '/b.m4a', -3.456), [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-i',
    '/a.wav',
    '-af',
    'volume=-3.46dB,alimiter=limit=0.891:level=false',
    '-c:a',
    'aac',
    '-b:a',
    '160k',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '/b.m4a',
  ]);
});

test('buildSynthArgs sends the bed to the file and the meter to nowhere', () => {
  const args = buildSynthArgs(seedMusicRecipes()[0]!, '/x.wav', 5);
  assert.deepEqual(args.slice(-10), [
    '-map',
    '[bed]',
    '-c:a',
    'pcm_f32le',
    '/x.wav',
    '-map',
    '[meter]',
    '-f',
    'null',
    '-',
  ]);
  assert.deepEqual(args.slice(0, 5), ['-hide_banner', '-nostdin', '-nostats', '-y', '-filter_complex']);
});

describe('real bed (5 s)', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'music-gen-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('stereo 48 kHz AAC near the target loudness, not silent, not mono', async () => {
    const bed = seedMusicRecipes().find((b) => b.id === 'uplifting-open-road')!;
    const out = join(dir, 'bed.m4a');
    const result = await generateBed(bed, out, { lengthSec: 5 });
    assert.deepEqual(readdirSync(dir), ['bed.m4a']);
    assert.ok(Number.isFinite(result.sourceLufs));
    assert.equal(result.durationSec, 5);

    const info = await probeMedia(out);
    assert.deepEqual(info.audio, { sampleRate: 48000, channels: 2, codec: 'aac' });
    assert.equal(info.video, undefined);
    assert.ok(Math.abs(info.durationSec - 5) < 0.2, String(info.durationSec));

    const meter = await measureLoudness(out);
    assert.ok(
      Math.abs(meter.integratedLufs - BED_TARGET_LUFS) < 1.5,
      `integrated ${meter.integratedLufs} LUFS`,
    );
    assert.ok(meter.truePeakDb < -0.5, `true peak ${meter.truePeakDb}`);

    // The channels differ: the side signal (L−R) is well above silence.
    const side = await runFfmpeg(['-i', out, '-af', 'pan=mono|c0=c0-c1,volumedetect', '-f', 'null', '-']);
    const sideMean = Number(/mean_volume: (-?[0-9.]+) dB/.exec(side.stderrTail)![1]);
    assert.ok(sideMean > -55, `side signal ${sideMean} dB`);
  });

  test('an aborted render leaves no file', async () => {
    const controller = new AbortController();
    const out = join(dir, 'aborted.m4a');
    const pending = generateBed(seedMusicRecipes()[0]!, out, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, { name: 'AbortError' });
    assert.ok(!existsSync(out));
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('aborted')),
      [],
    );
  });
});
