import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProbeArgs, parseFrameRate, parseProbeOutput, probeMedia } from './probe.ts';
import { runFfmpeg } from './runner.ts';

describe('parseFrameRate', () => {
  const cases: [string | undefined, number][] = [
    ['30/1', 30],
    ['30000/1001', 30000 / 1001],
    ['25', 25],
    ['0/0', 0],
    [undefined, 0],
    ['abc', 0],
  ];
  for (const [rate, expected] of cases) {
    test(String(rate), () => assert.equal(parseFrameRate(rate), expected));
  }
});

test('buildProbeArgs', () => {
  assert.deepEqual(buildProbeArgs('a.mp4'), [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    'a.mp4',
  ]);
});

describe('parseProbeOutput', () => {
  test('video with audio', () => {
    const json = JSON.stringify({
      streams: [
        {
          codec_type: 'video',
          codec_name: 'h264',
          width: 1080,
          height: 1920,
          pix_fmt: 'yuv420p',
          avg_frame_rate: '30/1',
          r_frame_rate: '30/1',
        },
        { codec_type: 'audio', codec_name: 'aac', sample_rate: '48000', channels: 2 },
      ],
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '30.000000', size: '1234567' },
    });
    assert.deepEqual(parseProbeOutput(json), {
      durationSec: 30,
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      sizeBytes: 1234567,
      video: { width: 1080, height: 1920, fps: 30, codec: 'h264', pixFmt: 'yuv420p' },
      audio: { codec: 'aac', sampleRate: 48000, channels: 2 },
    });
  });

  test('audio file with cover art has no video', () => {
    const json = JSON.stringify({
      streams: [
        { codec_type: 'audio', codec_name: 'mp3', sample_rate: '44100', channels: 1 },
        {
          codec_type: 'video',
          codec_name: 'mjpeg',
          width: 500,
          height: 500,
          disposition: { attached_pic: 1 },
        },
      ],
      format: { format_name: 'mp3', duration: '12.5', size: '200000' },
    });
    assert.deepEqual(parseProbeOutput(json), {
      durationSec: 12.5,
      formatName: 'mp3',
      sizeBytes: 200000,
      audio: { codec: 'mp3', sampleRate: 44100, channels: 1 },
    });
  });

  test('falls back to r_frame_rate when avg_frame_rate is 0/0', () => {
    const json = JSON.stringify({
      streams: [
        {
          codec_type: 'video',
          codec_name: 'png',
          width: 10,
          height: 20,
          pix_fmt: 'rgba',
          avg_frame_rate: '0/0',
          r_frame_rate: '25/1',
        },
      ],
      format: { format_name: 'png_pipe', size: '99' },
    });
    assert.equal(parseProbeOutput(json).video?.fps, 25);
    assert.equal(parseProbeOutput(json).durationSec, 0);
  });
});

test('probeMedia reads a real file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rs-probe-'));
  try {
    const path = join(dir, 'clip.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=64x48:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'sine=d=1:sample_rate=44100',
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
      '-shortest',
      path,
    ]);
    const info = await probeMedia(path);
    assert.deepEqual(info.video, { width: 64, height: 48, fps: 25, codec: 'h264', pixFmt: 'yuv420p' });
    assert.deepEqual(info.audio, { codec: 'aac', sampleRate: 44100, channels: 1 });
    assert.ok(Math.abs(info.durationSec - 1) < 0.1, `duration ${info.durationSec}`);
    assert.ok(info.sizeBytes > 0);
    assert.match(info.formatName, /mp4/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
