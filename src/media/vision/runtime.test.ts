import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { segmentationModel, tf, VisionModelsMissingError } from './runtime.ts';

test('missing weights fail with a clear error naming the file, and loading works once they are there', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'vision-no-models-'));
  process.env.REELSMITH_VISION_MODELS_DIR = empty;
  try {
    await assert.rejects(segmentationModel(), (error: unknown) => {
      assert.ok(error instanceof VisionModelsMissingError);
      assert.match(error.message, /selfie\.json/);
      assert.match(error.message, /@vladmandic\/human-models/);
      return true;
    });
  } finally {
    delete process.env.REELSMITH_VISION_MODELS_DIR;
    await rm(empty, { recursive: true, force: true });
  }
  const model = await segmentationModel();
  assert.deepEqual(model.inputs[0]?.shape, [1, 256, 256, 3]);
  assert.equal(tf.getBackend(), 'wasm');
  assert.equal(await segmentationModel(), model, 'loaded once');
});
