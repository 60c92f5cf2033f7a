// Captions from buildAss burned in through the compose builder, checked on the decoded pixels.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildComposeCommand } from '../compose/compose-command.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { buildAss } from './build-ass.ts';
import { highlightPreset } from './caption-presets.ts';
import { frameRgb } from '../../../test/support/media-files.ts';

const W = 270;
const H = 480;

interface Frame {
  rgb: Buffer;
  at(x: number, y: number): [number, number, number];
}

describe('caption burn-in', () => {
  let dir = '';
  let video = '';

  async function frameAt(seconds: number): Promise<Frame> {
    const rgb = await frameRgb(video, seconds);
    assert.equal(rgb.length, W * H * 3);
    return {
      rgb,
      at: (x, y) => {
        const i = (y * W + x) * 3;
        return [rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0];
      },
    };
  }

  function count(
    frame: Frame,
    rows: [number, number],
    match: (p: [number, number, number]) => boolean,
  ): number {
    let n = 0;
    for (let y = rows[0]; y < rows[1]; y++) for (let x = 0; x < W; x++) if (match(frame.at(x, y))) n++;
    return n;
  }

  const white = ([r, g, b]: [number, number, number]) => r > 200 && g > 200 && b > 200;
  const red = ([r, g, b]: [number, number, number]) => r > 170 && g < 90 && b < 90;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-burn-'));
    const background = join(dir, 'black.png');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', `color=c=black:s=${W}x${H}`, '-frames:v', '1', background]);
    const words = [
      { word: 'Red', start: 0.5, end: 0.9 },
      { word: 'then', start: 1.0, end: 1.4 },
    ];
    const style = highlightPreset({ highlight_color: '#FF0000', position: 'center', font_size: 'large' });
    const assPath = join(dir, 'caps {1}.ass');
    await writeFile(assPath, buildAss(words, style, { width: W, height: H }));
    video = join(dir, 'burned.mp4');
    const { args } = buildComposeCommand({
      outputPath: video,
      width: W,
      height: H,
      durationSec: 2,
      scenes: [{ path: background, inPoint: 0, duration: 2 }],
      ass: { path: assPath, fontsDir: '/usr/share/fonts/truetype/dejavu' },
    });
    await runFfmpeg(args);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Centred captions sit around the middle row; the band is generous for font metrics.
  const band: [number, number] = [H / 2 - 40, H / 2 + 40];

  test('nothing is drawn before the first word', async () => {
    const frame = await frameAt(0.2);
    assert.equal(count(frame, [0, H], white), 0);
    assert.equal(count(frame, [0, H], red), 0);
  });

  test('the spoken word is red, the rest of the chunk white', async () => {
    const first = await frameAt(0.7);
    const second = await frameAt(1.2);
    const redFirst = count(first, band, red);
    const whiteFirst = count(first, band, white);
    assert.ok(redFirst > 50, `red pixels while "Red" is spoken: ${redFirst}`);
    assert.ok(whiteFirst > 50, `white pixels of "then": ${whiteFirst}`);
    // When "then" is spoken it turns red; "Red" turns white. Both words differ in width, so the counts move.
    const redSecond = count(second, band, red);
    assert.ok(redSecond > 50, `red pixels while "then" is spoken: ${redSecond}`);
    const leftHalfRed = (f: Frame) => {
      let n = 0;
      for (let y = band[0]; y < band[1]; y++) for (let x = 0; x < W / 2; x++) if (red(f.at(x, y))) n++;
      return n;
    };
    assert.ok(leftHalfRed(first) > leftHalfRed(second), 'the highlight moves right to the second word');
  });

  test('captions stay inside the frame sides', async () => {
    const frame = await frameAt(1.2);
    const edge = (p: [number, number, number]) => white(p) || red(p);
    let atEdges = 0;
    for (let y = 0; y < H; y++) for (const x of [0, 1, W - 2, W - 1]) if (edge(frame.at(x, y))) atEdges++;
    assert.equal(atEdges, 0);
  });
});
