import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { productModes } from '../src/modes/index.ts';
import { loadConfig } from '../src/platform/config.ts';
import { S3MediaStore } from '../src/platform/storage/s3-media-store.ts';
import { dropHandoff, handOffWorkFolders, receiveWorkFolder } from '../src/platform/storage/work-handoff.ts';
import { startS3Server, type S3TestServer } from './support/s3-server.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';
import { jobLedger } from './support/job-ledger.ts';

// The S3 media store against a real S3-protocol server (s3rver, from npm) on loopback: multipart uploads,
// presigned links that expire, a render stored in and served from the bucket, and a bucket that goes away.

let s3: S3TestServer;
let dir: string;

before(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(join(tmpdir(), 's3-store-'));
});

after(async () => {
  await s3.dispose();
  await rm(dir, { recursive: true, force: true });
});

function newStore(cacheName: string): S3MediaStore {
  const settings = loadConfig({ ...s3.env, S3_PART_SIZE_MB: '5' }).s3!;
  return new S3MediaStore(settings, 'http://127.0.0.1:9', 'link-secret', join(dir, cacheName));
}

void describe('S3MediaStore', () => {
  void test('uploads a file above the part size in parts and reads it back byte for byte', async () => {
    const store = newStore('cache-multipart');
    const big = join(dir, 'big.bin');
    const bytes = randomBytes(12 * 1024 * 1024 + 123);
    await writeFile(big, bytes);
    await writeFile(join(dir, 'small.txt'), 'a small file\n');

    assert.deepEqual(await store.put('jobs/j1/video.mp4', big), { bytes: bytes.length });
    await store.put('jobs/j1/captions.srt', join(dir, 'small.txt'), { move: true });
    assert.ok(existsSync(big), 'put without move keeps the source');
    assert.ok(!existsSync(join(dir, 'small.txt')), 'put with move removes the source');
    // Post: CompleteMultipartUpload made the object; Put: a single PutObject.
    assert.deepEqual(
      s3.created.filter((c) => c.key.startsWith('jobs/j1/')),
      [
        { key: 'jobs/j1/video.mp4', how: 'Post' },
        { key: 'jobs/j1/captions.srt', how: 'Put' },
      ],
    );

    const local = (await store.fetchToLocal('jobs/j1/video.mp4'))!;
    assert.ok(local.startsWith(join(dir, 'cache-multipart')), local);
    assert.ok((await readFile(local)).equals(bytes));
    assert.equal(await store.fetchToLocal('jobs/j1/video.mp4'), local, 'read again from the local copy');
    assert.deepEqual((await store.list('jobs/j1')).sort(), ['jobs/j1/captions.srt', 'jobs/j1/video.mp4']);
    assert.equal(await store.exists('jobs/j1/video.mp4'), true);
    assert.equal(await store.fetchToLocal('jobs/j1/missing.mp4'), undefined);
    assert.equal(await store.fetchToLocal('../escape'), undefined);

    await store.remove('jobs/j1');
    assert.equal(await store.exists('jobs/j1/video.mp4'), false);
    assert.deepEqual(await store.list('jobs/j1'), []);
    assert.ok(!existsSync(local), 'removing drops the local copy too');
    store.close();
  });

  void test('keeps its local copies below the cache size, dropping the least recently read', async () => {
    const settings = { ...loadConfig(s3.env).s3!, cacheMaxBytes: 3 * 1024 * 1024 };
    const store = new S3MediaStore(settings, 'http://127.0.0.1:9', 'link-secret', join(dir, 'cache-small'));
    const file = join(dir, 'mb.bin');
    await writeFile(file, randomBytes(1024 * 1024));
    for (const i of [1, 2, 3, 4, 5]) await store.put(`lru/f${i}.bin`, file);
    for (const i of [1, 2, 3, 4, 5]) assert.ok(await store.fetchToLocal(`lru/f${i}.bin`));
    // Copies read within the last minutes are never evicted (a render may be about to open them).
    assert.equal((await readdir(join(dir, 'cache-small', 'lru'))).length, 5);
    const old = new Date(Date.now() - 3600_000);
    for (const i of [1, 2, 3, 4, 5]) await utimes(join(dir, 'cache-small', 'lru', `f${i}.bin`), old, old);
    await store.put('lru/f6.bin', file);
    assert.ok(await store.fetchToLocal('lru/f6.bin'));
    const left = (await readdir(join(dir, 'cache-small', 'lru'))).sort();
    assert.ok(left.includes('f6.bin'));
    assert.ok(left.length <= 3, `kept ${left.join(', ')}`);
    store.close();
  });

  void test('answers a link with a presigned GET that serves byte ranges and expires with the link', async () => {
    const store = newStore('cache-links');
    const file = join(dir, 'range.mp4');
    const bytes = randomBytes(64 * 1024);
    await writeFile(file, bytes);
    await store.put('jobs/j2/video.mp4', file);

    const link = store.sign('jobs/j2/video.mp4', 60);
    const url = new URL(link.url);
    assert.equal(url.pathname, '/media/jobs/j2/video.mp4');
    assert.ok(
      store.verify('jobs/j2/video.mp4', url.searchParams.get('expires')!, url.searchParams.get('sig')!),
    );

    const answer = await store.answer('jobs/j2/video.mp4', link.expiresAt);
    assert.ok(answer && 'redirect' in answer);
    assert.ok(answer.redirect.startsWith(`${s3.endpoint}/${s3.bucket}/jobs/j2/video.mp4?`), answer.redirect);
    const ranged = await fetch(answer.redirect, { headers: { range: 'bytes=100-199' } });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-type'), 'video/mp4');
    assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200)));

    // Signed ten seconds ago for a link that expired five seconds ago: S3 refuses it.
    const signedAt = new Date(Date.now() - 10_000);
    const stale = await store.answer('jobs/j2/video.mp4', new Date(signedAt.getTime() + 5_000), signedAt);
    assert.ok(stale && 'redirect' in stale);
    const refused = await fetch(stale.redirect);
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /AccessDenied[\s\S]*expired/);
    store.close();
  });
});

