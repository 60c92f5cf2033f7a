// Presenter layouts end to end: colour-coded presenter sources (lavfi, one with a shape matte, one an MP4 with
// its own sound) over colour-coded B-roll, rendered by the real compose, decoded again, and each layout's
// regions measured on the frames.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { probeMedia } from '../ffmpeg/probe.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { presenterLayoutGeometry, type Rect } from '../layouts/presenter-layout.ts';
import type { ComposeScene } from './compose-spec.ts';
import { videoFileSource, type FilterSource } from './filter-source.ts';
import { renderComposition } from './render-composition.ts';

type Rgb = [number, number, number];
const RED: Rgb = [220, 30, 30];
const GREEN: Rgb = [30, 170, 60];
const BLUE: Rgb = [40, 60, 200];
const WHITE: Rgb = [255, 255, 255];
const MAGENTA: Rgb = [200, 40, 220];
const YELLOW: Rgb = [250, 204, 21];
const FPS = 30;

const hex = (c: Rgb) => `0x${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

interface Frame {
  width: number;
  height: number;
  rgb: Buffer;
}

function pixel(f: Frame, x: number, y: number): Rgb {
  const o = (Math.round(y) * f.width + Math.round(x)) * 3;
  return [f.rgb[o]!, f.rgb[o + 1]!, f.rgb[o + 2]!];
}

function distance(a: Rgb, b: Rgb): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** Mean colour of a rectangle. */
function mean(f: Frame, r: Rect): Rgb {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const p = pixel(f, x, y);
      sum[0]! += p[0];
      sum[1]! += p[1];
      sum[2]! += p[2];
      n += 1;
    }
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** Share of a rectangle's pixels within `tolerance` of a colour. */
function share(f: Frame, r: Rect, color: Rgb, tolerance = 45): number {
  let hits = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) if (distance(pixel(f, x, y), color) < tolerance) hits += 1;
  return hits / (r.width * r.height);
}

function assertColor(actual: Rgb, expected: Rgb, what: string, tolerance = 45): void {
  const d = distance(actual, expected);
  assert.ok(
    d < tolerance,
    `${what}: ${actual.map(Math.round).join('/')} is not ${expected.join('/')} (Δ ${d.toFixed(0)})`,
  );
}

function changed(a: Frame, b: Frame, r: Rect): number {
  let sum = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const p = pixel(a, x, y);
      const q = pixel(b, x, y);
      sum += Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]);
    }
  return sum / (r.width * r.height * 3);
}

describe('presenter layouts', () => {
  let dir = '';
  const src = (name: string) => join(dir, name);

  /** The given frames of a video (by number), decoded to RGB. */
  async function frames(path: string, numbers: number[]): Promise<Frame[]> {
    const info = await probeMedia(path);
    const width = info.video!.width;
    const height = info.video!.height;
    const raw = join(dir, `frames-${Math.random().toString(36).slice(2)}.rgb`);
    const select = numbers.map((n) => `eq(n\\,${n})`).join('+');
    await runFfmpeg([
      '-y',
      '-i',
      path,
      '-vf',
      `select='${select}'`,
      '-fps_mode',
      'passthrough',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      raw,
    ]);
    const data = await readFile(raw);
    await rm(raw);
    const size = width * height * 3;
    assert.equal(data.length, size * numbers.length, 'every asked frame decoded');
    return numbers.map((_, i) => ({ width, height, rgb: data.subarray(i * size, (i + 1) * size) }));
  }

  /** A flat-colour presenter made by lavfi; with `matte`, its alpha is that grey picture. */
  function colorSource(
    size: { width: number; height: number },
    durationSec: number,
    matte?: string,
  ): FilterSource {
    const color = [
      '-f',
      'lavfi',
      '-i',
      `color=c=${hex(RED)}:s=${size.width}x${size.height}:r=${FPS}:d=${durationSec}`,
    ];
    return {
      inputs: matte ? [color, ['-i', matte]] : [color],
      filter: ([c, m], out) =>
        matte
          ? [
              `[${c}:v]format=yuva420p[${out}c]`,
              `[${m}:v]format=gray[${out}m]`,
              `[${out}c][${out}m]alphamerge[${out}]`,
            ]
          : [`[${c}:v]format=yuv420p[${out}]`],
      ...size,
      fps: FPS,
      durationSec,
      hasAlpha: matte !== undefined,
    };
  }

  const broll = (): ComposeScene[] => [
    { path: src('green.mp4'), inPoint: 0, duration: 1.5 },
    { path: src('blue.png'), inPoint: 0, duration: 1.5 },
  ];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-layouts-'));
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=${hex(GREEN)}:s=320x240:r=25:d=2`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      src('green.mp4'),
    ]);
    await sharp({
      create: { width: 200, height: 300, channels: 3, background: { r: BLUE[0], g: BLUE[1], b: BLUE[2] } },
    })
      .png()
      .toFile(src('blue.png'));
    // A hosted engine's MP4: the presenter colour, a different shape from any box, and a loud tone of its own.
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=${hex(RED)}:s=320x240:r=25:d=4`,
      '-f',
      'lavfi',
      '-i',
      'sine=f=500:d=4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      src('hosted.mp4'),
    ]);
    // Two-colour logos: wide (a wordmark, shown on a card) and square (an icon, shown on a cube).
    const logo = (w: number, h: number) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w / 2}" height="${h}" fill="rgb(${MAGENTA.join(',')})"/>` +
            `<rect x="${w / 2}" width="${w / 2}" height="${h}" fill="rgb(${YELLOW.join(',')})"/></svg>`,
        ),
      ).png();
    await logo(300, 100).toFile(src('wide.png'));
    await logo(200, 200).toFile(src('square.png'));
    // Narration: 0.5 s of tone, 0.5 s of silence, repeated.
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      "aevalsrc='0.5*sin(2*PI*300*t)*lt(mod(t,1),0.5)':s=22050:d=3",
      src('bursts.wav'),
    ]);
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=f=220:d=2', src('music.wav')]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('creator, cut out: the person follows the matte over full-frame B-roll at bottom left', async () => {
    const W = 360;
    const H = 640;
    const g = presenterLayoutGeometry({ layout: 'creator', width: W, height: H, presenter: 'alpha' });
    const box = g.presenter;
    assert.deepEqual([box.x, box.y + box.height], [0, H], 'stands on the bottom edge at the left');
    // An ellipse matte the size of the box: the person.
    const rx = box.width * 0.35;
    const ry = box.height * 0.42;
    const cx = box.width / 2;
    const cy = box.height * 0.55;
    await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}"><rect width="100%" height="100%" fill="#000"/>` +
          `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#fff"/></svg>`,
      ),
    )
      .greyscale()
      .png()
      .toFile(src('matte.png'));
    const out = src('creator-cutout.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3,
      scenes: broll(),
      presenter: { layout: 'creator', source: colorSource(box, 3, src('matte.png')) },
    });
    const [green, blue] = await frames(out, [15, 75]);
    for (const [frame, footage, name] of [
      [green!, GREEN, 'green'],
      [blue!, BLUE, 'blue'],
    ] as const) {
      assertColor(pixel(frame, box.x + cx, box.y + cy), RED, `${name}: the person's middle`);
      assertColor(pixel(frame, box.x + 4, box.y + 4), footage, `${name}: the box corner outside the matte`);
      assertColor(
        mean(frame, { x: W - 60, y: 40, width: 40, height: 200 }),
        footage,
        `${name}: B-roll beside`,
      );
      // Edges follow the matte all around: 8 px inside the ellipse is the person, 8 px outside the footage.
      for (let k = 0; k < 12; k++) {
        const a = (k / 12) * 2 * Math.PI;
        const at = (d: number) =>
          [box.x + cx + (rx + d) * Math.cos(a), box.y + cy + (ry + d) * Math.sin(a)] as const;
        const [ix, iy] = at(-8);
        const [ox, oy] = at(8);
        if (oy >= H - 1 || ox < 0) continue;
        assertColor(pixel(frame, ix, iy), RED, `${name}: inside the matte at ${(a * 180) / Math.PI}°`);
        assertColor(pixel(frame, ox, oy), footage, `${name}: outside the matte at ${(a * 180) / Math.PI}°`);
      }
    }
  });

  test('creator, bubble: a hosted MP4 in a framed circle at bottom centre, its own sound unused', async () => {
    const W = 360;
    const H = 640;
    const g = presenterLayoutGeometry({
      layout: 'creator',
      width: W,
      height: H,
      presenter: 'opaque',
      placement: 'bottom_center',
    });
    const box = g.presenter;
    const out = src('creator-bubble.mp4');
    const result = await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3,
      scenes: broll(),
      presenter: {
        layout: 'creator',
        placement: 'bottom_center',
        source: await videoFileSource(src('hosted.mp4'), { width: 240, height: 180, fps: FPS }),
      },
    });
    assert.equal(result.mixLoudness, null, 'the hosted video’s sound is not mixed');
    assert.equal(box.x, (W - box.width) / 2, 'centred');
    const [frame] = await frames(out, [20]);
    const f = frame!;
    const r = box.width / 2;
    const centre = { x: box.x + r, y: box.y + r };
    assertColor(mean(f, { x: centre.x - 20, y: centre.y - 20, width: 40, height: 40 }), RED, 'bubble middle');
    // Box corners lie outside the circle: footage shows there.
    assertColor(pixel(f, box.x + 3, box.y + 3), GREEN, 'outside the circle, top-left of the box');
    assertColor(
      pixel(f, box.x + box.width - 4, box.y + box.height - 4),
      GREEN,
      'outside the circle, bottom-right',
    );
    // The thin white border sits on the circle's edge (luma: chroma is shared by 2×2 pixels in yuv420p).
    const border = g.bubble!.borderPx;
    const luma = (p: Rgb) => 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    for (let k = 0; k < 8; k++) {
      const a = (k / 8) * 2 * Math.PI;
      const at = (d: number) => pixel(f, centre.x + d * Math.cos(a), centre.y + d * Math.sin(a));
      // Brightest pixel across the edge, in quarter-pixel steps: the ring is there, whatever the rounding.
      let ring = 0;
      for (let d = r - border - 1; d <= r + 1; d += 0.25) ring = Math.max(ring, luma(at(d)));
      assert.ok(ring > 180, `border at ${k * 45}°: luma ${ring.toFixed(0)}`);
      assertColor(at(r - border - 4), RED, `inside the border at ${k * 45}°`);
      assertColor(at(r + 4), GREEN, `outside the bubble at ${k * 45}°`);
    }
    assertColor(
      mean(f, { x: 10, y: 40, width: W - 20, height: box.y - 60 }),
      GREEN,
      'B-roll above the bubble',
    );
  });

  test('split: B-roll above the seam (moving footage too), the presenter below', async () => {
    const W = 360;
    const H = 640;
    const g = presenterLayoutGeometry({ layout: 'split', width: W, height: H, presenter: 'opaque' });
    const seam = g.seamY!;
    assert.equal(seam, H / 2);
    const out = src('split.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3,
      scenes: [
        broll()[0]!,
        // Moving footage: the motion engine draws it at the top half's size.
        {
          path: src('blue.png'),
          inPoint: 0,
          duration: 1.5,
          motion: { move: { kind: 'zoom', direction: 'in', speed: 'slow', strength: 0.35 } },
        },
      ],
      presenter: { layout: 'split', source: colorSource({ width: 300, height: 300 }, 3) },
    });
    const [green, blue] = await frames(out, [10, 80]);
    for (const [frame, footage] of [
      [green!, GREEN],
      [blue!, BLUE],
    ] as const) {
      assertColor(mean(frame, { x: 0, y: 0, width: W, height: seam - 4 }), footage, 'above the seam');
      assertColor(mean(frame, { x: 0, y: seam + 4, width: W, height: H - seam - 4 }), RED, 'below the seam');
      assert.ok(
        share(frame, { x: 0, y: seam - 3, width: W, height: 1 }, footage) > 0.95,
        'footage right up to the seam',
      );
      assert.ok(
        share(frame, { x: 0, y: seam + 2, width: W, height: 1 }, RED) > 0.95,
        'presenter right from the seam',
      );
    }
  });

  test('cutaway (16:9): the presenter, and the B-roll full frame exactly during the intervals', async () => {
    const W = 640;
    const H = 360;
    const out = src('cutaway.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3.4,
      scenes: broll(),
      narration: { path: src('bursts.wav') },
      presenter: {
        layout: 'cutaway',
        source: colorSource({ width: W, height: H }, 3.4),
        cutawayIntervals: [
          [1.0, 1.8],
          [2.4, 3.0],
        ],
      },
    });
    // Frames 30–53 and 72–89 are cutaways; their neighbours on each side are the presenter.
    const numbers = [0, 29, 30, 53, 54, 71, 72, 89, 90, 101];
    const expected = [RED, RED, GREEN, GREEN, RED, RED, BLUE, BLUE, RED, RED];
    const decoded = await frames(out, numbers);
    decoded.forEach((frame, i) => {
      assertColor(mean(frame, { x: 0, y: 0, width: W, height: H }), expected[i]!, `frame ${numbers[i]}`);
    });
  });

  test('talking head (1:1): the presenter fills the frame; scenes are not needed', async () => {
    const out = src('talking-head.mp4');
    await renderComposition({
      outputPath: out,
      width: 360,
      height: 360,
      durationSec: 1,
      scenes: [],
      presenter: { layout: 'talking_head', source: colorSource({ width: 200, height: 400 }, 0.5) },
    });
    const [first, last] = await frames(out, [0, 29]);
    for (const f of [first!, last!]) assert.ok(share(f, { x: 0, y: 0, width: 360, height: 360 }, RED) > 0.99);
  });

  test('logo host, card: the logo moves in the host box and its glow follows the narration', async () => {
    const W = 360;
    const H = 640;
    const g = presenterLayoutGeometry({
      layout: 'creator',
      width: W,
      height: H,
      presenter: 'host',
      hostUrl: true,
    });
    const box = g.host!.box;
    const out = src('host-card.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3,
      scenes: [{ path: src('green.mp4'), inPoint: 0, duration: 3 }],
      narration: { path: src('bursts.wav') },
      presenter: { layout: 'creator', host: { logoPath: src('wide.png'), urlText: 'acme.example' } },
    });
    // Loud: 0.25 s and 1.25 s; silent: 0.75 s and 1.75 s.
    const [loud0, quiet0, loud1, quiet1] = await frames(out, [8, 23, 38, 53]);
    for (const f of [loud0!, quiet0!]) {
      assert.ok(share(f, box, MAGENTA) > 0.03, 'magenta half of the logo in the host box');
      assert.ok(share(f, box, YELLOW) > 0.03, 'yellow half of the logo in the host box');
      assert.ok(
        share(f, { x: 0, y: 0, width: W, height: box.y - 10 }, MAGENTA) < 0.001,
        'no logo above the box',
      );
      assertColor(mean(f, { x: 10, y: 60, width: W - 20, height: 100 }), GREEN, 'B-roll above the host');
    }
    const url = g.host!.url!;
    assert.ok(share(loud0!, url, WHITE, 60) > 0.02, 'the URL text under the logo');
    // Half a sway apart, the card is somewhere else.
    assert.ok(
      changed(loud0!, quiet0!, box) > 4,
      `the card moves (${changed(loud0!, quiet0!, box).toFixed(1)})`,
    );
    // The glow shows beside the card while the narration sounds, not while it is silent.
    const beside = {
      x: box.x + Math.round(box.width * 0.05),
      y: box.y + Math.round(box.height * 0.42),
      width: Math.round(box.width * 0.06),
      height: Math.round(box.height * 0.16),
    };
    const brightness = (f: Frame) => mean(f, beside).reduce((s, v) => s + v, 0) / 3;
    const loud = (brightness(loud0!) + brightness(loud1!)) / 2;
    const quiet = (brightness(quiet0!) + brightness(quiet1!)) / 2;
    assert.ok(loud > quiet + 20, `glow while speaking ${loud.toFixed(0)} vs silent ${quiet.toFixed(0)}`);
  });

  test('logo host, cube: a turning cube with the logo on its faces, on a backdrop in the split layout', async () => {
    const W = 360;
    const H = 640;
    const g = presenterLayoutGeometry({ layout: 'split', width: W, height: H, presenter: 'host' });
    const box = g.host!.box;
    const out = src('host-cube.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 3,
      scenes: broll(),
      presenter: { layout: 'split', host: { logoPath: src('square.png') } },
    });
    const [a, b] = await frames(out, [10, 40]);
    for (const f of [a!, b!]) {
      assert.ok(share(f, box, MAGENTA) > 0.04, 'magenta face parts in the host box');
      assert.ok(share(f, box, YELLOW) > 0.04, 'yellow face parts in the host box');
      assert.ok(
        share(f, { x: 0, y: 0, width: W, height: g.seamY! }, MAGENTA) < 0.001,
        'nothing of it in the B-roll half',
      );
      // The backdrop (dark) around the cube, in the bottom half.
      assert.ok(
        mean(f, { x: 4, y: g.seamY! + 4, width: 20, height: 40 }).every((v) => v < 40),
        'backdrop',
      );
    }
    assert.ok(changed(a!, b!, box) > 4, `the cube turns (${changed(a!, b!, box).toFixed(1)})`);
  });

  test('outro: the end card fills the last 2.5 s, after the timeline, with music under it', async () => {
    const W = 360;
    const H = 640;
    const out = src('outro.mp4');
    await renderComposition({
      outputPath: out,
      width: W,
      height: H,
      durationSec: 1.5,
      scenes: [],
      narration: { path: src('bursts.wav') },
      music: { path: src('music.wav'), volume: 0.5 },
      presenter: { layout: 'talking_head', source: colorSource({ width: W, height: H }, 1.5) },
      outro: { durationSec: 2.5, logoPath: src('wide.png'), cta: 'Follow for more', url: 'acme.example' },
    });
    const info = await probeMedia(out);
    assert.ok(Math.abs(info.durationSec - 4) < 0.1, `duration ${info.durationSec}`);
    const [before, start, end] = await frames(out, [44, 45, 119]);
    const full = { x: 0, y: 0, width: W, height: H };
    assert.ok(share(before!, full, RED) > 0.99, 'the presenter until the timeline ends');
    for (const f of [start!, end!]) {
      assert.ok(share(f, full, RED) < 0.01, 'no presenter on the card');
      assert.ok(
        share(f, full, MAGENTA) > 0.005 && share(f, full, YELLOW) > 0.005,
        'logo colours on the card',
      );
      // Text: white pixels in the lower part of the card, under the logo.
      assert.ok(share(f, { x: 0, y: H / 2, width: W, height: H / 4 }, WHITE, 60) > 0.005, 'CTA text pixels');
    }
    assert.equal(share(before!, full, WHITE, 60), 0, 'no card text before the outro');
    // The narration is over; the music plays on under the card.
    const pcm = src('outro.f32');
    await runFfmpeg(['-y', '-ss', '2', '-i', out, '-t', '1.5', '-ac', '1', '-f', 'f32le', pcm]);
    const samples = new Float32Array((await readFile(pcm)).buffer.slice(0));
    const rms = Math.sqrt(samples.reduce((s, v) => s + v * v, 0) / samples.length);
    assert.ok(rms > 0.01, `music under the card (rms ${rms.toFixed(4)})`);
  });
});
