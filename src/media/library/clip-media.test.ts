import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { MediaInfo } from '../ffmpeg/probe.ts';
import { clipExtension, inspectClip, videoProblem } from './clip-media.ts';

const video = (width: number, height: number) => ({
  width,
  height,
  fps: 30,
  codec: 'h264',
  pixFmt: 'yuv420p',
});
const info = (over: Partial<MediaInfo>): MediaInfo => ({
  durationSec: 5,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  sizeBytes: 1000,
  video: video(1080, 1920),
  ...over,
});

void describe('videoProblem', () => {
  const cases: [string, MediaInfo, RegExp | undefined][] = [
    ['a portrait MP4', info({}), undefined],
    ['a landscape WebM', info({ formatName: 'matroska,webm', video: video(640, 360) }), undefined],
    [
      'audio only',
      info({ video: undefined, audio: { codec: 'aac', sampleRate: 48000, channels: 2 } }),
      /no video stream/,
    ],
    ['a PNG', info({ formatName: 'png_pipe', durationSec: 0 }), /still image/],
    ['a JPEG sequence', info({ formatName: 'image2' }), /still image/],
    ['too small', info({ video: video(100, 200) }), /at least 144 px/],
    ['too short', info({ durationSec: 0.4 }), /at least 1 s/],
    ['no duration', info({ durationSec: 0 }), /at least 1 s/],
  ];
  for (const [name, media, expected] of cases) {
    void test(name, () => {
      const problem = videoProblem(media);
      if (expected) assert.match(problem ?? '', expected);
      else assert.equal(problem, undefined);
    });
  }
});

void describe('clipExtension', () => {
  const cases: [string, string][] = [
    ['mov,mp4,m4a,3gp,3g2,mj2', 'mp4'],
    ['matroska,webm', 'mkv'],
    ['avi', 'avi'],
    ['mpegts', 'mpegts'],
    ['', 'video'],
  ];
  for (const [format, expected] of cases)
    void test(format || '(empty)', () => assert.equal(clipExtension(format), expected));
});

void describe('inspectClip on real files', () => {
  void test('a real clip passes with its probed facts; text and audio are refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clip-media-'));
    const clip = join(dir, 'clip.bin');
    const audio = join(dir, 'tone.m4a');
    const text = join(dir, 'notes.mp4');
    const ff = (args: string[]) =>
      assert.equal(spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]).status, 0);
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=360x640:r=25:d=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mp4',
      clip,
    ]);
    ff(['-f', 'lavfi', '-i', 'sine=d=2', '-c:a', 'aac', audio]);
    await writeFile(text, 'plain text, not a video');
    assert.deepEqual(await inspectClip(clip), {
      ok: true,
      facts: { width: 360, height: 640, durationSec: 2, extension: 'mp4' },
    });
    assert.deepEqual(await inspectClip(audio), {
      ok: false,
      problem: 'has no video stream (audio only, or not a video)',
    });
    assert.deepEqual(await inspectClip(text), { ok: false, problem: 'is not a media file ffprobe can read' });
  });
});
