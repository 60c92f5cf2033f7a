import assert from 'node:assert/strict';
import { deflateSync, crc32 } from 'node:zlib';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { ApiError } from '../../platform/errors.ts';
import { decodeRgba, drawLogo, solidPng, type RasterFormat } from '../../../test/fixtures/logos/draw-logo.ts';
import { deltaE2000 } from '../colors/contrast.ts';
import { normalizeLogo } from './normalize-logo.ts';

const BRAND = '#1E6FD9';
const SECOND = '#E4572E';

async function rejectsWith(work: Promise<unknown>, code: string, message: RegExp): Promise<ApiError> {
  const err = await work.then(
    () => assert.fail(`expected ${code}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
  assert.equal(err.status, 422);
  assert.equal(err.code, code);
  assert.match(err.message, message);
  return err;
}

/** A PNG made by hand, so its header can claim any size. */
function pngWithHeader(width: number, height: number): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(4096))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

void describe('normalizeLogo on a logo drawn on a white box', () => {
  for (const format of ['png', 'jpeg', 'webp'] as RasterFormat[]) {
    void test(`${format}: the box is removed, margins trimmed, the counter kept, the colours found`, async () => {
      const drawn = await drawLogo({
        width: 640,
        height: 400,
        box: '#FFFFFF',
        ring: BRAND,
        bar: SECOND,
        format,
      });
      const logo = await normalizeLogo(drawn.bytes, { contentType: `image/${format}` });
      const out = await decodeRgba(logo.png);
      assert.equal((await sharp(logo.png).metadata()).format, 'png');
      assert.equal(out.channels, 4);

      const m = logo.measurements;
      assert.equal(m.source_format, format);
      assert.equal(m.background, 'white_removed');
      assert.equal(m.trimmed, true);
      assert.equal(m.width, out.width);
      assert.equal(m.height, out.height);
      // Trimmed to the mark (its anti-aliased edge may add or drop a pixel per side).
      assert.ok(
        Math.abs(out.width - drawn.mark.width) <= 2,
        `width ${out.width} vs mark ${drawn.mark.width}`,
      );
      assert.ok(
        Math.abs(out.height - drawn.mark.height) <= 2,
        `height ${out.height} vs ${drawn.mark.height}`,
      );

      for (const [x, y] of [
        [0, 0],
        [out.width - 1, 0],
        [0, out.height - 1],
        [out.width - 1, out.height - 1],
      ] as const)
        assert.equal(out.at(x, y)[3], 0, `corner ${x},${y} is transparent`);
      const dx = m.width - drawn.mark.width;
      const shift = (p: { x: number; y: number }) => [
        p.x - drawn.mark.left + Math.floor(dx / 2),
        p.y - drawn.mark.top,
      ];
      const [gapX, gapY] = shift(drawn.gap);
      assert.equal(
        out.at(gapX!, gapY!)[3],
        0,
        'white between ring and bar, connected to the edge, is removed',
      );
      const [cx, cy] = shift(drawn.counter);
      const counter = out.at(cx!, cy!);
      assert.equal(counter[3], 255, 'the white counter of the ring is enclosed by the mark and stays opaque');
      assert.ok(
        Math.min(counter[0], counter[1], counter[2]) >= 235,
        `counter stays white: ${counter.join(',')}`,
      );

      assert.ok(logo.colors.length >= 2, `colours: ${logo.colors.join(' ')}`);
      assert.ok(deltaE2000(logo.colors[0]!, BRAND) <= 5, `${logo.colors[0]} is the ring's ${BRAND}`);
      assert.ok(deltaE2000(logo.colors[1]!, SECOND) <= 5, `${logo.colors[1]} is the bar's ${SECOND}`);
      assert.equal(m.monochrome, false);
      assert.equal(m.aspect_class, 'wordmark');
      assert.ok(Math.abs(m.aspect_ratio - drawn.mark.width / drawn.mark.height) < 0.05);
    });
  }

  void test('edge pixels carry no white halo: on black, the ring edge is no lighter than the ring', async () => {
    // #103060: its blue channel (0x60 = 96) is the brightest; a white-blended edge pixel would be far above it.
    const drawn = await drawLogo({
      width: 640,
      height: 400,
      box: '#FFFFFF',
      ring: '#103060',
      bar: '#103060',
      format: 'png',
    });
    const logo = await normalizeLogo(drawn.bytes);
    const onBlack = await decodeRgba(
      await sharp(logo.png).flatten({ background: '#000000' }).png().toBuffer(),
    );
    for (let y = 0; y < onBlack.height; y++) {
      for (let x = 0; x < onBlack.width; x++) {
        const [r, g, b, a] = onBlack.at(x, y);
        assert.equal(a, 255);
        // The white counter is the one light area, deep inside the ring.
        const inCounter = Math.hypot(x - 90, y - 90) < 50;
        if (!inCounter)
          assert.ok(r <= 0x10 + 8 && g <= 0x30 + 8 && b <= 0x60 + 8, `halo at ${x},${y}: ${r},${g},${b}`);
      }
    }
  });
});

