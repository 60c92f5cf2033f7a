// Preview rendering with the real ffmpeg, at a small size.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { captionFontsDir } from '../fonts/caption-fonts-dir.ts';
import { captionStyleById } from './style-catalogue.ts';
import { buildPreviewArgs, CaptionPreviewCache, previewHash } from './style-preview.ts';

const RENDER = { width: 360, height: 640 };
const OUTPUT = { width: 180, height: 320 };
/** The fonts folder is prepared once in the repository's test cache and reused by every run. */
const TEST_CACHE = new URL('../../../.test-cache', import.meta.url).pathname;
const fontsDir = () => captionFontsDir(TEST_CACHE);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function style(id: string) {
  const found = captionStyleById(id);
  assert.ok(found, id);
  return found;
}

describe('buildPreviewArgs', () => {
  test('one PNG frame of the gradient with the captions at the preview instant', () => {
    assert.deepEqual(
      buildPreviewArgs({
        assPath: '/tmp/my caps/a.ass',
        fontsDir: '/data/cache/fonts/caption-fonts-0123',
        outputPath: '/tmp/out.png',
        render: { width: 1080, height: 1920 },
        output: { width: 360, height: 640 },
        atSec: 0.95,
      }),
      [
        '-y',
        '-filter_complex',
        'color=c=black:s=16x32:r=1:d=1,format=rgb24,' +
          'geq=r=42+96*(0.8*Y/31+0.2*X/15):g=47+97*(0.8*Y/31+0.2*X/15):b=58+102*(0.8*Y/31+0.2*X/15),' +
          'scale=1080:1920:flags=bicubic,settb=1/1000,setpts=PTS+0.95/TB,' +
          'subtitles=filename=/tmp/my\\\\\\ caps/a.ass:fontsdir=/data/cache/fonts/caption-fonts-0123,' +
          'scale=360:640:flags=area[out]',
        '-map',
        '[out]',
        '-frames:v',
        '1',
        '-c:v',
        'png',
        '-update',
        '1',
        '/tmp/out.png',
      ],
    );
  });
});

describe('previewHash', () => {
  test('changes with the look and the sizes, not with field order', () => {
    const a = style('clean-white');
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    assert.equal(previewHash(a, RENDER, OUTPUT), previewHash(reordered, RENDER, OUTPUT));
    assert.match(previewHash(a, RENDER, OUTPUT), /^[0-9a-f]{16}$/);
    assert.notEqual(previewHash(a, RENDER, OUTPUT), previewHash({ ...a, fontSize: 77 }, RENDER, OUTPUT));
    assert.notEqual(previewHash(a, RENDER, OUTPUT), previewHash(a, RENDER, { width: 90, height: 160 }));
  });
});

