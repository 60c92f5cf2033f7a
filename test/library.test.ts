import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { z } from 'zod';
import { libraryVideoSchema } from '../src/library/library-video.ts';
import { productModes } from '../src/modes/index.ts';
import type { ModeDefinition, OutputFile } from '../src/platform/modes/mode.ts';
import type { ModeFactoryDeps } from '../src/platform/runtime.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';
import { testMode, testModeSchema, type TestRequest } from './support/test-mode.ts';

// The account library (spec 2 §2.5, §4.4) on the real service: real jobs of fast fake modes standing in for
// Magic (a stock-mode video), clips and transcription, one real stock video from the real pipeline and its
// scene revisions, and the library read through HTTP as a caller sees it.

const LIBRARY = '/api/v1/b2b/library/videos';
const HEX24 = /^[0-9a-f]{24}$/;

const fakeSchema = testModeSchema.extend({
  customer_id: z.string().optional(),
  brand_id: z.string().optional(),
  content_purpose: z.string().optional(),
  brand: z.object({ name: z.string(), primary_color: z.string() }).partial().optional(),
});

function ffmpeg(args: string[]): void {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  assert.equal(result.status, 0, result.stderr.toString());
}

/** A clip job that delivers three clips, best first, each with its poster (as the clip mode stores them). */
function fakeClipMode(): ModeDefinition<TestRequest> {
  return testMode({
    name: 'clip',
    endpoint: 'clipper/vidsite',
    schema: fakeSchema,
    async run(ctx) {
      const files: OutputFile[] = [];
      const clips = [0, 1, 2].map((index) => {
        const video = join(ctx.workDir, `clip-${index}.mp4`);
        const poster = join(ctx.workDir, `clip-${index}.jpg`);
        ffmpeg([
          '-f',
          'lavfi',
          '-i',
          `color=c=red:s=64x112:r=30:d=${1 + index}`,
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          video,
        ]);
        ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=64x112', '-frames:v', '1', poster]);
        files.push(
          { role: 'clip', path: video, contentType: 'video/mp4', index },
          { role: 'clip_thumbnail', path: poster, contentType: 'image/jpeg', index },
        );
        return {
          index,
          title: `Clip ${index} of ${ctx.request.topic}`,
          description: `Moment ${index}`,
          durationSec: 1 + index,
        };
      });
      return {
        artifacts: { title: clips[0]!.title, description: 'Moment 0', durationSec: 1, clips },
        files,
      };
    },
  });
}

/** Real product modes, with Magic, clips and transcription replaced by fast fakes of the same names. */
function modes(deps: ModeFactoryDeps) {
  const fakes = [
    testMode({ name: 'magic', endpoint: 'videos/magic', schema: fakeSchema }),
    fakeClipMode(),
    testMode({ name: 'transcription', endpoint: 'transcribe', schema: fakeSchema }),
  ];
  const product = productModes(deps);
  const replaced = new Set(fakes.map((mode) => mode.name));
  return { ...product, modes: [...product.modes.filter((mode) => !replaced.has(mode.name)), ...fakes] };
}

let service: TestService;
let stockJobId: string;

const submit = (path: string, body: Record<string, unknown>, key?: string) =>
  service.call('POST', path, {
    body,
    headers: { 'idempotency-key': `lib-${Math.random()}` },
    ...(key !== undefined ? { key } : {}),
  });

async function magic(body: Record<string, unknown>): Promise<string> {
  const answer = await submit('/api/v1/videos/magic', body);
  assert.ok(answer.status < 300, answer.text);
  return answer.body.data.job_id as string;
}

async function list(query = '', key?: string) {
  const answer = await service.call('GET', `${LIBRARY}${query}`, key !== undefined ? { key } : {});
  assert.equal(answer.status, 200, answer.text);
  return answer.body.data as { items: any[]; next_cursor: string | null };
}

const itemOf = async (jobId: string, query = '') =>
  (await list(`?limit=100${query}`)).items.find((item) => item.job_id === jobId);

async function libraryIdOf(jobId: string): Promise<string> {
  const { rows } = await sql<{
    library_id: string;
  }>`SELECT library_id FROM jobs WHERE id = ${jobId}`.execute(service.runtime.database.db);
  return rows[0]!.library_id;
}

