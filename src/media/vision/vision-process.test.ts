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
  stopVisionProcess,
  visionProcessId,
  visionProcessRunning,
  VisionModelsMissingError,
} from './index.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('missing weights reach the caller as the same error, naming the files', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'vision-process-no-models-'));
  process.env.REELSMITH_VISION_MODELS_DIR = empty;
  try {
    await assert.rejects(segmentPerson(await cutRaw(SAMPLES, MAN_AT_TABLE)), (error: unknown) => {
      assert.ok(error instanceof VisionModelsMissingError);
      assert.ok(error.missing.some((file) => file.endsWith('selfie.json')));
      return true;
    });
  } finally {
    delete process.env.REELSMITH_VISION_MODELS_DIR;
    // The process read the environment when it started: the next one must see the real weights.
    await stopVisionProcess();
    await rm(empty, { recursive: true, force: true });
  }
});

test('faces and a person mask come back from the process whole, and the process exits when idle', async () => {
  process.env.VISION_IDLE_MS = '300';
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

    const pid = visionProcessId();
    assert.ok(pid !== null && pid !== process.pid, 'the models run in a process of their own');
    for (let i = 0; i < 50 && visionProcessRunning(); i++) await sleep(100);
    assert.equal(visionProcessRunning(), false, 'the process is let go after its idle time');
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    assert.equal(alive(pid), false, 'and it exits, its memory with it');

    const again = await detectFaces(photo);
    assert.equal(again.length, 1, 'a call after the exit starts a new process');
    assert.deepEqual(again[0]!.box, face!.box, 'and gets the same answer');
  } finally {
    delete process.env.VISION_IDLE_MS;
    await stopVisionProcess();
  }
});

test('a render about to start releases an idle process at once, never one still answering', async () => {
  try {
    const photo = await cutRaw(SAMPLES, MAN_AT_TABLE);
    const waiting = segmentPerson(photo);
    releaseIdleVision();
    assert.ok(visionProcessRunning(), 'a call is waiting: the process stays');
    assert.ok(await waiting, 'and the call is answered');
    assert.ok(visionProcessRunning(), 'idle, within its idle time');
    releaseIdleVision();
    assert.equal(visionProcessRunning(), false, 'released at once');
  } finally {
    await stopVisionProcess();
  }
});

test('a vision process that dies fails the calls it owed, and the next call starts a new one', async () => {
  try {
    const photo = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 844 });
    const owed = detectFaces(photo);
    const pid = visionProcessId();
    assert.ok(pid !== null);
    process.kill(pid, 'SIGKILL');
    // The killed process either closes its channel before the call reaches it or exits owing the answer.
    await assert.rejects(owed, /the vision process (exited \(SIGKILL\)|could not take the call)/);
    assert.equal(visionProcessRunning(), false);
    const faces = await detectFaces(photo);
    assert.equal(faces.length, 1, 'a new process answers');
    assert.notEqual(visionProcessId(), pid);
  } finally {
    await stopVisionProcess();
  }
});
