import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runFfmpeg } from '../src/media/ffmpeg/runner.ts';
import { freeMegabytes } from '../src/platform/health/disk-space.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';
import { testMode } from './support/test-mode.ts';
import { jobLedger } from './support/job-ledger.ts';

// DATA_DIR is a real 20 MB tmpfs, so "the disk is full" is the kernel's ENOSPC, met by a real ffmpeg and by a
// real write. Mounting needs root (CAP_SYS_ADMIN); elsewhere the suite is skipped and says why.

const TMPFS_MB = 20;

/** Topic "ffmpeg-fill": ffmpeg writes raw video (~10 MB/s of output) until the disk is full; "write-fill": Node does. */
const fillingMode = testMode({
  async run(ctx) {
    await ctx.progress('render', 10, 'Rendering');
    if (ctx.request.topic === 'ffmpeg-fill') {
      const out = join(ctx.workDir, 'huge.avi');
      const args = [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=640x360:rate=30',
        '-t',
        '30',
        '-c:v',
        'rawvideo',
      ];
      await runFfmpeg([...args, out], { signal: ctx.signal });
    } else if (ctx.request.topic === 'write-fill') {
      const file = await open(join(ctx.workDir, 'buffer.bin'), 'w');
      try {
        const chunk = Buffer.alloc(1024 * 1024, 7);
        for (let i = 0; i < TMPFS_MB * 2; i++) await file.write(chunk);
      } finally {
        await file.close();
      }
    }
    const video = join(ctx.workDir, 'video.mp4');
    const poster = join(ctx.workDir, 'poster.jpg');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x112:r=30:d=0.5', '-c:v', 'libx264', video]);
    await runFfmpeg(['-y', '-i', video, '-frames:v', '1', poster]);
    // "big-upload": the video file is 6 MB, more than the media folder's own small file system holds.
    if (ctx.request.topic === 'big-upload') await writeFile(video, randomBytes(6 * 1024 * 1024));
    return {
      files: [
        { role: 'thumbnail', path: poster, contentType: 'image/jpeg' },
        { role: 'video', path: video, contentType: 'video/mp4' },
      ],
      artifacts: { title: ctx.request.topic },
    };
  },
});

let mountPoint: string | undefined;
let skipReason = '';

before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_MB}m`, 'tmpfs', dir]);
  if (mounted.status === 0) mountPoint = dir;
  else {
    await rmdir(dir);
    skipReason = `cannot mount a tmpfs here (needs root): ${mounted.stderr?.toString().trim()}`;
  }
});
after(async () => {
  if (!mountPoint) return;
  spawnSync('umount', [mountPoint]);
  await rmdir(mountPoint).catch(() => undefined);
});

async function withService(
  env: Record<string, string>,
  body: (service: TestService) => Promise<void>,
  /** Runs once the service stopped, before the tmpfs is emptied (e.g. unmounting a nested file system). */
  afterStop?: () => void,
): Promise<void> {
  const service = await startTestService({ modes: [fillingMode], dataDir: mountPoint!, env });
  try {
    await body(service);
  } finally {
    await service.stop();
    afterStop?.();
    for (const name of await readdir(mountPoint!)) await rm(join(mountPoint!, name), { recursive: true });
  }
}

async function submit(service: TestService, topic: string): Promise<string> {
  const response = await service.call('POST', '/api/v1/generate-and-post', {
    body: { topic },
    headers: { 'idempotency-key': `disk-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  return response.body.data.job_id;
}

