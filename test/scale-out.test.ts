import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount, type CreatedAccount } from '../src/platform/accounts/accounts.ts';
import { openDatabase, type DatabaseHandle } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { spawnChildService, type SpawnedService } from './support/child-process.ts';
import { readStream, type StreamResult } from './support/hook-stream.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';
import { createTestDatabase } from './support/test-database.ts';
import { call, freePort, waitForJob, type TestResponse } from './support/test-service.ts';

// The scaled-out topology on one machine: two API-only processes (RUN_WORKER=0) and two worker processes,
// each with its own DATA_DIR as if on its own machine, sharing only one PostgreSQL and one S3 bucket (s3rver).
// Every job here is the test mode's: it sleeps (its "render"), then stores a small MP4.

const JOBS = 20;
const SLEEP_MS = 1500;
const LEASE_SECONDS = 3;

interface Api {
  url: string;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<TestResponse>;
}

let s3: S3TestServer;
let database: DatabaseHandle;
let account: CreatedAccount;
const dirs: string[] = [];
const processes: SpawnedService[] = [];
let apis: [Api, Api];
let workers: [SpawnedService, SpawnedService];

async function spawn(env: Record<string, string>): Promise<SpawnedService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scale-out-'));
  dirs.push(dataDir);
  const child = await spawnChildService({ ...env, DATA_DIR: dataDir }, 60_000);
  processes.push(child);
  return child;
}

async function spawnApi(env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  await spawn({ ...env, CHILD_HTTP: '1', RUN_WORKER: '0', PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  return { url, call: (method, path, options) => call(url, account.live_key, method, path, options) };
}

before(async () => {
  s3 = await startS3Server();
  const databaseUrl = await createTestDatabase();
  database = openDatabase(databaseUrl);
  await migrate(database.pool);
  // The operator account ('default') may also add footage to the shared library.
  account = await createAccount(database.db, 'default', 100_000);
  const env = {
    ...s3.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    QUEUE_MAINTENANCE_SECONDS: '1',
    JOB_RETRY_DELAY_SECONDS: '1',
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    WORKER_CONCURRENCY: '2',
    HEAVY_RENDERS_PER_ACCOUNT: String(JOBS),
    JOB_READS_PER_MINUTE: '1000000',
    METADATA_READS_PER_MINUTE: '1000000',
    LIBRARY_SEED: 'on_demand',
  };
  // The first process creates the queue's schema; the others then start side by side.
  const first = await spawnApi(env);
  const [second, workerA, workerB] = await Promise.all([spawnApi(env), spawn(env), spawn(env)]);
  apis = [first, second];
  workers = [workerA, workerB];
});

after(async () => {
  for (const child of processes.reverse()) await child.dispose();
  await database?.close();
  await s3?.dispose();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function submit(api: Api, index: number): Promise<{ jobId: string; websocketUrl: string }> {
  const response = await api.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `scale out ${index}`, outcome: 'sleep', sleep_ms: SLEEP_MS },
    headers: { 'idempotency-key': `scale-out-${index}` },
  });
  assert.equal(response.status, 202, response.text);
  return { jobId: response.body.data.job_id, websocketUrl: response.body.data.websocket_url };
}

/** The job's progress stream opened on `api`, whichever process answered the submission. */
function streamOn(api: Api, websocketUrl: string): Promise<StreamResult> {
  const url = new URL(websocketUrl);
  url.host = new URL(api.url).host;
  return readStream(url.toString(), 120_000);
}

async function runningJobs(): Promise<number> {
  const { rows } = await database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM jobs WHERE status = 'running'",
  );
  return Number(rows[0]!.n);
}