void describe('files a request staged on the API machine', () => {
  void test('reach the work folder of a worker on another machine through the bucket', async () => {
    const api = newStore('cache-api');
    const worker = newStore('cache-worker');
    const staged = join(dir, 'api-work', 'job_handoff');
    await mkdir(join(staged, 'assets'), { recursive: true });
    await writeFile(join(staged, 'brand-kit-logo.png'), 'logo bytes');
    await writeFile(join(staged, 'assets', 'clip-1.mp4'), 'clip bytes');
    await handOffWorkFolders(api, [{ jobId: 'job_handoff', workDir: staged }]);
    assert.ok(!existsSync(staged), 'the API machine keeps no copy');

    const workDir = join(dir, 'worker-work', 'job_handoff');
    await mkdir(workDir, { recursive: true });
    await writeFile(join(workDir, 'brand-kit-logo.png'), 'made by an earlier attempt');
    await receiveWorkFolder(worker, 'job_handoff', workDir);
    assert.equal(await readFile(join(workDir, 'assets', 'clip-1.mp4'), 'utf8'), 'clip bytes');
    assert.equal(await readFile(join(workDir, 'brand-kit-logo.png'), 'utf8'), 'made by an earlier attempt');

    await dropHandoff(worker, 'job_handoff');
    assert.deepEqual(await api.list('handoff/job_handoff'), []);
    api.close();
    worker.close();
  });
});

void describe('the service on an S3 store', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      modes: productModes,
      env: { ...s3.env, RENDER_PRESET: 'ultrafast' },
    });
  });
  after(async () => {
    await service.stop();
  });

  void test('stores a stock render in the bucket and serves it from there', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'why bees dance', duration_sec: 15 },
      headers: { 'idempotency-key': 's3-stock-render' },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const jobId = receipt.body.data.job_id as string;
    const job = await waitForJob(service, jobId, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));

    const link = await fetch(job.artifacts.videoUrl, { redirect: 'manual' });
    assert.equal(link.status, 302);
    const location = link.headers.get('location')!;
    assert.ok(location.startsWith(`${s3.endpoint}/${s3.bucket}/jobs/${jobId}/`), location);
    const video = await fetch(location);
    assert.equal(video.status, 200);
    const path = join(dir, 'stock-from-s3.mp4');
    await writeFile(path, Buffer.from(await video.arrayBuffer()));
    const info = await probeMedia(path);
    assert.equal(info.video?.codec, 'h264');
    assert.equal(info.video?.height, 1920);
    assert.ok(Math.abs(info.durationSec - 15) <= 1.5, `duration ${info.durationSec}`);

    // Nothing of it stayed on the service's disk; the clips it used are in the bucket for other machines.
    assert.ok(!existsSync(join(service.dataDir, 'media', 'jobs', jobId)));
    assert.ok(!existsSync(join(service.dataDir, 'work', jobId)));
    const { rows } = await service.runtime.database.pool.query<{ path: string }>(
      "SELECT path FROM stock_clips WHERE status = 'ready' AND source = 'generated'",
    );
    assert.ok(rows.length > 0);
    for (const row of rows) {
      const name = row.path.split('/').pop()!;
      assert.ok(await service.runtime.context.store.exists(`library/footage/${name}`), name);
    }
    const music = await service.runtime.context.store.list('library/music');
    assert.equal(music.length, 3, `a bed's intro, loop and outro: ${music.join(', ')}`);
  });
});

void describe('a store that goes down mid-job', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ env: { ...s3.env, JOB_RETRY_LIMIT: '1' } });
  });
  after(async () => {
    await s3.start();
    await service.stop();
  });

  void test('the job is retried, then fails with a refund, and links no file', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'store goes away', outcome: 'sleep', sleep_ms: 3000 },
      headers: { 'idempotency-key': 's3-store-down' },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const jobId = receipt.body.data.job_id as string;
    await waitForJob(service, jobId, { until: (job) => job.status === 'running' });
    await s3.stop();
    const job = await waitForJob(service, jobId, { timeoutMs: 60_000 });
    await s3.start();

    // Spent retries end a job dead_lettered (spec 1's final failure after automatic retries).
    assert.equal(job.status, 'dead_lettered', JSON.stringify(job));
    assert.equal(job.attempts, 2);
    assert.equal(job.error.retryable, true);
    assert.equal(job.artifacts?.videoUrl, undefined);
    assert.ok(
      job.progress.some((p: { stage: string }) => p.stage === 'retrying'),
      JSON.stringify(job.progress),
    );
    assert.deepEqual(await jobLedger(service, jobId), [
      { kind: 'charge', amount_cents: -60 },
      { kind: 'refund', amount_cents: 60 },
    ]);
    assert.deepEqual(await service.runtime.context.store.list(`jobs/${jobId}`), []);
  });
});
