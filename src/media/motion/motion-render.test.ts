// The local motion engine through the real compose: MP4s rendered from textured stills and a clip, decoded
// again, and their motion measured by phase correlation on the decoded frames.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderComposition } from '../compose/render-composition.ts';
import type { ComposeScene } from '../compose/compose-spec.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { parseCameraMove } from './camera-move.ts';
import { frameMotion, patchShift, smoothness, type GrayFrame } from './motion-measure.ts';

const NOISE = (seed: number, size: string) =>
  `color=gray:s=${size},noise=alls=100:allf=u:all_seed=${seed},gblur=sigma=2,format=rgb24`;

/** Decodes every coded frame (no frame-rate conversion) to 8-bit luma and hands them out one at a time. */
async function* grayFrames(
  path: string,
  width: number,
  height: number,
  dir: string,
): AsyncGenerator<GrayFrame> {
  const raw = join(dir, `${Math.random().toString(36).slice(2)}.gray`);
  await runFfmpeg(['-y', '-i', path, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', raw]);
  const file = await open(raw);
  try {
    const size = width * height;
    for (let at = 0; ; at += size) {
      const data = new Uint8Array(size);
      const { bytesRead } = await file.read(data, 0, size, at);
      if (bytesRead < size) return;
      yield { width, height, data };
    }
  } finally {
    await file.close();
    await rm(raw, { force: true });
  }
}

function rms(values: number[]): number {
  return Math.sqrt(values.reduce((sum, v) => sum + v * v, 0) / values.length);
}

interface ZoomMeasure {
  frames: number;
  expansion: number[];
  dx: number[];
  dy: number[];
}

async function measure(path: string, width: number, height: number, dir: string): Promise<ZoomMeasure> {
  const m: ZoomMeasure = { frames: 0, expansion: [], dx: [], dy: [] };
  let previous: GrayFrame | null = null;
  for await (const frame of grayFrames(path, width, height, dir)) {
    m.frames += 1;
    if (previous) {
      const f = frameMotion(previous, frame, { x: width * 0.35, y: height * 0.35 });
      m.expansion.push(f.expansion);
      m.dx.push(f.dx);
      m.dy.push(f.dy);
    }
    previous = frame;
  }
  return m;
}

/**
 * What a smooth slow zoom looks like when measured: the scale grows frame after frame to about the move's
 * total, the middle of the move never stalls, and the centre does not wander (integer-stepped crops, as in
 * ffmpeg's zoompan, jump by whole pixels). The ends move under 0.1 px a frame, which x264 at CRF 22 partly
 * rounds away, so stalls are judged on the middle 80 %.
 */
function zoomFaults(m: ZoomMeasure): string[] {
  const faults: string[] = [];
  const total = m.expansion.reduce((s, e) => s * (1 + e), 1);
  if (!(total > 1.07 && total < 1.14)) faults.push(`total scale ${total.toFixed(4)}`);
  let scale = 1;
  let peak = 1;
  for (const e of m.expansion) {
    scale *= 1 + e;
    if (scale < peak - 0.0005) faults.push(`scale fell from ${peak} to ${scale}`);
    peak = Math.max(peak, scale);
  }
  const n = m.expansion.length;
  const middle = smoothness(m.expansion.slice(Math.round(n * 0.1), Math.round(n * 0.9)), 3);
  if (middle.minLocalRatio < 0.4)
    faults.push(`stall: 3-frame motion down to ${middle.minLocalRatio.toFixed(2)} of its neighbours'`);
  if (middle.jerk > 1.2) faults.push(`jerky: second differences ${middle.jerk.toFixed(2)} of the mean`);
  const wander = Math.max(rms(m.dx), rms(m.dy));
  if (wander > 0.25) faults.push(`centre jitters by ${wander.toFixed(2)} px rms`);
  return faults;
}

describe('local motion engine, measured on rendered frames', () => {
  let dir = '';
  const at = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-motion-test-'));
    const still = (name: string, filter: string) =>
      runFfmpeg(['-y', '-f', 'lavfi', '-i', filter, '-frames:v', '1', at(name)]);
    await still('tall.png', NOISE(1, '1200x2100'));
    await still('wide.png', NOISE(2, '2400x1100'));
    await still('square.png', NOISE(3, '900x900'));
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=640x360:r=25',
      '-f',
      'lavfi',
      '-i',
      'sine=f=330:sample_rate=48000',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      at('clip.mp4'),
    ]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('"slow zoom in": the measured scale grows monotonically and smoothly; zoompan fails the same checks', async () => {
    const W = 720;
    const H = 1280;
    await renderComposition({
      outputPath: at('zoom.mp4'),
      width: W,
      height: H,
      durationSec: 3,
      scenes: [
        { path: at('tall.png'), inPoint: 0, duration: 3, motion: { move: parseCameraMove('slow zoom in') } },
      ],
    });
    const ours = await measure(at('zoom.mp4'), W, H, dir);
    assert.equal(ours.frames, 90);
    assert.deepEqual(zoomFaults(ours), []);

    // The same zoom by ffmpeg's zoompan (integer crop positions), encoded the same way: the checks catch it.
    await runFfmpeg([
      '-y',
      '-i',
      at('tall.png'),
      '-vf',
      `scale=${W * 1.2}:-2,zoompan=z='min(zoom+0.0011,1.105)':d=90:s=${W}x${H}:fps=30` +
        `:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)'`,
      '-frames:v',
      '90',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '22',
      '-pix_fmt',
      'yuv420p',
      at('zoompan.mp4'),
    ]);
    const stepped = await measure(at('zoompan.mp4'), W, H, dir);
    assert.ok(
      zoomFaults(stepped).some((f) => f.startsWith('centre jitters')),
      zoomFaults(stepped).join('; '),
    );
  });

  test('"pan right" moves the picture left steadily, without vertical drift', async () => {
    const W = 720;
    const H = 1280;
    await renderComposition({
      outputPath: at('pan.mp4'),
      width: W,
      height: H,
      durationSec: 2,
      scenes: [
        { path: at('wide.png'), inPoint: 0, duration: 2, motion: { move: parseCameraMove('pan right') } },
      ],
    });
    const m = await measure(at('pan.mp4'), W, H, dir);
    assert.equal(m.frames, 60);
    assert.ok(
      m.dx.every((d) => d < 0),
      `every frame moves left: ${m.dx.map((d) => d.toFixed(2)).join(' ')}`,
    );
    const steady = smoothness(m.dx);
    const series = m.dx.map((d) => d.toFixed(2)).join(' ');
    assert.ok(steady.minLocalRatio > 0.6, `no stall (${steady.minLocalRatio.toFixed(2)}): ${series}`);
    assert.ok(steady.jerk < 0.15, `steady (${steady.jerk.toFixed(2)}): ${series}`);
    assert.ok(rms(m.dy) < 0.2, `no vertical drift (${rms(m.dy).toFixed(2)} px)`);
    // Travel: a quarter of the frame width or so, over the whole shot.
    const travel = -m.dx.reduce((a, b) => a + b, 0);
    assert.ok(travel > 0.15 * W && travel < 0.4 * W, `travel ${travel.toFixed(1)} px`);
  });

  test('many moving scenes in one render (stills and a clip with its sound), never a border', async () => {
    const W = 360;
    const H = 640;
    const move = (p: string) => ({ move: parseCameraMove(p) });
    const scenes: ComposeScene[] = [
      { path: at('wide.png'), inPoint: 0, duration: 1, motion: move('fast pan left') },
      { path: at('square.png'), inPoint: 0, duration: 1, motion: move('tilt down') },
      { path: at('tall.png'), inPoint: 0, duration: 1 },
      { path: at('clip.mp4'), inPoint: 0.5, duration: 1, hasAudio: true, motion: move('dramatic zoom out') },
      { path: at('wide.png'), inPoint: 0, duration: 1, motion: move('orbit') },
      { path: at('clip.mp4'), inPoint: 0, duration: 1, motion: move('dolly in') },
    ];
    const result = await renderComposition({
      outputPath: at('mixed.mp4'),
      width: W,
      height: H,
      durationSec: 6,
      scenes,
    });
    assert.ok(
      result.mixLoudness && result.mixLoudness.integratedLufs > -40,
      'the clip scene keeps its sound',
    );
    const info = await probeMedia(at('mixed.mp4'));
    assert.equal(info.video?.width, W);
    assert.equal(info.video?.height, H);
    assert.ok(Math.abs(info.durationSec - 6) < 0.1, `duration ${info.durationSec}`);
    let frames = 0;
    for await (const f of grayFrames(at('mixed.mp4'), W, H, dir)) {
      frames += 1;
      let darkest = 255;
      for (let x = 0; x < W; x++) darkest = Math.min(darkest, f.data[x]!, f.data[(H - 1) * W + x]!);
      for (let y = 0; y < H; y++) darkest = Math.min(darkest, f.data[y * W]!, f.data[y * W + W - 1]!);
      // The stills are blurred noise around mid grey, so a dark edge in their scenes would be a border;
      // the clip (testsrc2) has dark areas of its own, so its scenes (frames 91-120, 151-180) are not judged.
      const clipScene = (frames > 90 && frames <= 120) || frames > 150;
      if (!clipScene) assert.ok(darkest > 40, `frame ${frames}: edge luma ${darkest}`);
    }
    assert.equal(frames, 180);
  });

  test('a moving scene whose source cannot be read fails the render instead of shortening it', async () => {
    const started = Date.now();
    await assert.rejects(
      renderComposition({
        outputPath: at('broken.mp4'),
        width: 360,
        height: 640,
        durationSec: 2,
        scenes: [
          { path: at('tall.png'), inPoint: 0, duration: 1, motion: { move: parseCameraMove('zoom in') } },
          { path: at('missing.png'), inPoint: 0, duration: 1, motion: { move: parseCameraMove('zoom in') } },
        ],
      }),
      /missing\.png/,
    );
    assert.ok(Date.now() - started < 15_000);
  });

  test('parallax: the foreground layer moves further than the background', async () => {
    const W = 540;
    const H = 960;
    // A disc of another texture, opaque, over the middle of the still.
    const fgRaw = at('fg.rgba');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `${NOISE(9, '1200x2100')},format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*lt(hypot(X-600,Y-1050),330)'`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      fgRaw,
    ]);
    const rgba = new Uint8Array(await (await open(fgRaw)).readFile());
    await renderComposition({
      outputPath: at('parallax.mp4'),
      width: W,
      height: H,
      durationSec: 2,
      scenes: [
        {
          path: at('tall.png'),
          inPoint: 0,
          duration: 2,
          motion: { move: parseCameraMove('slow orbit'), foreground: { rgba, width: 1200, height: 2100 } },
        },
      ],
    });
    const fg: number[] = [];
    const bg: number[] = [];
    let previous: GrayFrame | null = null;
    for await (const frame of grayFrames(at('parallax.mp4'), W, H, dir)) {
      if (previous) {
        fg.push(patchShift(previous, frame, W / 2, H / 2, 64).dx);
        // Above and below the disc, where the orbit's slight zoom moves the picture only vertically.
        bg.push(
          (patchShift(previous, frame, W / 2, 100, 64).dx +
            patchShift(previous, frame, W / 2, H - 100, 64).dx) /
            2,
        );
      }
      previous = frame;
    }
    const fgTravel = fg.reduce((a, b) => a + b, 0);
    const bgTravel = bg.reduce((a, b) => a + b, 0);
    assert.ok(bgTravel < -5, `the background moves (orbit right: content left), ${bgTravel.toFixed(1)} px`);
    const ratio = fgTravel / bgTravel;
    assert.ok(ratio > 1.4 && ratio < 2.4, `foreground/background travel ${ratio.toFixed(2)}`);
  });
});