void describe('two API processes and two workers on one PostgreSQL and one S3 bucket', () => {
  void test('20 jobs complete exactly once with one charge each, through a worker killed with SIGKILL', async () => {
    const submitted: { jobId: string; websocketUrl: string }[] = [];
    for (let i = 0; i < JOBS; i++) submitted.push(await submit(apis[i % 2]!, i));
    // Streams opened on the other API than the one that accepted the job.
    const crossStreams = [
      streamOn(apis[1], submitted[0]!.websocketUrl),
      streamOn(apis[0], submitted[1]!.websocketUrl),
    ];

    // Each worker takes two jobs at a time: three running means both workers are mid-render.
    const deadline = Date.now() + 60_000;
    while ((await runningJobs()) < 3) {
      assert.ok(Date.now() < deadline, 'both workers never ran jobs at once');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    workers[0].process.kill('SIGKILL');
    assert.deepEqual(await workers[0].exited, { code: null, signal: 'SIGKILL' });

    const jobs: any[] = [];
    for (const [i, { jobId }] of submitted.entries())
      jobs.push(await waitForJob(apis[(i + 1) % 2]!, jobId, { timeoutMs: 180_000 }));
    for (const job of jobs) assert.equal(job.status, 'completed', JSON.stringify(job));
    const retaken = submitted.filter((_, i) => jobs[i].attempts > 1);
    assert.ok(retaken.length >= 1, 'the killed worker held jobs that another worker then ran');

    const { rows: charges } = await database.pool.query<{
      job_id: string;
      kind: string;
      amount_cents: number;
    }>('SELECT job_id, kind, amount_cents FROM ledger_entries WHERE job_id = ANY($1) ORDER BY id', [
      submitted.map((s) => s.jobId),
    ]);
    for (const { jobId } of submitted)
      assert.deepEqual(
        charges.filter((c) => c.job_id === jobId).map((c) => [c.kind, c.amount_cents]),
        [['charge', -60]],
        jobId,
      );
    const { rows: completions } = await database.pool.query<{ job_id: string; n: string }>(
      "SELECT job_id, count(*) AS n FROM job_events WHERE status = 'completed' AND job_id = ANY($1) GROUP BY job_id",
      [submitted.map((s) => s.jobId)],
    );
    assert.equal(completions.length, JOBS);
    assert.ok(completions.every((c) => Number(c.n) === 1));
    // Each job's files went into the bucket once: no attempt stored a second copy.
    for (const { jobId } of submitted) {
      const stored = s3.created.filter((c) => c.key.startsWith(`jobs/${jobId}/`));
      assert.equal(stored.length, 1, `${jobId}: ${JSON.stringify(stored)}`);
    }

    // Both APIs link every file, served from the bucket.
    for (const api of apis) {
      const job = (await api.call('GET', `/api/v1/jobs/${retaken[0]!.jobId}`)).body.data.job;
      const answer = await fetch(job.artifacts.videoUrl, { redirect: 'manual' });
      assert.equal(answer.status, 302);
      assert.ok(answer.headers.get('location')!.startsWith(`${s3.endpoint}/${s3.bucket}/jobs/`));
      const video = await fetch(answer.headers.get('location')!);
      assert.equal(video.status, 200);
      assert.equal(video.headers.get('content-type'), 'video/mp4');
      assert.ok((await video.arrayBuffer()).byteLength > 1000);
    }

    for (const [i, stream] of (await Promise.all(crossStreams)).entries()) {
      const stages = stream.messages.map((m) => m.stage);
      assert.ok(stages.includes('render'), `stream ${i} saw the worker's render stage: ${stages.join(', ')}`);
      const last = stream.messages.at(-1)!;
      assert.equal(last.status, 'completed');
      assert.equal(last.job_id, submitted[i]!.jobId);
    }
  });
});

void describe('footage uploaded through one API process', () => {
  void test('is confirmed on the other and stored in the bucket for every worker', async () => {
    const file = join(dirs[0]!, 'upload.mp4');
    const made = spawnSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=360x640:r=30:d=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      file,
    ]);
    assert.equal(made.status, 0, made.stderr.toString());
    const bytes = await readFile(file);
    const created = await apis[0].call('POST', '/api/stock-clips/presigned-url', {
      body: { title: 'Harbour at dawn', size_bytes: bytes.length, content_type: 'video/mp4' },
    });
    assert.equal(created.status, 201, created.text);
    const { clip, upload } = created.body.data;
    assert.ok(upload.url.startsWith(apis[0].url), upload.url);
    const put = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: bytes,
    });
    assert.equal(put.status, 200, await put.text());

    const confirmed = await apis[1].call('POST', '/api/stock-clips/confirm-upload', {
      body: { clip_id: clip.id },
      headers: { 'idempotency-key': `confirm-${clip.id}` },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.data.clip.status, 'ready');
    assert.equal(confirmed.body.data.clip.height, 640);
    assert.ok(
      s3.created.some((c) => c.key === `library/uploads/${clip.id}.mp4`),
      JSON.stringify(s3.created),
    );
    assert.ok(
      s3.created.some((c) => c.key === `library/staged/${clip.id}.upload`),
      'the received bytes reached the other API through the bucket',
    );
  });
});
