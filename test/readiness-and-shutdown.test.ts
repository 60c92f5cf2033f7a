import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startChildService, type ChildService } from './support/http-child-process.ts';
import { startS3Server } from './support/s3-server.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// Readiness (GET /api/v1/ready) against real failures, and an API process's SIGTERM. The worker's side of
// SIGTERM (finish within the grace period, or hand the job back without a second charge) is in
// worker-crash.test.ts.

let service: TestService;
before(async () => {
  service = await startTestService({ worker: false });
});
after(async () => {
  await service.stop();
});

const ready = (target: Pick<TestService, 'call'>) => target.call('GET', '/api/v1/ready', { key: null });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

void describe('GET /api/v1/ready', () => {
  void test('answers 200 with every check passing, without an API key', async () => {
    const response = await ready(service);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.status, 'ready');
    const { checks } = response.body.data;
    assert.deepEqual(Object.keys(checks).sort(), ['database', 'disk', 'ffmpeg', 'store']);
    for (const check of Object.values(checks)) assert.equal((check as { ok: boolean }).ok, true);
    assert.ok(checks.disk.free_mb > 0);
    assert.equal(checks.disk.min_free_mb, 1024);
    assert.equal((await service.call('GET', '/api/v1/health', { key: null })).status, 200);

    const doc = (await service.call('GET', '/api/v1/openapi.json', { key: null })).body;
    const documented = doc.paths['/api/v1/ready'].get;
    assert.ok(documented.responses['200'] && documented.responses['503'], 'both answers are documented');
  });

  void test('answers 503 naming the store when the media store cannot write', async () => {
    // The probe object goes under media/health/: a plain file there makes every write of the store fail.
    const blocker = join(service.dataDir, 'media', 'health');
    await rm(blocker, { recursive: true, force: true });
    await mkdir(join(service.dataDir, 'media'), { recursive: true });
    await writeFile(blocker, 'not a folder');
    try {
      const response = await ready(service);
      assert.equal(response.status, 503);
      assert.equal(response.body.error.code, 'SERVICE_NOT_READY');
      assert.equal(response.body.error.retryable, true);
      assert.deepEqual(response.body.error.details.failing, ['store']);
      assert.match(response.body.error.message, /store/);
      assert.equal(response.body.error.details.checks.database.ok, true);
    } finally {
      await rm(blocker);
    }
    assert.equal((await ready(service)).status, 200);
  });

  void test('with the S3 store: probes the bucket, 503 naming the store while it is down', async () => {
    const s3 = await startS3Server();
    const onS3 = await startTestService({ worker: false, env: s3.env });
    try {
      assert.equal((await ready(onS3)).status, 200);
      const probes = s3.created.filter((o) => o.key.startsWith('health/probe-'));
      assert.equal(probes.length, 1, 'the probe object was written to the bucket');
      assert.equal(await onS3.runtime.context.store.exists(probes[0]!.key), false, 'and deleted');

      await s3.stop();
      const down = await ready(onS3);
      assert.equal(down.status, 503);
      assert.deepEqual(down.body.error.details.failing, ['store']);

      await s3.start();
      assert.equal((await ready(onS3)).status, 200);
    } finally {
      await onS3.stop();
      await s3.dispose();
    }
  });

  void test('answers 503 naming ffmpeg in a process that cannot find it', async () => {
    const emptyPath = join(tmpdir(), `reelsmith-no-ffmpeg-${process.pid}`);
    await mkdir(emptyPath, { recursive: true });
    const child = await startChildService(service, { PATH: emptyPath, RUN_WORKER: '0' });
    try {
      const response = await ready(child);
      assert.equal(response.status, 503);
      assert.deepEqual(response.body.error.details.failing, ['ffmpeg']);
      assert.match(response.body.error.details.checks.ffmpeg.error, /ffmpeg/);
      assert.equal((await child.call('GET', '/api/v1/health', { key: null })).status, 200, 'still alive');
    } finally {
      await child.stop();
    }
  });
});

void describe('an API process on SIGTERM', () => {
  void test('fails readiness first, answers the request in flight, then stops accepting', async () => {
    let child: ChildService | undefined = await startChildService(service, {
      RUN_WORKER: '0',
      SHUTDOWN_DRAIN_SECONDS: '2',
    });
    try {
      assert.equal((await ready(child)).status, 200);
      const key = `in-flight-${Math.random()}`;
      // Validation of this request takes 4 s: it is still being handled when the signal arrives.
      const inFlight = child.call('POST', '/api/v1/generate-and-post', {
        body: { topic: 'in flight at shutdown', validate_ms: 4000 },
        headers: { 'idempotency-key': key },
      });
      await until('the request to reach the server', async () => {
        const { rows } = await service.runtime.database.pool.query(
          `SELECT 1 FROM idempotency_records WHERE key = $1 AND state = 'pending'`,
          [key],
        );
        return rows.length > 0 ? true : undefined;
      });

      const stopped = child.stop();
      const notReady = await until('readiness to fail', async () => {
        const response = await ready(child!);
        return response.status === 503 ? response : undefined;
      });
      assert.ok(notReady.body.error.details.failing.includes('shutting_down'));
      assert.equal(
        (await child.call('GET', '/api/v1/health', { key: null })).status,
        200,
        'liveness still answers while draining',
      );

      const answered = await inFlight;
      assert.equal(answered.status, 202, answered.text);
      const { rows } = await service.runtime.database.pool.query('SELECT status FROM jobs WHERE id = $1', [
        answered.body.data.job_id,
      ]);
      assert.equal(rows[0].status, 'queued', 'the accepted job is in the shared queue for any worker');

      await stopped;
      await assert.rejects(fetch(`${child.url}/api/v1/health`), 'no longer accepting connections');
      assert.doesNotMatch(child.stderr(), /shutdown failed|stop failed/);
      child = undefined;
    } finally {
      await child?.stop();
    }
  });
});
