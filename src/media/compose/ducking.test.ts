import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { renderComposition } from './render-composition.ts';

// The music bed ducks under the scenes' own sound (a video model's native audio) as it does under narration:
// measured on the rendered file, in the music's frequency band, with and without scene sound above it.

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ducking-'));
  const lavfi = (input: string, out: string, extra: string[] = []) =>
    runFfmpeg(['-y', '-f', 'lavfi', '-i', input, ...extra, out], { timeoutMs: 60_000 });
  // A scene with its own sound (a 1 kHz tone) and one without; the music is a steady 200 Hz bed.
  await runFfmpeg(
    [
      '-y',
      ...['-f', 'lavfi', '-i', 'testsrc2=s=270x480:r=30:d=3'],
      ...['-f', 'lavfi', '-i', 'sine=f=1000:d=3'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
      join(dir, 'with-sound.mp4'),
    ],
    { timeoutMs: 60_000 },
  );
  await lavfi('testsrc2=s=270x480:r=30:d=3', join(dir, 'silent.mp4'), [
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  ]);
  await lavfi('sine=f=200:d=6', join(dir, 'music.wav'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Mean level (dB) of the 200 Hz band of `file` between `from` and `from + seconds`. */
async function musicBandLevel(file: string, from: number, seconds: number): Promise<number> {
  const { stderrTail } = await runFfmpeg(
    [
      ...['-ss', String(from), '-t', String(seconds), '-i', file],
      ...['-af', 'bandpass=f=200:width_type=q:w=4,volumedetect', '-f', 'null', '-'],
    ],
    { timeoutMs: 60_000 },
  );
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderrTail);
  assert.ok(match, stderrTail);
  return Number(match[1]);
}

test('music ducks under a scene’s own sound by several dB', async () => {
  const out = join(dir, 'out.mp4');
  await renderComposition({
    outputPath: out,
    width: 270,
    height: 480,
    fps: 30,
    durationSec: 6,
    scenes: [
      { path: join(dir, 'with-sound.mp4'), inPoint: 0, duration: 3, hasAudio: true },
      { path: join(dir, 'silent.mp4'), inPoint: 0, duration: 3 },
    ],
    music: { path: join(dir, 'music.wav'), volume: 0.5, fadeInSec: 0, fadeOutSec: 0 },
    encoding: { preset: 'ultrafast' },
  });
  const underSound = await musicBandLevel(out, 0.8, 1.8);
  const alone = await musicBandLevel(out, 4.0, 1.6);
  assert.ok(alone - underSound >= 6, `music under the scene sound ${underSound} dB, alone ${alone} dB`);
});
