import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { cutRaw, MAN_AT_TABLE, SAMPLES } from '../../../test/support/sample-photos.ts';
import {
  detectFaces,
  releaseIdleVision,
  segmentPerson,
  stopVisionThread,
  visionThreadRunning,
  VisionModelsMissingError,
} from './index.ts';

test('missing weights reach the caller as the same error, naming the files', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'vision-thread-no-models-'));
  process.env.REELSMITH_VISION_MODELS_DIR = empty;
  try {
    await assert.rejects(segmentPerson(await cutRaw(SAMPLES, MAN_AT_TABLE)), (error: unknown) => {
      assert.ok(error instanceof VisionModelsMissingError);
      assert.ok(error.missing.some((file) => file.endsWith('selfie.json')));
      return true;
    });
  } finally {
    delete process.env.REELSMITH_VISION_MODELS_DIR;
    // The thread read the environment when it started: the next one must see the real weights.
    await stopVisionThread();
    await rm(empty, { recursive: true, force: true });
  }
});

test('faces and a person mask come back from the thread whole, and the thread exits when idle', async () => {
  process.env.VISION_THREAD_IDLE_MS = '300';
  try {
    const photo = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 844 });
    const [faces, mask] = await Promise.all([detectFaces(photo), segmentPerson(photo)]);
    assert.equal(faces.length, 1);
    const [face] = faces;
    assert.ok(face!.descriptor instanceof Float32Array, 'the descriptor arrives as a Float32Array');
    assert.equal(face!.descriptor.length, 1024);
    assert.ok(Math.abs(Math.hypot(...face!.descriptor) - 1) < 1e-3, 'still L2-normalised');
    assert.equal(face!.landmarks.length, 478);
    assert.ok(mask && mask.mask instanceof Uint8Array);
    assert.equal(mask.mask.length, mask.width * mask.height);
    assert.ok(mask.coverage > 0.1, `the man covers a good share of the photo: ${mask.coverage}`);
    assert.ok(photo.data.length > 0, "the caller's pixels stay usable");

    assert.ok(visionThreadRunning());
    for (let i = 0; i < 50 && visionThreadRunning(); i++) await sleep(100);
    assert.equal(visionThreadRunning(), false, 'the thread exits after its idle time');

    const again = await detectFaces(photo);
    assert.equal(again.length, 1, 'a call after the exit starts a new thread');
    assert.deepEqual(again[0]!.box, face!.box, 'and gets the same answer');
  } finally {
    delete process.env.VISION_THREAD_IDLE_MS;
    await stopVisionThread();
  }
});

test('a render about to start releases an idle thread at once, never one still answering', async () => {
  try {
    const photo = await cutRaw(SAMPLES, MAN_AT_TABLE);
    const waiting = segmentPerson(photo);
    releaseIdleVision();
    assert.ok(visionThreadRunning(), 'a call is waiting: the thread stays');
    assert.ok(await waiting, 'and the call is answered');
    assert.ok(visionThreadRunning(), 'idle, within its idle time');
    releaseIdleVision();
    assert.equal(visionThreadRunning(), false, 'released at once');
  } finally {
    await stopVisionThread();
  }
});
