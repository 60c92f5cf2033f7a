import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_HIGHLIGHT_COLOR } from '../src/media/captions/caption-presets.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { productModes } from '../src/modes/index.ts';
import { downloadTo, frameRgb } from './support/media-files.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /videos/news at 16:9 and 1:1 end to end: the same article page (served on loopback) is rendered in both
// shapes side by side, and the delivered MP4s are measured: their size, and decoded frames whose footage fills
// the whole picture and whose captions sit inside it at the same size in both shapes.

const PAGE = `<!doctype html>
<html lang="en"><head><title>Valley town opens a library of things | Riverside Post</title>
<meta property="og:site_name" content="Riverside Post"></head><body><main><article>
<h1>Valley town opens a library of things</h1>
<p>Millbrook opened a library that lends drills, tents and sewing machines to anyone with a card.</p>
<p>Volunteers repair every tool before it goes back on the shelf, the librarian says.</p>
</article></main></body></html>`;

/** The caption highlight colour of the `highlight` preset news uses, and how near a pixel must be. */
const HIGHLIGHT = [1, 3, 5].map((i) => parseInt(DEFAULT_HIGHLIGHT_COLOR.slice(i, i + 2), 16));
const HIGHLIGHT_DISTANCE = 40;

const SHAPES = { '16:9': [1920, 1080], '1:1': [1080, 1080] } as const;
type Shape = keyof typeof SHAPES;