void describe('a render that runs out of disk', () => {
  for (const [topic, writer] of [
    ['ffmpeg-fill', 'ffmpeg'],
    ['write-fill', 'a file write'],
  ] as const) {
    void test(`(${writer}) fails cleanly: DISK_FULL, refunded, no partial files left`, async (t) => {
      if (!mountPoint) return t.skip(skipReason);
      await withService({ MIN_FREE_DISK_MB: '0' }, async (service) => {
        const jobId = await submit(service, topic);
        const job = await waitForJob(service, jobId, { timeoutMs: 60_000 });
        assert.equal(job.status, 'failed', JSON.stringify(job));
        assert.equal(job.error.code, 'DISK_FULL');
        assert.equal(job.error.retryable, true);
        assert.equal(job.attempts, 1, 'a full disk is not retried on the same full disk');
        assert.equal(job.artifacts.videoUrl, undefined);
        assert.deepEqual(await jobLedger(service, jobId), [
          { kind: 'charge', amount_cents: -60 },
          { kind: 'refund', amount_cents: 60 },
        ]);
        assert.equal(existsSync(join(mountPoint!, 'work', jobId)), false, 'the work folder is gone');
        assert.equal(existsSync(join(mountPoint!, 'media', 'jobs', jobId)), false, 'nothing was stored');
        // Everything the render wrote was given back: the tmpfs is (all but) empty again.
        assert.ok((await freeMegabytes(mountPoint!)) >= TMPFS_MB - 1);
      });
    });
  }
});

void describe('storing the files when the media folder fills up', () => {
  void test('fails cleanly: DISK_FULL, refunded, and the files stored before it are deleted too', async (t) => {
    if (!mountPoint) return t.skip(skipReason);
    // The media folder is its own 3 MB file system: the 6 MB video cannot be stored after its poster.
    const media = join(mountPoint, 'media');
    await mkdir(media, { recursive: true });
    assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', media]).status, 0);
    const unmount = () => spawnSync('umount', [media]);
    try {
      await withService(
        { MIN_FREE_DISK_MB: '0' },
        async (service) => {
          const jobId = await submit(service, 'big-upload');
          const job = await waitForJob(service, jobId, { timeoutMs: 60_000 });
          assert.equal(job.status, 'failed', JSON.stringify(job));
          assert.equal(job.error.code, 'DISK_FULL');
          assert.deepEqual(await jobLedger(service, jobId), [
            { kind: 'charge', amount_cents: -60 },
            { kind: 'refund', amount_cents: 60 },
          ]);
          assert.equal(
            existsSync(join(media, 'jobs', jobId)),
            false,
            'neither the poster nor part of the video',
          );
          assert.equal(existsSync(join(mountPoint!, 'work', jobId)), false);
          assert.ok((await freeMegabytes(media)) >= 2, 'the media file system was given its space back');
        },
        unmount,
      );
    } finally {
      unmount();
    }
  });
});

void describe('heavy jobs and low free disk (MIN_FREE_DISK_MB)', () => {
  void test('a heavy job waits while free disk is below the threshold, readiness says why, then it runs', async (t) => {
    if (!mountPoint) return t.skip(skipReason);
    await withService({ MIN_FREE_DISK_MB: '10' }, async (service) => {
      const ballast = join(mountPoint!, 'ballast.bin');
      await writeFile(ballast, Buffer.alloc(14 * 1024 * 1024));

      const ready = await service.call('GET', '/api/v1/ready', { key: null });
      assert.equal(ready.status, 503);
      assert.equal(ready.body.error.code, 'SERVICE_NOT_READY');
      assert.deepEqual(ready.body.error.details.failing, ['disk']);
      const disk = ready.body.error.details.checks.disk;
      assert.equal(disk.min_free_mb, 10);
      assert.ok(disk.free_mb < 10);
      assert.match(disk.error, /MIN_FREE_DISK_MB/);

      const jobId = await submit(service, 'small render');
      const waiting = await waitForJob(service, jobId, {
        until: (job) => job.progress.some((p: { stage: string }) => p.stage === 'waiting_for_disk'),
      });
      assert.equal(waiting.status, 'queued');
      assert.equal(waiting.attempts, 0, 'it was not started');

      await rm(ballast);
      const done = await waitForJob(service, jobId, { timeoutMs: 60_000 });
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.attempts, 1);
      assert.equal((await service.call('GET', '/api/v1/ready', { key: null })).status, 200);
    });
  });
});