void describe('normalizeLogo backgrounds, sizes and measurements', () => {
  void test('a logo already on transparency is reported transparent and trimmed', async () => {
    const drawn = await drawLogo({
      width: 640,
      height: 400,
      box: 'none',
      ring: BRAND,
      bar: BRAND,
      format: 'png',
    });
    const logo = await normalizeLogo(drawn.bytes);
    assert.equal(logo.measurements.background, 'transparent');
    assert.equal(logo.measurements.trimmed, true);
    assert.ok(Math.abs(logo.measurements.width - drawn.mark.width) <= 2);
    assert.equal(logo.measurements.monochrome, true);
    assert.equal(logo.measurements.luminance, 'dark');
    assert.equal(logo.colors.length, 1);
    assert.ok(deltaE2000(logo.colors[0]!, BRAND) <= 5);
  });

  void test('a non-white solid tile is part of the mark: kept, not trimmed, its colour first', async () => {
    const drawn = await drawLogo({
      width: 300,
      height: 300,
      box: '#0B3D91',
      ring: '#FFFFFF',
      bar: '#FFFFFF',
      format: 'png',
      scale: 0.5,
    });
    const logo = await normalizeLogo(drawn.bytes);
    const out = await decodeRgba(logo.png);
    assert.equal(logo.measurements.background, 'solid_kept');
    assert.equal(logo.measurements.trimmed, false);
    assert.deepEqual([out.width, out.height], [300, 300]);
    assert.equal(out.at(0, 0)[3], 255);
    assert.equal(logo.measurements.aspect_class, 'icon');
    assert.ok(deltaE2000(logo.colors[0]!, '#0B3D91') <= 5);
    assert.equal(logo.measurements.monochrome, false);
  });

  void test('a white mark on transparency is light; a tall mark is tall; a grey-only logo has no brand colours', async () => {
    const white = await normalizeLogo(await solidPngWithMargin(200, 500, '#FFFFFF'));
    assert.equal(white.measurements.luminance, 'light');
    assert.ok(white.measurements.mean_luma > 250);
    assert.equal(white.measurements.aspect_class, 'tall');
    assert.deepEqual(white.colors, []);
    const black = await normalizeLogo(await solidPng(300, 120, '#111111'));
    assert.equal(black.measurements.luminance, 'dark');
    assert.ok(black.measurements.mean_luma < 20);
    assert.equal(black.measurements.monochrome, true);
    assert.deepEqual(black.colors, []);
  });

  void test('a 40×40 logo is LOGO_TOO_SMALL, and so is a 40×40 mark on a large white box', async () => {
    await rejectsWith(
      normalizeLogo(await solidPng(40, 40, BRAND)),
      'LOGO_TOO_SMALL',
      /40×40 px.*at least 64 px/,
    );
    const small = await drawLogo({
      width: 400,
      height: 300,
      box: '#FFFFFF',
      ring: BRAND,
      bar: BRAND,
      format: 'png',
      scale: 0.12,
    });
    const err = await rejectsWith(normalizeLogo(small.bytes), 'LOGO_TOO_SMALL', /longer side/);
    assert.ok((err.details as { width: number }).width < 64);
  });

  void test('a blank white image is unreadable, not an empty logo', async () => {
    await rejectsWith(
      normalizeLogo(await solidPng(300, 300, '#FFFFFF')),
      'LOGO_UNREADABLE',
      /blank white box/,
    );
  });
});

void describe('normalizeLogo refuses what it cannot read, quickly', () => {
  void test('garbage, empty, HTML and GIF bytes are LOGO_UNREADABLE with a reason', async () => {
    await rejectsWith(
      normalizeLogo(Buffer.from('not an image at all, just words')),
      'LOGO_UNREADABLE',
      /not a PNG, JPEG, WebP or SVG/,
    );
    await rejectsWith(normalizeLogo(Buffer.alloc(0)), 'LOGO_UNREADABLE', /empty/);
    await rejectsWith(
      normalizeLogo(Buffer.from('<!DOCTYPE html><html><body>Not found</body></html>'), {
        contentType: 'text/html',
      }),
      'LOGO_UNREADABLE',
      /HTML page/,
    );
    const gif = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } })
      .gif()
      .toBuffer();
    await rejectsWith(normalizeLogo(gif), 'LOGO_UNREADABLE', /GIF/);
    await rejectsWith(
      normalizeLogo(Buffer.from([0x12, 0x34, 0x56]), { contentType: 'application/octet-stream' }),
      'LOGO_UNREADABLE',
      /application\/octet-stream/,
    );
  });

  void test('a truncated PNG is unreadable', async () => {
    const drawn = await drawLogo({
      width: 640,
      height: 400,
      box: '#FFFFFF',
      ring: BRAND,
      bar: SECOND,
      format: 'png',
    });
    await rejectsWith(
      normalizeLogo(drawn.bytes.subarray(0, Math.floor(drawn.bytes.length / 2))),
      'LOGO_UNREADABLE',
      /damaged or truncated/,
    );
  });

  void test('a PNG whose header claims 60000×60000 pixels is refused before decoding', async () => {
    const bomb = pngWithHeader(60_000, 60_000);
    assert.ok(bomb.length < 1000);
    await rejectsWith(normalizeLogo(bomb), 'LOGO_UNREADABLE', /60000×60000 px.*million pixel limit/);
    await rejectsWith(normalizeLogo(pngWithHeader(7000, 7000)), 'LOGO_UNREADABLE', /pixel limit/);
  });

  void test('a file over 10 MB is refused without decoding', async () => {
    const big = Buffer.concat([await solidPng(100, 100, BRAND), Buffer.alloc(11 * 1024 * 1024)]);
    await rejectsWith(normalizeLogo(big), 'LOGO_UNREADABLE', /MB, over the limit/);
  });
});

async function solidPngWithMargin(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: colour } })
    .extend({ top: 20, bottom: 20, left: 20, right: 20, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}
