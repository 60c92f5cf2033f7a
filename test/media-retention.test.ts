import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../src/platform/logger.ts';
import {
  claimMaintenanceRun,
  MediaRetention,
  RETENTION_RUN,
} from '../src/platform/retention/media-retention.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// MEDIA_RETENTION_DAYS=30 (the default): jobs are aged by moving their finished_at back, then swept.

let service: TestService;
let second: TestService;
before(async () => {
  service = await startTestService();
  // A second process's runtime on the same database: the sweep must run in only one of them per interval.
  second = await startTestService({ databaseUrl: service.databaseUrl, http: false, worker: false });
});
after(async () => {
  await second.stop();
  await service.stop();
});

function retentionOf(s: TestService): MediaRetention {
  const { config, context } = s.runtime;
  return new MediaRetention({ config, db: context.db, store: context.store, log: createLogger('silent') });
}

async function completedJob(): Promise<any> {
  const response = await service.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `retention ${Math.random()}` },
    headers: { 'idempotency-key': `retention-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  const job = await waitForJob(service, response.body.data.job_id);
  assert.equal(job.status, 'completed', JSON.stringify(job));
  return job;
}

async function endedDaysAgo(jobId: string, days: number): Promise<void> {
  await service.runtime.database.pool.query(
    `UPDATE jobs SET finished_at = now() - make_interval(days => $2) WHERE id = $1`,
    [jobId, days],
  );
}

const mediaFolder = (jobId: string) => join(service.dataDir, 'media', 'jobs', jobId);

void describe('media retention (MEDIA_RETENTION_DAYS)', () => {
  void test('deletes the files of jobs past retention; the record stays and its links answer 410', async () => {
    const old = await completedJob();
    const recent = await completedJob();
    await endedDaysAgo(old.id, 31);
    await endedDaysAgo(recent.id, 29);
    assert.ok(existsSync(mediaFolder(old.id)));
    const oldLink = old.artifacts.videoUrl as string;

    const swept = await retentionOf(service).sweep();
    assert.ok(swept.jobs >= 1);

    assert.equal(existsSync(mediaFolder(old.id)), false, 'the old job’s files are deleted');
    assert.ok(existsSync(mediaFolder(recent.id)), 'a job within retention keeps its files');

    const gone = await fetch(oldLink);
    assert.equal(gone.status, 410);
    const body = (await gone.json()) as any;
    assert.equal(body.error.code, 'MEDIA_EXPIRED');

    const read = await service.call('GET', `/api/v1/jobs/${old.id}`);
    assert.equal(read.status, 200);
    const job = read.body.data.job;
    assert.equal(job.status, 'completed');
    assert.equal(job.artifacts.title, old.artifacts.title, 'the record keeps its metadata');
    assert.equal(job.artifacts.videoUrl, null);
    assert.deepEqual(job.artifacts.videoUrls, [null]);
    assert.equal(job.artifacts.media_expired.code, 'MEDIA_EXPIRED');
    assert.ok(Date.parse(job.artifacts.media_expired.expired_at) > 0);

    const kept = await service.call('GET', `/api/v1/jobs/${recent.id}`);
    const keptVideo = await fetch(kept.body.data.job.artifacts.videoUrl);
    assert.equal(keptVideo.status, 200);
    assert.ok((await keptVideo.arrayBuffer()).byteLength > 100);

    assert.equal((await retentionOf(service).sweep()).jobs, 0, 'a swept job is not swept again');
  });

  void test('deletes stale work folders of ended or unknown jobs, never those of open jobs', async () => {
    const work = join(service.dataDir, 'work');
    const hanging = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: `open ${Math.random()}`, outcome: 'sleep', sleep_ms: 600_000 },
      headers: { 'idempotency-key': `open-${Math.random()}` },
    });
    const openId = hanging.body.data.job_id as string;
    await waitForJob(service, openId, { until: (job) => job.status === 'running' });
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    for (const name of ['job_orphaned_by_a_crash', openId]) {
      await mkdir(join(work, name), { recursive: true });
      await writeFile(join(work, name, 'partial.mp4'), 'partial');
      await utimes(join(work, name), longAgo, longAgo);
    }
    await mkdir(join(work, 'job_fresh_folder'), { recursive: true });

    const swept = await retentionOf(service).sweep();
    assert.equal(swept.workDirs, 1);
    assert.equal(existsSync(join(work, 'job_orphaned_by_a_crash')), false);
    assert.ok(existsSync(join(work, openId)), 'a running job keeps its work folder');
    assert.ok(existsSync(join(work, 'job_fresh_folder')));
    await service.call('POST', `/api/v1/jobs/${openId}/cancel`);
  });

  void test('runs once per interval across processes', async () => {
    const pools = [service.runtime.database.db, second.runtime.database.db];
    await service.runtime.database.pool.query('DELETE FROM maintenance_runs');
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimMaintenanceRun(pools[i % 2]!, 'test-run', 3600)),
    );
    assert.equal(claims.filter(Boolean).length, 1);
    assert.equal(await claimMaintenanceRun(pools[1]!, 'test-run', 3600), false, 'not again this interval');
    await service.runtime.database.pool.query(
      `UPDATE maintenance_runs SET last_run_at = last_run_at - interval '1 hour' WHERE name = 'test-run'`,
    );
    const next = await Promise.all(pools.map((db) => claimMaintenanceRun(db, 'test-run', 3600)));
    assert.equal(next.filter(Boolean).length, 1, 'the next interval runs once more');

    // The sweep itself, asked for by two processes' runtimes at once.
    await service.runtime.database.pool.query('DELETE FROM maintenance_runs WHERE name = $1', [
      RETENTION_RUN,
    ]);
    const results = await Promise.all([retentionOf(service).sweepIfDue(), retentionOf(second).sweepIfDue()]);
    assert.equal(results.filter((r) => r !== undefined).length, 1);
  });
});