describe('CaptionPreviewCache', () => {
  let dir = '';
  let cache: CaptionPreviewCache;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-preview-'));
    cache = new CaptionPreviewCache({ dir, render: RENDER, output: OUTPUT, fontsDir });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Decodes a PNG with ffmpeg into packed RGB. */
  async function decode(png: Buffer): Promise<Buffer> {
    const input = join(dir, `decode-${Math.random()}.png.in`);
    const output = `${input}.rgb`;
    await writeFile(input, png);
    await runFfmpeg(['-y', '-f', 'png_pipe', '-i', input, '-f', 'rawvideo', '-pix_fmt', 'rgb24', output]);
    const rgb = await readFile(output);
    await rm(input);
    await rm(output);
    return rgb;
  }

  function countPixels(rgb: Buffer, match: (r: number, g: number, b: number) => boolean): number {
    let n = 0;
    for (let i = 0; i + 2 < rgb.length; i += 3) if (match(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) n++;
    return n;
  }

  test('renders a decodable PNG of the output size showing the caption colours', async () => {
    const png = await cache.png('clean-white', style('clean-white'));
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    const rgb = await decode(png);
    assert.equal(rgb.length, OUTPUT.width * OUTPUT.height * 3);
    // The gradient never gets brighter than about (138, 144, 160): bright white pixels are the caption.
    const white = countPixels(rgb, (r, g, b) => r > 220 && g > 220 && b > 220);
    assert.ok(white > 100, `white caption pixels: ${white}`);

    const red = countPixels(
      await decode(await cache.png('bold-red-box', style('bold-red-box'))),
      (r, g, b) => {
        return r > 180 && g < 80 && b < 90;
      },
    );
    assert.ok(red > 500, `red box pixels: ${red}`);
  });

  test('different presets give different pixels', async () => {
    const ids = ['clean-white', 'neon-pink', 'karaoke-yellow'];
    const images = await Promise.all(ids.map(async (id) => decode(await cache.png(id, style(id)))));
    for (let i = 0; i < images.length; i++) {
      for (let j = i + 1; j < images.length; j++) {
        let differing = 0;
        const a = images[i]!;
        const b = images[j]!;
        for (let k = 0; k < a.length; k += 3) {
          if (
            Math.abs(a[k]! - b[k]!) + Math.abs(a[k + 1]! - b[k + 1]!) + Math.abs(a[k + 2]! - b[k + 2]!) >
            60
          )
            differing++;
        }
        assert.ok(differing > 500, `${ids[i]} vs ${ids[j]}: ${differing} pixels differ`);
      }
    }
  });

  test('a cached preview is read back, not rendered again, also by a new cache on the same directory', async () => {
    const first = await cache.png('neon-cyan', style('neon-cyan'));
    const renders = cache.renderCount;
    const file = join(dir, cache.fileName('neon-cyan', style('neon-cyan')));
    assert.match(file, /neon-cyan-[0-9a-f]{16}\.png$/);
    const written = (await stat(file)).mtimeMs;

    assert.deepEqual(await cache.png('neon-cyan', style('neon-cyan')), first);
    assert.equal(cache.renderCount, renders);
    const reopened = new CaptionPreviewCache({ dir, render: RENDER, output: OUTPUT, fontsDir });
    assert.deepEqual(await reopened.png('neon-cyan', style('neon-cyan')), first);
    assert.equal(reopened.renderCount, 0);
    assert.equal((await stat(file)).mtimeMs, written);
  });

  test('concurrent requests for one preview share a single render', async () => {
    const fresh = new CaptionPreviewCache({ dir, render: RENDER, output: OUTPUT, fontsDir });
    const look = style('word-box-red');
    const results = await Promise.all(Array.from({ length: 4 }, () => fresh.png('word-box-red', look)));
    assert.equal(fresh.renderCount, 1);
    for (const png of results) assert.deepEqual(png, results[0]);
    const leftovers = (await readdir(dir)).filter((n) => n.includes('.part.'));
    assert.deepEqual(leftovers, []);
  });

  test('a branded look is cached under its own name', async () => {
    const plain = style('brand-box');
    const branded = captionStyleById('brand-box', { primaryColor: '#0B3D91' })!;
    assert.notEqual(cache.fileName('brand-box', plain), cache.fileName('brand-box', branded));
    const [a, b] = [await cache.png('brand-box', plain), await cache.png('brand-box', branded)];
    assert.notDeepEqual(a, b);
  });

  test('keeps at most maxFiles images, dropping the oldest', async () => {
    const small = await mkdtemp(join(tmpdir(), 'rs-preview-prune-'));
    try {
      const capped = new CaptionPreviewCache({
        dir: small,
        render: RENDER,
        output: OUTPUT,
        fontsDir,
        maxFiles: 2,
      });
      await capped.png('clean-white', style('clean-white'));
      await capped.png('bold-yellow', style('bold-yellow'));
      // Explicit ages, so the oldest does not depend on how fast the renders ran.
      await utimes(join(small, capped.fileName('clean-white', style('clean-white'))), 1, 1);
      await utimes(join(small, capped.fileName('bold-yellow', style('bold-yellow'))), 2, 2);
      await capped.png('neon-lime', style('neon-lime'));
      assert.deepEqual(
        (await readdir(small)).sort(),
        [
          capped.fileName('bold-yellow', style('bold-yellow')),
          capped.fileName('neon-lime', style('neon-lime')),
        ].sort(),
      );
    } finally {
      await rm(small, { recursive: true, force: true });
    }
  });
});
