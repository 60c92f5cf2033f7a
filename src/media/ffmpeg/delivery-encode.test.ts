import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryEncodeArgs } from './delivery-encode.ts';

void test('a deliverable MP4: H.264 High yuv420p, 2 s keyframes, AAC 48 kHz stereo, faststart', () => {
  const base = { preset: 'veryfast', crf: 21, fps: 30, audioBitrateKbps: 192, durationSec: 12.3456 };
  assert.deepEqual(deliveryEncodeArgs(base), [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    ...['-g', '60', '-c:a', 'aac', '-b:a', '192k', '-ar', '48000', '-ac', '2'],
    ...['-t', '12.346', '-movflags', '+faststart'],
  ]);
  const forced = deliveryEncodeArgs({ ...base, fps: 29.97, forceFps: true, threads: 2 });
  assert.deepEqual(forced.slice(10, 16), ['-r', '29.97', '-g', '60', '-threads', '2']);
  assert.ok(!deliveryEncodeArgs({ ...base, threads: 0 }).includes('-threads'));
});