let service: TestService;
let server: http.Server;
let dir: string;
const jobs: Partial<Record<Shape, Promise<any>>> = {};

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-news-aspect-'));
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sourceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/library-of-things.html`;
  for (const aspectRatio of Object.keys(SHAPES) as Shape[]) {
    const receipt = await service.call('POST', '/api/v1/videos/news', {
      // Gradient footage: lit to every edge, so a black band could only be a letterbox, and never in the
      // caption highlight colour.
      body: { sourceUrl, aspectRatio, duration: '30s', format: 'single', niches: ['abstract/gradients'] },
      headers: { 'idempotency-key': `news-aspect-${aspectRatio}-${Math.random()}` },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = waitForJob(service, receipt.body.data.job_id, { timeoutMs: 480_000 });
    job.catch(() => undefined);
    jobs[aspectRatio] = job;
  }
});

after(async () => {
  await Promise.allSettled(Object.values(jobs));
  await service?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

interface Picture {
  width: number;
  height: number;
  rgb: Buffer;
}

const luma = (p: Picture, x: number, y: number): number => {
  const i = (y * p.width + x) * 3;
  return 0.299 * p.rgb[i]! + 0.587 * p.rgb[i + 1]! + 0.114 * p.rgb[i + 2]!;
};

/** Mean luma and its spread over a rectangle of the picture. */
function regionStats(p: Picture, x0: number, y0: number, x1: number, y1: number) {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = y0; y < y1; y += 2)
    for (let x = x0; x < x1; x += 2) {
      const v = luma(p, x, y);
      sum += v;
      sumSq += v * v;
      n++;
    }
  const mean = sum / n;
  return { mean, spread: Math.sqrt(Math.max(0, sumSq / n - mean * mean)) };
}

/** Bounding box of the pixels in the caption highlight colour, or undefined when there are none. */
function highlightBox(p: Picture) {
  let box: { left: number; right: number; top: number; bottom: number; pixels: number } | undefined;
  for (let y = 0; y < p.height; y++)
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      const d = Math.max(...HIGHLIGHT.map((c, k) => Math.abs(p.rgb[i + k]! - c)));
      if (d > HIGHLIGHT_DISTANCE) continue;
      box ??= { left: x, right: x, top: y, bottom: y, pixels: 0 };
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
      box.pixels++;
    }
  return box;
}

async function delivered(shape: Shape) {
  const job = await jobs[shape]!;
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  const video = await downloadTo(job.artifacts.videoUrl, join(dir, `${shape.replace(':', 'x')}.mp4`));
  const poster = await downloadTo(job.artifacts.thumbnailUrl, join(dir, `${shape.replace(':', 'x')}.jpg`));
  return { job, video, poster };
}

/** Midpoints of the caption events (one per highlighted word), read from the delivered ASS file. */
async function highlightTimes(job: any): Promise<number[]> {
  const url = job.artifacts.output_files.find((f: { name: string }) => f.name === 'captions.ass').url;
  const ass = await (await fetch(url)).text();
  const seconds = (t: string): number => {
    const [h, m, s] = t.split(':').map(Number);
    return h! * 3600 + m! * 60 + s!;
  };
  return [...ass.matchAll(/^Dialogue: \d+,([\d:.]+),([\d:.]+),/gm)].map(
    ([, a, b]) => (seconds(a!) + seconds(b!)) / 2,
  );
}

void describe('POST /videos/news renders the requested aspect ratio', () => {
  for (const shape of Object.keys(SHAPES) as Shape[]) {
    void test(`${shape}: ${SHAPES[shape].join('×')} video and poster, footage filling the frame`, async () => {
      const [width, height] = SHAPES[shape];
      const { job, video, poster } = await delivered(shape);
      assert.equal(job.artifacts.aspectRatio, shape);
      const info = await probeMedia(video);
      assert.deepEqual([info.video?.width, info.video?.height], [width, height]);
      assert.equal(info.video?.codec, 'h264');
      assert.ok(info.durationSec >= 14.9, `duration ${info.durationSec}`);
      const posterInfo = await probeMedia(poster);
      assert.deepEqual([posterInfo.video?.width, posterInfo.video?.height], [width, height]);

      for (const at of [1, info.durationSec / 2, info.durationSec - 1.5]) {
        const picture = { width, height, rgb: await frameRgb(video, at) };
        assert.equal(picture.rgb.length, width * height * 3);
        // No letterbox or pillarbox: every edge band of the picture carries footage, not flat black.
        const band = Math.round(Math.min(width, height) * 0.08);
        const edges = {
          top: regionStats(picture, 0, 0, width, band),
          bottom: regionStats(picture, 0, height - band, width, height),
          left: regionStats(picture, 0, 0, band, height),
          right: regionStats(picture, width - band, 0, width, height),
        };
        for (const [edge, stats] of Object.entries(edges))
          assert.ok(stats.mean > 12 || stats.spread > 6, `${shape} at ${at}s: ${edge} edge is black`);
        const whole = regionStats(picture, 0, 0, width, height);
        assert.ok(whole.mean > 20 && whole.spread > 4, `${shape} at ${at}s: ${JSON.stringify(whole)}`);
      }
    });
  }

  void test('captions sit inside both frames at the same size: the spoken word is as tall in 16:9 as in 1:1', async () => {
    const wide = await delivered('16:9');
    const square = await delivered('1:1');
    assert.equal(wide.job.artifacts.script, square.job.artifacts.script);
    const times = await highlightTimes(wide.job);
    assert.deepEqual(times, await highlightTimes(square.job), 'the same narration timing in both shapes');
    const heights: Record<Shape, number[]> = { '16:9': [], '1:1': [] };
    for (const at of times.slice(1, 6)) {
      for (const [shape, render] of [
        ['16:9', wide],
        ['1:1', square],
      ] as const) {
        const [width, height] = SHAPES[shape];
        const picture = { width, height, rgb: await frameRgb(render.video, at) };
        const box = highlightBox(picture);
        assert.ok(box && box.pixels > 200, `${shape} at ${at}s: no highlighted word on screen`);
        // Clear of the edges and in the lower part of the picture, above the player controls.
        assert.ok(box.left >= width * 0.05 && box.right <= width * 0.95, `${shape}: ${JSON.stringify(box)}`);
        assert.ok(box.top >= height * 0.5 && box.bottom <= height * 0.9, `${shape}: ${JSON.stringify(box)}`);
        heights[shape].push(box.bottom - box.top);
      }
    }
    for (const [i, wideHeight] of heights['16:9'].entries()) {
      const squareHeight = heights['1:1'][i]!;
      assert.ok(
        Math.abs(wideHeight - squareHeight) <= 4,
        `word ${i}: ${wideHeight} px tall in 16:9, ${squareHeight} px in 1:1`,
      );
      assert.ok(wideHeight >= 40 && wideHeight <= 140, `word ${i}: ${wideHeight} px on a 1080-high frame`);
    }
  });
});
