import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { faceRegion, photoFrame, prepareAudio, preparePhoto } from './render-inputs.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-inputs-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('photoFrame', () => {
  const cases: [number, number, '9:16' | '16:9' | '1:1', { width: number; height: number }][] = [
    [400, 300, '9:16', { width: 168, height: 300 }],
    [4000, 3000, '9:16', { width: 1080, height: 1920 }],
    [300, 400, '16:9', { width: 300, height: 168 }],
    [3840, 2160, '16:9', { width: 1920, height: 1080 }],
    [1000, 1000, '1:1', { width: 1000, height: 1000 }],
    [3000, 2000, '1:1', { width: 1080, height: 1080 }],
  ];
  for (const [width, height, aspect, expected] of cases) {
    test(`${width}×${height} at ${aspect} → ${expected.width}×${expected.height}`, () => {
      assert.deepEqual(photoFrame(width, height, aspect), expected);
    });
  }
});

describe('faceRegion', () => {
  test('centres the face across and 40 % down, inside the picture', () => {
    // 1000×1000 at 9:16: a 562×1000 region; a face centred at (500, 400) sits in its middle, 400 px down.
    assert.deepEqual(faceRegion(1000, 1000, '9:16', { left: 450, top: 350, width: 100, height: 100 }), {
      left: 219,
      top: 0,
      width: 562,
      height: 1000,
    });
    // A face at the right edge of a landscape photo: the region stops at the edge.
    assert.deepEqual(faceRegion(400, 300, '9:16', { left: 340, top: 130, width: 40, height: 40 }), {
      left: 232,
      top: 0,
      width: 168,
      height: 300,
    });
    // 16:9 out of a tall photo: room above and below, the face 40 % down.
    assert.deepEqual(faceRegion(300, 800, '16:9', { left: 100, top: 500, width: 100, height: 100 }), {
      left: 0,
      top: 483,
      width: 300,
      height: 168,
    });
  });
});

/** Whether the pixel at (x, y) of a JPEG is clearly red. */
async function redAt(path: string, x: number, y: number): Promise<boolean> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return (data[i] ?? 0) > 180 && (data[i + 1] ?? 255) < 80 && (data[i + 2] ?? 255) < 80;
}

describe('preparePhoto', () => {
  test('with a face box, the crop is framed on the face, in upright pixels', async () => {
    // Upright 300×400 grey picture with a red "face" at (220, 100)–(280, 160), stored rotated with orientation 6.
    const red = await sharp({ create: { width: 60, height: 60, channels: 3, background: '#e01010' } })
      .png()
      .toBuffer();
    const upright = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#777' } })
      .composite([{ input: red, left: 220, top: 100 }])
      .png()
      .toBuffer();
    const source = join(dir, 'face-rotated.jpg');
    await sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toFile(source);

    const face = { left: 220, top: 100, width: 60, height: 60 };
    const prepared = await preparePhoto(source, '16:9', await mkdtemp(join(dir, 'photo-')), face);
    const meta = await sharp(prepared.path).metadata();
    assert.deepEqual([meta.width, meta.height], [300, 168]);
    // The region starts 130 − 0.4 × 168 ≈ 63 px down, so the face lies at y 37…97 of the output.
    assert.ok(await redAt(prepared.path, 250, 67), 'the face is in the frame where it was placed');
    assert.ok(!(await redAt(prepared.path, 250, 150)), 'and nowhere else');
  });

  test('crops to the aspect ratio as an upright JPEG, EXIF orientation applied', async () => {
    // Stored 400×300 with orientation 6 ("rotate 90°"): shown upright it is 300×400.
    const source = join(dir, 'rotated.jpg');
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#8a6' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toFile(source);
    const work = await mkdtemp(join(dir, 'photo-'));
    const prepared = await preparePhoto(source, '9:16', work);
    assert.equal(prepared.contentType, 'image/jpeg');
    const meta = await sharp(prepared.path).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.deepEqual([meta.width, meta.height], [226, 400]);
    assert.equal(meta.orientation ?? 1, 1);
  });

  test('a transparent PNG is flattened onto white', async () => {
    const source = join(dir, 'cutout.png');
    await sharp({
      create: { width: 200, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toFile(source);
    const prepared = await preparePhoto(source, '1:1', await mkdtemp(join(dir, 'photo-')));
    const { data } = await sharp(prepared.path).raw().toBuffer({ resolveWithObject: true });
    assert.ok(
      data.every((v) => v > 245),
      'white, not black',
    );
  });
});

describe('prepareAudio', () => {
  test('encodes the narration as mono MP3 of the same length', async () => {
    const wav = join(dir, 'voice.wav');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:duration=2',
      '-ac',
      '2',
      '-ar',
      '48000',
      wav,
    ]);
    const prepared = await prepareAudio(wav, await mkdtemp(join(dir, 'audio-')), AbortSignal.timeout(60_000));
    assert.equal(prepared.contentType, 'audio/mpeg');
    const info = await probeMedia(prepared.path);
    assert.equal(info.audio?.codec, 'mp3');
    assert.equal(info.audio?.channels, 1);
    assert.ok(Math.abs(info.durationSec - 2) < 0.1, `duration ${info.durationSec}`);
  });
});