before(async () => {
  service = await startTestService({
    modes,
    env: { RENDER_PRESET: 'ultrafast', HEAVY_RENDERS_PER_ACCOUNT: '100', WORKER_CONCURRENCY: '3' },
  });
  // The real stock video renders while the other tests run; the last test reads it.
  const stock = await submit('/api/v1/generate-and-post', {
    topic: 'why bees dance to share where flowers are',
    duration_sec: 15,
    customer_id: 'real-stock',
    content_purpose: 'education',
  });
  assert.equal(stock.status, 202, stock.text);
  stockJobId = stock.body.data.job_id;
});

after(async () => {
  await service.stop();
});

void describe('library videos follow their jobs', () => {
  void test('processing, then completed with metadata and private signed links that expire', async () => {
    const jobId = await magic({
      topic: 'tidal energy',
      sleep_ms: 2500,
      customer_id: 'cust-follow',
      brand_id: 'acme-kit',
      content_purpose: 'education',
      brand: { name: 'Acme Tides', primary_color: '#112233' },
      delivery: { visibility: 'private' },
    });
    const early = await itemOf(jobId);
    assert.ok(early, 'a queued job is already in the library');
    assert.match(early.video_id, HEX24);
    assert.equal(early.status, 'processing');
    assert.equal(early.mode, 'stock');
    assert.equal(early.operation, 'magic');
    assert.equal(early.metadata.title, 'tidal energy');
    assert.deepEqual(early.media_access, {
      status: 'unavailable',
      reason: 'VIDEO_PROCESSING',
      video_cdn_url: null,
      poster_cdn_url: null,
    });

    const job = await waitForJob(service, jobId);
    assert.equal(job.status, 'completed');
    const before = Date.now();
    const done = await itemOf(jobId);
    libraryVideoSchema.parse(done);
    assert.equal(done.video_id, early.video_id, 'the id does not change when the job ends');
    assert.equal(done.account_id, service.account.account_id);
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.metadata, {
      title: 'About tidal energy',
      description: 'A test video. #test',
      duration_seconds: 0.5,
      external_id: null,
      customer: { customer_id: 'cust-follow', website_url: null },
      brand: { brand_id: 'acme-kit', name: 'Acme Tides', primary_color: '#112233' },
      content_purpose: 'education',
    });
    const access = done.media_access;
    assert.equal(access.status, 'available');
    assert.equal(access.private, true);
    assert.deepEqual(access.video_urls, [access.video_url]);
    assert.equal(access.poster_url, null);
    const expiresIn = Date.parse(access.expires_at) - before;
    assert.ok(Math.abs(expiresIn - 86_400_000) < 5000, `links expire in 24 h, not ${expiresIn} ms`);
    assert.match(access.video_url, /[?&]expires=\d+&sig=[0-9a-f]{64}$/);
    const file = await fetch(access.video_url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'video/mp4');
    assert.ok((await file.arrayBuffer()).byteLength > 100);
    assert.ok(Date.parse(done.updated_at) >= Date.parse(done.created_at));
  });

  void test('the single read shows the same video with no media links', async () => {
    const jobId = await magic({ topic: 'coral reefs at night', customer_id: 'cust-read' });
    await waitForJob(service, jobId);
    const listed = await itemOf(jobId);
    const read = await service.call('GET', `${LIBRARY}/${listed.video_id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.success, true);
    assert.equal(read.body.meta.key_mode, 'live');
    libraryVideoSchema.parse(read.body.data);
    assert.deepEqual(read.body.data, {
      ...listed,
      media_access: {
        status: 'unavailable',
        reason: 'PRIVATE_DELIVERY_NOT_INTEGRATED',
        video_cdn_url: null,
        poster_cdn_url: null,
      },
    });
    assert.doesNotMatch(read.text, /\/media\/|https?:\/\//, 'no link of any kind');
    // Upper-case hex names the same video.
    const upper = await service.call('GET', `${LIBRARY}/${listed.video_id.toUpperCase()}`);
    assert.equal(upper.body.data.video_id, listed.video_id);
  });

  void test('a failed or cancelled job is a failed video without links', async () => {
    const failedId = await magic({ topic: 'failing render', outcome: 'fail' });
    const cancelledId = await magic({ topic: 'cancelled render', sleep_ms: 20_000 });
    await waitForJob(service, failedId);
    await waitForJob(service, cancelledId, { until: (job) => job.status === 'running' });
    const cancel = await service.call('POST', `/api/v1/jobs/${cancelledId}/cancel`);
    assert.equal(cancel.status, 200, cancel.text);
    for (const jobId of [failedId, cancelledId]) {
      const item = await itemOf(jobId);
      assert.equal(item.status, 'failed');
      assert.deepEqual(item.media_access, {
        status: 'unavailable',
        reason: 'VIDEO_FAILED',
        video_cdn_url: null,
        poster_cdn_url: null,
      });
      const read = await service.call('GET', `${LIBRARY}/${item.video_id}`);
      assert.equal(read.body.data.status, 'failed');
    }
  });

  void test('the id is the moment the job was written: time-ordered, ending in 00', async () => {
    const jobId = await magic({ topic: 'time ordered ids' });
    const item = await itemOf(jobId);
    const seconds = parseInt(item.video_id.slice(0, 8), 16);
    assert.ok(Math.abs(seconds - Date.parse(item.created_at) / 1000) < 2, `${seconds} vs ${item.created_at}`);
    assert.ok(item.video_id.endsWith('00'));
    assert.equal(await libraryIdOf(jobId), item.video_id);
  });
});

void describe('clips and modes', () => {
  void test('each delivered clip is a library video of its own; clip 0 keeps the job’s id', async () => {
    const answer = await submit('/api/v1/clipper/vidsite', {
      topic: 'a long interview',
      sleep_ms: 1500,
      customer_id: 'cust-clips',
    });
    assert.ok(answer.status < 300, answer.text);
    const jobId = answer.body.data.job_id;
    const whileRunning = (await list('?customer_id=cust-clips')).items;
    assert.equal(whileRunning.length, 1, 'one processing video until the clips exist');
    assert.equal(whileRunning[0].status, 'processing');
    assert.equal(whileRunning[0].mode, 'clipping');
    assert.equal(whileRunning[0].clip_index, 0);
    const jobVideoId = whileRunning[0].video_id;

    await waitForJob(service, jobId);
    const clips = (await list('?customer_id=cust-clips')).items;
    assert.deepEqual(
      clips.map((c) => c.video_id),
      ['02', '01', '00'].map((n) => jobVideoId.slice(0, 22) + n),
    );
    const links = new Set<string>();
    for (const clip of clips) {
      libraryVideoSchema.parse(clip);
      assert.equal(clip.job_id, jobId);
      assert.equal(clip.mode, 'clipping');
      assert.equal(clip.operation, 'clip');
      assert.equal(clip.status, 'completed');
      assert.equal(clip.metadata.title, `Clip ${clip.clip_index} of a long interview`);
      assert.equal(clip.metadata.description, `Moment ${clip.clip_index}`);
      assert.equal(clip.metadata.duration_seconds, 1 + clip.clip_index);
      assert.equal(clip.media_access.video_urls.length, 1);
      assert.ok(clip.media_access.poster_url);
      links.add(clip.media_access.video_url.split('?')[0]);
      const read = await service.call('GET', `${LIBRARY}/${clip.video_id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.data.clip_index, clip.clip_index);
    }
    assert.equal(links.size, 3, 'each clip links its own file');
    const video = await fetch(clips[0].media_access.video_url);
    assert.equal(video.status, 200);
    const beyond = await service.call('GET', `${LIBRARY}/${jobVideoId.slice(0, 22)}03`);
    assert.equal(beyond.status, 404);
  });

  void test('jobs that make no video (transcription) are not in the library', async () => {
    const answer = await submit('/api/v1/transcribe', { topic: 'not a video', customer_id: 'cust-none' });
    assert.ok(answer.status < 300, answer.text);
    await waitForJob(service, answer.body.data.job_id);
    assert.deepEqual((await list('?customer_id=cust-none')).items, []);
    const read = await service.call('GET', `${LIBRARY}/${await libraryIdOf(answer.body.data.job_id)}`);
    assert.equal(read.status, 404);
  });

  void test('a sandbox key reads its placeholder videos; a live key never sees them', async () => {
    const sandboxKey = service.account.sandbox_key;
    const answer = await submit('/api/v1/videos/magic', { topic: 'sandbox video' }, sandboxKey);
    assert.ok(answer.status < 300, answer.text);
    const jobId = answer.body.data.job_id;
    const sandboxItems = (await list('?limit=100', sandboxKey)).items;
    const item = sandboxItems.find((i) => i.job_id === jobId);
    assert.equal(item.status, 'completed');
    assert.equal(item.media_access.status, 'available');
    assert.ok(sandboxItems.every((i) => i.job_id.startsWith('sandbox_job_')));
    assert.equal(await itemOf(jobId), undefined);
    const live = await service.call('GET', `${LIBRARY}/${item.video_id}`);
    assert.equal(live.status, 404);
  });
});

