// Without the face model's weights a clip is still delivered, with the motion reframe, and says why. Its own
// file: the vision runtime is process-wide, and this one starts it on an empty weights folder.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { renderClip } from './render-clip.ts';
import { extractSourceAudio } from './source-audio.ts';

let dir = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'speaking-face-no-model-'));
  process.env.REELSMITH_VISION_MODELS_DIR = join(dir, 'no-models');
});
after(async () => {
  delete process.env.REELSMITH_VISION_MODELS_DIR;
  await rm(dir, { recursive: true, force: true });
});

test('a missing face model falls back to the motion reframe', async () => {
  const source = join(dir, 'source.mp4');
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=25:duration=3',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=300:duration=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    source,
  ]);
  const audio = await extractSourceAudio(source, join(dir, 'speech.wav'));
  const { clip } = await renderClip({
    sourcePath: source,
    source: { width: 640, height: 360, fps: 25 },
    bounds: { startSec: 0, endSec: 3, durationSec: 3 },
    words: [],
    loudness: audio.loudness,
    width: 270,
    height: 480,
    captions: false,
    preset: 'ultrafast',
    basePath: join(dir, 'clip'),
  });
  assert.equal(clip.reframe.fallbackReason, 'face model unavailable');
  assert.equal(clip.reframe.method, clip.framing.mode === 'crop' ? 'motion' : clip.framing.mode);
  assert.equal(clip.width, 270);
  assert.equal(clip.height, 480);
});
