// End to end: real sources made with lavfi, a real render, and checks on the finished file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAss } from '../captions/build-ass.ts';
import { highlightPreset } from '../captions/caption-presets.ts';
import { detectBlack, measureLoudness } from '../ffmpeg/measure.ts';
import { isFaststart, readTopLevelAtoms } from '../ffmpeg/mp4-atoms.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { ComposeSpec } from './compose-spec.ts';
import { renderComposition } from './render-composition.ts';

const W = 270;
const H = 480;

describe('renderComposition', () => {
  let dir = '';
  const src = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-compose-'));
    const clip = (name: string, video: string) =>
      runFfmpeg([
        '-y',
        '-f',
        'lavfi',
        '-i',
        video,
        '-f',
        'lavfi',
        '-i',
        'sine=f=330:sample_rate=44100',
        '-t',
        '3',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-ac',
        '1',
        src(name),
      ]);
    await clip('landscape.mp4', 'testsrc=s=320x240:r=25');
    await clip('portrait.mp4', 'color=c=0x3366CC:s=240x426:r=30');
    // Steady tone as narration (22.05 kHz mono, like a TTS engine would write).
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=440:d=5:sample_rate=22050',
      '-af',
      'volume=0.5',
      src('narration.wav'),
    ]);
    // 20 ms bursts near full scale over a quiet tone: normalising this needs the limiter.
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      "aevalsrc=exprs='if(lt(mod(t,0.5),0.02),0.9*sin(2*PI*1000*t),0.05*sin(2*PI*300*t))':s=22050:d=5",
      src('spiky.wav'),
    ]);
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=f=220:d=2', src('music.wav')]);
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=0xFFD60A@0.9:s=120x60,format=rgba',
      '-frames:v',
      '1',
      src('logo.png'),
    ]);
    const words = 'This is the story of how it all began.'
      .split(' ')
      .map((word, i) => ({ word, start: 0.3 + i * 0.5, end: 0.7 + i * 0.5 }));
    await writeFile(src('captions.ass'), buildAss(words, highlightPreset(), { width: W, height: H }));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function spec(out: string, narration: string): ComposeSpec {
    return {
      outputPath: src(out),
      width: W,
      height: H,
      durationSec: 6,
      scenes: [
        { path: src('landscape.mp4'), inPoint: 0.5, duration: 2.5, hasAudio: true },
        { path: src('logo.png'), kind: 'image', inPoint: 0, duration: 1 },
        { path: src('portrait.mp4'), inPoint: 0, duration: 2.5 },
      ],
      narration: { path: src(narration), tempo: 1.1 },
      music: { path: src('music.wav'), volume: 0.4 },
      ass: { path: src('captions.ass'), fontsDir: '/usr/share/fonts/truetype/dejavu' },
      logo: { path: src('logo.png') },
      watermark: { text: 'Made with Reelsmith' },
      progressBar: { position: 'bottom', color: '#FFD60A' },
    };
  }

  test('renders a postable vertical MP4', async () => {
    const progress: number[] = [];
    const result = await renderComposition(spec('out.mp4', 'narration.wav'), {
      onProgress: (f) => progress.push(f),
    });
    assert.equal(result.gain?.limiter, false);
    assert.ok((progress.at(-1) ?? 0) > 0.95, `last progress ${progress.at(-1)}`);

    const info = await probeMedia(result.outputPath);
    assert.equal(info.video?.codec, 'h264');
    assert.equal(info.video?.pixFmt, 'yuv420p');
    assert.equal(info.video?.width, W);
    assert.equal(info.video?.height, H);
    assert.equal(info.video?.fps, 30);
    assert.equal(info.audio?.codec, 'aac');
    assert.equal(info.audio?.sampleRate, 48000);
    assert.equal(info.audio?.channels, 2);
    assert.ok(Math.abs(info.durationSec - 6) <= 0.1, `duration ${info.durationSec}`);

    assert.equal(isFaststart(await readTopLevelAtoms(result.outputPath)), true);

    const loudness = await measureLoudness(result.outputPath);
    assert.ok(Math.abs(loudness.integratedLufs - -14) <= 1, `integrated ${loudness.integratedLufs} LUFS`);
    assert.ok(loudness.truePeakDb <= -1, `true peak ${loudness.truePeakDb} dBTP`);

    assert.deepEqual(await detectBlack(result.outputPath, { minDuration: 0.5 }), []);
  });

  test('peaky narration goes through the limiter and still lands on target', async () => {
    const result = await renderComposition(spec('spiky.mp4', 'spiky.wav'));
    assert.equal(result.gain?.limiter, true);
    const loudness = await measureLoudness(result.outputPath);
    assert.ok(Math.abs(loudness.integratedLufs - -14) <= 0.5, `integrated ${loudness.integratedLufs} LUFS`);
    assert.ok(loudness.truePeakDb <= -1, `true peak ${loudness.truePeakDb} dBTP`);
  });

  test('the poster and a tap come out of the same run, from the frames it encodes', async () => {
    const lines: string[] = [];
    const poster = src('poster.jpg');
    // Scene 2 is the logo still (yellow) from 2.5 s to 3.5 s; the tap sees frames 30 apart from 0.
    await renderComposition(
      { ...spec('tapped.mp4', 'narration.wav'), poster: { path: poster, atSec: 3 } },
      {
        tap: {
          filter: 'fps=1,signalstats,metadata=print:key=lavfi.signalstats.YAVG',
          onStderrLine: (l) => lines.push(l),
        },
      },
    );
    const still = await probeMedia(poster);
    assert.equal(still.video?.codec, 'mjpeg');
    assert.equal(still.video?.width, W);
    assert.equal(still.video?.height, H);
    const luma = lines.flatMap((l) => /YAVG=([\d.]+)/.exec(l)?.[1] ?? []).map(Number);
    assert.equal(luma.length, 6, lines.join('\n'));
    // The yellow still is far brighter than the blue clip after it.
    assert.ok(luma[3]! > luma[5]! + 50, `luma ${luma.join(', ')}`);
  });

  test('a composition without sound still gets an audio track', async () => {
    const result = await renderComposition({
      outputPath: src('silent.mp4'),
      width: W,
      height: H,
      durationSec: 2,
      scenes: [{ path: src('portrait.mp4'), inPoint: 0, duration: 2 }],
    });
    assert.equal(result.mixLoudness, null);
    const info = await probeMedia(result.outputPath);
    assert.equal(info.audio?.codec, 'aac');
    assert.ok(Math.abs(info.durationSec - 2) <= 0.1, `duration ${info.durationSec}`);
  });
});