void describe('paging and filters', () => {
  void test('keyset pages stay stable while new videos are made between page reads', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await magic({ topic: `paged video ${i}`, customer_id: 'pager' }));
    const all = (await list('?customer_id=pager')).items;
    assert.deepEqual(new Set(all.map((i) => i.job_id)), new Set(made));
    const ids = all.map((i) => i.video_id);
    assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first: ids descending');
    assert.deepEqual(
      all.map((i) => i.job_id),
      [...made].reverse(),
      'made one after another, listed newest first',
    );

    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: any[]; next_cursor: string | null } = await list(
        `?customer_id=pager&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.ok(page.items.length <= 2);
      seen.push(...page.items);
      cursor = page.next_cursor;
      if (cursor) assert.equal(cursor, page.items[page.items.length - 1].video_id);
      // New videos arrive between the reads.
      if (pages++ < 2) await magic({ topic: `inserted while paging ${pages}`, customer_id: 'pager' });
    } while (cursor);
    assert.deepEqual(
      seen.map((i) => i.video_id),
      ids,
      'every video once, in order, none of the new ones shifting a page',
    );
    const fresh = (await list('?customer_id=pager&limit=2')).items;
    assert.match(fresh[0].metadata.title, /inserted while paging/);
    assert.ok(fresh[0].video_id > ids[0]);
  });

  void test('customer_id and brand_id narrow the list', async () => {
    const a = await magic({ topic: 'filter a', customer_id: 'filter-cust', brand_id: 'kit-one' });
    const b = await magic({ topic: 'filter b', customer_id: 'filter-cust', brand_id: 'kit-two' });
    const c = await magic({ topic: 'filter c', customer_id: 'other-cust', brand_id: 'kit-one' });
    const jobs = (query: string) => list(query).then((page) => page.items.map((i) => i.job_id).sort());
    assert.deepEqual(await jobs('?customer_id=filter-cust'), [a, b].sort());
    assert.deepEqual(await jobs('?brand_id=kit-one&limit=100'), [a, c].sort());
    assert.deepEqual(await jobs('?customer_id=filter-cust&brand_id=kit-two'), [b]);
    assert.deepEqual(await jobs('?customer_id=nobody-here'), []);
  });

  void test('the list query is validated, naming each field', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=2.5', 'limit'],
      ['?cursor=abc', 'cursor'],
      ['?cursor=zzzzzzzzzzzzzzzzzzzzzzzz', 'cursor'],
      ['?customer_id=has%20space', 'customer_id'],
      ['?brand_id=-leading-dash', 'brand_id'],
      ['?page=2', 'page'],
    ];
    for (const [query, field] of cases) {
      const answer = await service.call('GET', `${LIBRARY}${query}`);
      assert.equal(answer.status, 400, `${query}: ${answer.text}`);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.error.code, 'INPUT_INVALID');
      assert.deepEqual(
        answer.body.error.details.fields.map((f: { field: string }) => f.field),
        [field],
        query,
      );
      assert.ok(answer.body.meta.request_id);
    }
    const limits = await list('?limit=100');
    assert.ok(limits.items.length <= 100);
    const one = await list('?limit=1');
    assert.equal(one.items.length, 1);
    assert.match(one.next_cursor ?? '', HEX24);
  });
});

void describe('ownership and errors', () => {
  void test('another account’s video and a missing one are the same 404; a malformed id is a 400', async () => {
    const jobId = await magic({ topic: 'mine alone' });
    const mine = await itemOf(jobId);
    const other = await service.newAccount();
    const theirs = await service.call('GET', `${LIBRARY}/${mine.video_id}`, { key: other.live_key });
    const missing = await service.call('GET', `${LIBRARY}/${'0'.repeat(22)}00`);
    for (const answer of [theirs, missing]) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.error.code, 'VIDEO_NOT_FOUND');
      assert.equal(answer.body.error.retryable, false);
      assert.match(answer.body.meta.request_id, /\S/);
    }
    assert.equal(theirs.body.error.message, `No video ${mine.video_id} in this account.`);
    assert.deepEqual((await list('', other.live_key)).items, []);

    for (const bad of ['vid_123', 'abc', `${'a'.repeat(23)}g`]) {
      const answer = await service.call('GET', `${LIBRARY}/${bad}`);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.code, 'INPUT_INVALID');
      assert.equal(answer.body.error.details.fields[0].field, 'video_id');
    }
    const unauthenticated = await service.call('GET', LIBRARY, { key: null });
    assert.equal(unauthenticated.status, 401);
  });
});

void describe('a real stock video', () => {
  void test('a 15 s stock video from the real pipeline is a completed stock library video', async () => {
    const job = await waitForJob(service, stockJobId, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const item = await itemOf(stockJobId, '&customer_id=real-stock');
    libraryVideoSchema.parse(item);
    assert.equal(item.mode, 'stock');
    assert.equal(item.operation, 'stock');
    assert.equal(item.metadata.title, job.artifacts.title);
    assert.equal(item.metadata.description, job.artifacts.description);
    assert.ok(Math.abs(item.metadata.duration_seconds - 15) <= 1.5, `${item.metadata.duration_seconds}`);
    assert.equal(item.metadata.content_purpose, 'education');
    assert.deepEqual(item.metadata.customer, { customer_id: 'real-stock', website_url: null });
    const poster = await fetch(item.media_access.poster_url);
    assert.equal(poster.headers.get('content-type'), 'image/jpeg');
    const video = await fetch(item.media_access.video_url);
    assert.equal(video.status, 200);
    assert.ok((await video.arrayBuffer()).byteLength > 100_000);
  });

  void test('a revision of it is a stock video of its own, about what its source was about', async () => {
    const source = await itemOf(stockJobId, '&customer_id=real-stock');
    // A music-only revision: the audio is remixed, no scene is drawn again.
    const revise = (jobId: string) =>
      service.call('POST', `/api/v1/jobs/${jobId}/revise`, {
        body: { music: { volume: 0.1 } },
        headers: { 'idempotency-key': `lib-revise-${jobId}` },
      });
    const first = await revise(stockJobId);
    assert.equal(first.status, 202, first.text);
    const revisionId: string = first.body.data.job_id;
    const processing = await itemOf(revisionId, '&customer_id=real-stock');
    assert.ok(processing, 'the revision is listed under its source’s customer while it renders');
    assert.equal(processing.mode, 'stock');
    assert.equal(processing.operation, 'revision');

    assert.equal((await waitForJob(service, revisionId, { timeoutMs: 120_000 })).status, 'completed');
    // A revision of the revision still reads the metadata of the first video.
    const second = await revise(revisionId);
    assert.equal(second.status, 202, second.text);
    const again = await waitForJob(service, second.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(again.status, 'completed', JSON.stringify(again.error));

    const items = (await list('?customer_id=real-stock&limit=100')).items;
    assert.deepEqual(
      items.map((i) => i.job_id),
      [second.body.data.job_id, revisionId, stockJobId],
    );
    for (const revision of items.slice(0, 2)) {
      libraryVideoSchema.parse(revision);
      assert.equal(revision.mode, 'stock');
      assert.equal(revision.operation, 'revision');
      assert.equal(revision.status, 'completed');
      assert.notEqual(revision.video_id, source.video_id);
      assert.equal(revision.metadata.title, source.metadata.title);
      assert.deepEqual(revision.metadata.customer, source.metadata.customer);
      assert.equal(revision.metadata.content_purpose, 'education');
      assert.equal(revision.media_access.status, 'available');
      assert.notEqual(revision.media_access.video_url, source.media_access.video_url);
      const read = await service.call('GET', `${LIBRARY}/${revision.video_id}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.metadata.content_purpose, 'education');
    }
  });
});
