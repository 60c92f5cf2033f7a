import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { deliveryEncodeArgs } from '../ffmpeg/delivery-encode.ts';
import { renderComposition } from './render-composition.ts';
import { cutSegments, frameScenes, joinSegments, refitScene, windowAss } from './scene-segments.ts';

const piece = (path: string, duration: number) => ({ path, inPoint: 0, duration });

void test('scenes land on whole frames and their pieces fill exactly their frames', () => {
  const pieces = [piece('a', 1.234), piece('b', 0.9), piece('c', 2.1), piece('d', 0.766)];
  const framed = frameScenes(pieces, [0, 1.234, 4.234], 5, 30);
  assert.deepEqual(
    framed.map((s) => [s.startFrame, s.frames]),
    [
      [0, 37],
      [37, 90],
      [127, 23],
    ],
  );
  for (const scene of framed) {
    const frames = scene.pieces.reduce((sum, p) => sum + Math.round(p.duration * 30), 0);
    assert.equal(frames, scene.frames);
    for (const p of scene.pieces) assert.ok(Math.abs(p.duration * 30 - Math.round(p.duration * 30)) < 1e-9);
  }
  assert.deepEqual(
    framed[1]!.pieces.map((p) => p.path),
    ['b', 'c'],
  );
  const longer = refitScene(framed[1]!, 120, 30);
  assert.equal(
    longer.reduce((sum, p) => sum + Math.round(p.duration * 30), 0),
    120,
  );
});

void test('a stretch of an ASS script keeps its own events, clipped and re-timed', () => {
  const ass = [
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    'Dialogue: 0,0:00:00.00,0:00:01.00,Caption,,0,0,0,,one',
    'Dialogue: 0,0:00:01.00,0:00:02.50,Caption,,0,0,0,,two, three',
    'Dialogue: 0,0:00:02.50,0:00:04.00,Caption,,0,0,0,,four',
  ].join('\n');
  assert.deepEqual(windowAss(ass, 1, 3).split('\n').slice(2), [
    'Dialogue: 0,0:00:00.00,0:00:01.50,Caption,,0,0,0,,two, three',
    'Dialogue: 0,0:00:01.50,0:00:02.00,Caption,,0,0,0,,four',
  ]);
});

void test('scene starts force keyframes; a stream copy of the video leaves only the audio encoded', () => {
  const base = { preset: 'veryfast', crf: 22, fps: 30, audioBitrateKbps: 160, durationSec: 3 };
  const forced = deliveryEncodeArgs({ ...base, keyframeFrames: [37, 127] });
  assert.deepEqual(
    forced.slice(forced.indexOf('-force_key_frames'), forced.indexOf('-force_key_frames') + 2),
    ['-force_key_frames', 'expr:eq(n,37)+eq(n,127)'],
  );
  const copy = deliveryEncodeArgs({ ...base, copyVideo: true });
  assert.deepEqual(copy.slice(0, 4), ['-c:v', 'copy', '-c:a', 'aac']);
});

/** MD5 of every decoded frame. */
function frameHashes(path: string): string[] {
  const run = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v', '-f', 'framemd5', '-']);
  assert.equal(run.status, 0, run.stderr.toString());
  return run.stdout
    .toString()
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').pop()!.trim());
}

/** Per frame, where the red progress bar on the bottom row ends (its length from the left, px). */
function barEnds(path: string, width: number): number[] {
  const run = spawnSync('ffmpeg', [
    ...['-v', 'error', '-i', path, '-map', '0:v', '-vf', 'format=rgb24,crop=iw:1:0:ih-4'],
    ...['-f', 'rawvideo', '-'],
  ]);
  assert.equal(run.status, 0, run.stderr.toString());
  const rows = run.stdout;
  const ends: number[] = [];
  for (let at = 0; at + width * 3 <= rows.length; at += width * 3) {
    let x = 0;
    while (x < width && rows[at + x * 3]! > 180 && rows[at + x * 3 + 1]! < 80 && rows[at + x * 3 + 2]! < 80)
      x++;
    ends.push(x);
  }
  return ends;
}

void test('segments cut from a render and joined again give back its frames; one scene replaced changes only it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rs-segments-'));
  try {
    const source = (name: string, filter: string) => {
      const path = join(dir, `${name}.mp4`);
      const made = spawnSync('ffmpeg', [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', filter, '-t', '3'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path],
      ]);
      assert.equal(made.status, 0, made.stderr.toString());
      return path;
    };
    const a = source('a', 'testsrc2=s=160x284:r=30');
    const b = source('b', 'mandelbrot=s=160x284:r=30');
    const framed = frameScenes([piece(a, 1.3), piece(b, 1.1), piece(a, 1.0)], [0, 1.3, 2.4], 3.4, 30);
    const spec = {
      width: 144,
      height: 256,
      fps: 30,
      durationSec: 102 / 30,
      progressBar: { position: 'bottom' as const, color: '#FF0000' },
      encoding: { preset: 'ultrafast', keyframeFrames: framed.slice(1).map((s) => s.startFrame) },
    };
    const full = join(dir, 'full.mp4');
    await renderComposition({ ...spec, outputPath: full, scenes: framed.flatMap((s) => s.pieces) });
    const segments = await cutSegments(full, framed, dir);
    const joined = join(dir, 'joined.mp4');
    await joinSegments(segments, { ...spec, outputPath: joined, scenes: framed[0]!.pieces }, dir);
    const original = frameHashes(full);
    assert.equal(original.length, 102);
    assert.deepEqual(frameHashes(joined), original);

    // Scene 1 alone, now showing clip a, drawn as part of the whole timeline (its progress bar included).
    const scene = framed[1]!;
    const alone = join(dir, 'scene1.mp4');
    await renderComposition({
      ...spec,
      outputPath: alone,
      durationSec: scene.frames / 30,
      scenes: [piece(a, scene.frames / 30)],
      progressBar: {
        ...spec.progressBar,
        timeline: { offsetSec: scene.startFrame / 30, totalSec: 102 / 30 },
      },
      encoding: { preset: 'ultrafast' },
    });
    await mkdir(join(dir, 'alone'));
    const [videoOnly] = await cutSegments(alone, [{ startFrame: 0 }], join(dir, 'alone'));
    const revised = join(dir, 'revised.mp4');
    await joinSegments(
      [segments[0]!, videoOnly!, segments[2]!],
      { ...spec, outputPath: revised, scenes: framed[0]!.pieces },
      dir,
    );
    const after = frameHashes(revised);
    assert.equal(after.length, 102);
    const { startFrame, frames } = scene;
    assert.deepEqual(after.slice(0, startFrame), original.slice(0, startFrame));
    assert.deepEqual(after.slice(startFrame + frames), original.slice(startFrame + frames));
    assert.ok(after.slice(startFrame, startFrame + frames).every((h, i) => h !== original[startFrame + i]));
    // The replaced scene's progress bar stands where the whole render had it, frame by frame.
    const bar = (path: string) => barEnds(path, 144);
    const before = bar(full);
    const now = bar(revised);
    for (let f = startFrame; f < startFrame + frames; f++)
      assert.ok(Math.abs(now[f]! - before[f]!) <= 2, `frame ${f}: bar ends at ${now[f]} not ${before[f]}`);
    assert.ok(before[startFrame + frames - 1]! > before[startFrame]!, 'the bar moves');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
