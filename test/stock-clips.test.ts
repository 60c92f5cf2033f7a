import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { NICHES } from '../src/media/footage/niches.ts';
import { StockLibrary } from '../src/media/library/stock-library.ts';
import { productModes } from '../src/modes/index.ts';
import { createAccount } from '../src/platform/accounts/accounts.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createPexelsClient } from '../src/providers/pexels.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The /api/stock-clips routes of document 2 §4.9 on the real service: operators upload, import and tag
// footage; ffprobe decides what becomes ready; a ready clip is chosen by a real stock render.

let service: TestService;
let files: http.Server;
let filesBase: string;
let dir: string;
let clip: Buffer;
let otherClip: Buffer;
const seenByPexels: { query: string | null; authorization: string | undefined }[] = [];

function ffmpeg(args: string[]): void {
  const run = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
  assert.equal(run.status, 0, run.stderr.toString());
}

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  await sql`INSERT INTO stock_clip_operators (account_id) VALUES (${service.account.account_id})`.execute(
    service.runtime.database.db,
  );
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-stock-clips-'));
  const encode = [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ];
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=360x640:r=30:d=4', ...encode, join(dir, 'clip.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'mandelbrot=s=640x360:r=25', '-t', '3', ...encode, join(dir, 'other.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=d=2', '-c:a', 'aac', join(dir, 'tone.m4a')]);
  await writeFile(join(dir, 'notes.mp4'), 'plain text, not a video');
  clip = await readFile(join(dir, 'clip.mp4'));
  otherClip = await readFile(join(dir, 'other.mp4'));

  // Serves the test media, and speaks Pexels' video search protocol under /pexels.
  files = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/pexels/videos/search') {
      seenByPexels.push({ query: url.searchParams.get('query'), authorization: req.headers.authorization });
      if (req.headers.authorization !== 'fake-pexels-key')
        return res.writeHead(401).end('{"error":"Unauthorized"}');
      const link = `${filesBase}/other.mp4`;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          page: 1,
          per_page: 6,
          total_results: 1,
          videos: [
            {
              id: 8080,
              url: 'https://www.pexels.com/video/city-traffic-at-night-8080/',
              width: 1080,
              height: 1920,
              duration: 3,
              user: { name: 'Test Author', url: 'https://www.pexels.com/@test' },
              video_files: [
                { id: 1, quality: 'sd', file_type: 'video/mp4', width: 640, height: 360, fps: 25, link },
                { id: 2, quality: 'hd', file_type: 'video/mp4', width: 360, height: 640, fps: 25, link },
              ],
            },
          ],
        }),
      );
    }
    const path = join(dir, url.pathname.slice(1));
    if (!existsSync(path)) return res.writeHead(404).end();
    void readFile(path).then((bytes) => res.writeHead(200).end(bytes));
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

after(async () => {
  // Uploaded files live in the library folder shared by the test run: leave none behind.
  const left = await service.call('GET', '/api/stock-clips?limit=100');
  for (const c of left.body.data.clips.filter((c: { source: string }) => c.source !== 'generated')) {
    await service.call('DELETE', `/api/stock-clips/${c.id}`);
  }
  await service.stop();
  await new Promise((resolve) => files.close(resolve));
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}, key?: string) =>
  service.call('POST', `/api/stock-clips${path}`, { body, headers, ...(key !== undefined ? { key } : {}) });

async function raw(method: string, url: string, body: Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(url.startsWith('http') ? url : `${service.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${service.account.live_key}`, 'content-type': 'video/mp4', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

void describe('stock clips: who may do what', () => {
  void test('any key reads; writing needs a live key of "default" or of a listed operator', async () => {
    const stranger = await service.newAccount();
    const list = await service.call('GET', '/api/stock-clips', { key: stranger.live_key });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.success, true);
    assert.ok(Array.isArray(list.body.data.clips));
    for (const key of [stranger.live_key, service.account.sandbox_key]) {
      const refused = await post('/presigned-url', { title: 'Harbour at dawn' }, {}, key);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.error.code, 'STOCK_LIBRARY_OPERATOR_REQUIRED');
    }
    const anonymous = await service.call('GET', '/api/stock-clips', { key: null });
    assert.equal(anonymous.status, 401);
    const strangerUpload = await raw('POST', '/api/stock-clips/direct-upload?title=x', clip, {
      authorization: `Bearer ${stranger.live_key}`,
    });
    assert.equal(strangerUpload.status, 403, strangerUpload.text);
    assert.equal(
      (await raw('POST', '/api/stock-clips/direct-upload?title=x', clip, { authorization: '' })).status,
      401,
    );
    const first = await createAccount(service.runtime.database.db, 'default', 0);
    const allowed = await post('/presigned-url', { title: 'Harbour at dawn' }, {}, first.live_key);
    assert.equal(allowed.status, 201, allowed.text);
    assert.equal((await service.call('DELETE', `/api/stock-clips/${allowed.body.data.clip.id}`)).status, 200);
  });
});

void describe('stock clips: uploads', () => {
  void test('presigned URL → PUT → confirm: ffprobe makes the clip ready with its size and length', async () => {
    const created = await post('/presigned-url', {
      title: 'Fishing boats in a harbour',
      tags: ['#Harbour', ' BOATS ', 'harbour'],
      niches: ['travel/beaches'],
      size_bytes: clip.length,
      content_type: 'video/mp4',
    });
    assert.equal(created.status, 201, created.text);
    const { clip: pending, upload, confirm } = created.body.data;
    assert.equal(pending.status, 'pending');
    assert.deepEqual(pending.tags, ['harbour', 'boats']);
    assert.deepEqual(pending.niches, ['travel/beaches']);
    assert.equal(upload.method, 'PUT');
    assert.equal(upload.max_bytes, clip.length);
    assert.ok(Date.parse(upload.expires_at) > Date.now() + 50 * 60_000);
    assert.deepEqual(confirm.body, { clip_id: pending.id });

    const early = await post('/confirm-upload', { clip_id: pending.id });
    assert.equal(early.status, 409, early.text);
    assert.equal(early.body.error.code, 'STOCK_CLIP_NO_MEDIA');

    const tooBig = await raw('PUT', upload.url, Buffer.concat([clip, Buffer.alloc(10)]), {
      authorization: '',
    });
    assert.equal(tooBig.status, 413, tooBig.text);
    const forged = await raw(
      'PUT',
      upload.url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')),
      clip,
    );
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error.code, 'UPLOAD_URL_INVALID');
    // Without Content-Length the limit is enforced while streaming; the answer still arrives.
    const chunks = Array.from({ length: 8 }, () => clip);
    const streamed = await fetch(upload.url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    });
    assert.equal(streamed.status, 413);
    assert.equal(((await streamed.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
    const form = await raw('PUT', upload.url, clip, { 'content-type': 'multipart/form-data; boundary=x' });
    assert.equal(form.status, 415, form.text);

    const put = await raw('PUT', upload.url, clip, { authorization: '' });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.bytes, clip.length);
    const waiting = await service.call('GET', '/api/stock-clips/pending');
    const listed = waiting.body.data.clips.find((c: { id: string }) => c.id === pending.id);
    assert.equal(listed.has_staged_upload, true);
    assert.equal(listed.next_step.action, 'confirm');

    const key = `confirm-${pending.id}`;
    const confirmed = await post('/confirm-upload', { clip_id: pending.id }, { 'idempotency-key': key });
    assert.equal(confirmed.status, 200, confirmed.text);
    const ready = confirmed.body.data.clip;
    assert.equal(ready.status, 'ready');
    assert.equal(ready.width, 360);
    assert.equal(ready.height, 640);
    assert.equal(ready.orientation, 'portrait');
    assert.ok(Math.abs(ready.duration_sec - 4) < 0.1, String(ready.duration_sec));
    assert.equal(ready.size_bytes, clip.length);
    assert.equal('path' in ready, false);
    const stored = await service.runtime.database.db
      .selectFrom('stock_clips')
      .select('path')
      .where('id', '=', pending.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.path, join(service.runtime.config.libraryDir, 'uploads', `${pending.id}.mp4`));
    assert.ok((await readFile(stored.path)).equals(clip));

    const replay = await post('/confirm-upload', { clip_id: pending.id }, { 'idempotency-key': key });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    assert.deepEqual(replay.body.data, confirmed.body.data);
    const reused = await post('/confirm-upload', { clip_id: 'clip_other' }, { 'idempotency-key': key });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.error.code, 'RESOURCE_ALREADY_EXISTS');
  });

  void test('direct upload: one call, metadata in the query, replayed by its Idempotency-Key', async () => {
    const path =
      '/api/stock-clips/direct-upload?filename=city_lights-01.mp4&tags=neon,Night&niches=urban/nightlife';
    const key = `direct-${Date.now()}`;
    const first = await raw('POST', path, otherClip, { 'idempotency-key': key });
    assert.equal(first.status, 201, first.text);
    const made = first.body.data.clip;
    assert.equal(made.title, 'city lights 01');
    assert.deepEqual(made.tags, ['neon', 'night']);
    assert.deepEqual(made.niches, ['urban/nightlife']);
    assert.equal(made.status, 'ready');
    assert.equal(made.orientation, 'landscape');
    const again = await raw('POST', path, otherClip, { 'idempotency-key': key });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.equal(again.body.data.clip.id, made.id);
    const changed = await raw('POST', path, clip, { 'idempotency-key': key });
    assert.equal(changed.status, 409);
    const staging = join(service.runtime.config.libraryDir, 'uploads', 'staging');
    const { readdir } = await import('node:fs/promises');
    assert.deepEqual(
      (await readdir(staging)).filter((f) => f.startsWith('incoming-')),
      [],
    );
  });

  void test('files that are not video are refused with a clear 400 and add nothing', async () => {
    const before = (await service.call('GET', '/api/stock-clips/stats')).body.data.total;
    for (const name of ['notes.mp4', 'tone.m4a']) {
      const refused = await raw(
        'POST',
        '/api/stock-clips/direct-upload?title=Not%20footage',
        await readFile(join(dir, name)),
      );
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.error.code, 'INPUT_INVALID_MEDIA');
      assert.match(refused.body.error.message, name === 'tone.m4a' ? /no video stream/ : /not a media file/);
    }
    assert.equal((await service.call('GET', '/api/stock-clips/stats')).body.data.total, before);

    const staged = await post('/presigned-url', { filename: 'broken.mp4' });
    assert.equal(
      (await raw('PUT', staged.body.data.upload.url, await readFile(join(dir, 'notes.mp4')))).status,
      200,
    );
    const confirm = await post('/confirm-upload', { clip_id: staged.body.data.clip.id });
    assert.equal(confirm.status, 400, confirm.text);
    assert.equal(confirm.body.error.code, 'INPUT_INVALID_MEDIA');
    const after = await service.call('GET', `/api/stock-clips/${staged.body.data.clip.id}`);
    assert.equal(after.body.data.clip.status, 'pending');
    assert.match(after.body.data.clip.last_error, /not a media file/);
    assert.equal(after.body.data.clip.has_staged_upload, false);
  });

  void test('bodies are validated field by field; unknown niches list the valid ones', async () => {
    const badNiche = await post('/presigned-url', { title: 'x', niches: ['travel', 'finance/moon'] });
    assert.equal(badNiche.status, 400);
    const issue = badNiche.body.error.details.fields[0];
    assert.equal(issue.field, 'niches[1]');
    assert.deepEqual(issue.valid_values, [...NICHES]);
    const cases: [string, unknown, string][] = [
      ['/presigned-url', { title: 'x', colour: 'red' }, 'colour'],
      ['/presigned-url', { tags: ['a'] }, 'title'],
      ['/presigned-url', { title: 'x', size_bytes: 600 * 1024 * 1024 }, 'size_bytes'],
      ['/presigned-url', { title: 'x', tags: ['y'.repeat(41)] }, 'tags'],
      ['/extlib/import', { clips: [] }, 'clips'],
      [
        '/extlib/import',
        { clips: [{ external_id: 1, title: 'x', url: 'ftp://files.example.com/a.mp4' }] },
        'clips[0].url',
      ],
      ['/extlib/single', { external_id: 'a', title: 'x', url: 'https://10.1.2.3/a.mp4' }, 'url'],
      ['/confirm-upload', {}, 'clip_id'],
    ];
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      assert.equal(response.status, 400, `${path} ${JSON.stringify(body)} → ${response.text}`);
      assert.ok(
        response.body.error.details.fields.some((f: { field: string }) => f.field === field),
        response.text,
      );
    }
    const space = await post('/presigned-url', { title: 'Night sky', niches: 'space, nature' });
    assert.deepEqual(space.body.data.clip.niches, ['Space', 'nature']);
  });
});

void describe('stock clips: external libraries and metadata', () => {
  void test('import creates pending records; confirm downloads a url; bytes attach later; re-import updates', async () => {
    const records = [
      {
        external_id: 'sb-1',
        title: 'Mountain summit at sunrise',
        tags: 'hiking, peak',
        url: `${filesBase}/other.mp4`,
        duration_sec: 3,
      },
      { external_id: 2, title: 'Lathe turning a bowl', tags: ['woodworking'], attribution: 'Jo Maker' },
    ];
    const imported = await post('/extlib/import', { library: 'Storyblocks', clips: records });
    assert.equal(imported.status, 200, imported.text);
    const data = imported.body.data;
    assert.equal(data.library, 'storyblocks');
    assert.equal(data.created, 2);
    const [summit, lathe] = data.clips;
    assert.equal(summit.clip.status, 'pending');
    assert.equal(summit.clip.source, 'imported');
    assert.deepEqual(summit.clip.tags, ['hiking', 'peak']);
    assert.equal(summit.niche_source, 'inferred');
    assert.ok(
      summit.clip.niches.length === 1 && summit.clip.niches[0].startsWith('nature'),
      JSON.stringify(summit.clip.niches),
    );
    assert.equal(lathe.clip.external_id, '2');
    assert.deepEqual(lathe.clip.niches, ['wood_works']);

    const pending = (await service.call('GET', '/api/stock-clips/pending?source=imported')).body.data.clips;
    assert.equal(pending.find((c: { id: string }) => c.id === lathe.clip.id).next_step.action, 'upload');

    const confirmed = await post('/confirm-upload', { clip_id: summit.clip.id });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.data.clip.status, 'ready');
    assert.equal(confirmed.body.data.clip.width, 640);

    const attached = await raw('POST', `/api/stock-clips/${lathe.clip.id}/upload`, clip);
    assert.equal(attached.status, 200, attached.text);
    assert.equal(attached.body.data.clip.status, 'ready');
    assert.equal(attached.body.data.clip.attribution, 'Jo Maker');

    const again = await post('/extlib/import', {
      library: 'storyblocks',
      clips: [{ ...records[1], title: 'Lathe turning an oak bowl' }],
    });
    assert.equal(again.body.data.created, 0);
    assert.equal(again.body.data.clips[0].clip.id, lathe.clip.id);
    assert.equal(again.body.data.clips[0].clip.title, 'Lathe turning an oak bowl');
    assert.equal(again.body.data.clips[0].clip.status, 'ready');

    const single = await post('/extlib/single', {
      external_id: 'x-9',
      title: 'Dead link',
      url: `${filesBase}/missing.mp4`,
    });
    assert.equal(single.status, 201, single.text);
    const failed = await post('/confirm-upload', { clip_id: single.body.data.clip.id });
    assert.equal(failed.status, 400);
    assert.equal(failed.body.error.code, 'INPUT_FETCH_FAILED');
    assert.match(failed.body.error.message, /404/);
  });

  void test('map-metadata previews niches and tags and saves nothing', async () => {
    const before = (await service.call('GET', '/api/stock-clips/stats')).body.data.total;
    const one = await post('/map-metadata', { title: 'Bitcoin price chart', tags: ['#Crypto', 'Trading'] });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body.data.mapping.tags, ['crypto', 'trading']);
    assert.equal(one.body.data.mapping.niche_source, 'inferred');
    assert.ok(one.body.data.mapping.niches[0].startsWith('finance/'));
    const stranger = await service.newAccount();
    const batch = await post(
      '/map-metadata',
      {
        clips: [
          { title: 'Yoga on a mat', niches: ['health/yoga'] },
          { title: 'x', niches: ['nope'] },
          { title: 'Grey wall' },
        ],
      },
      {},
      stranger.live_key,
    );
    assert.equal(batch.status, 200, batch.text);
    const [given, invalid, none] = batch.body.data.mappings;
    assert.deepEqual(given.mapping.niches, ['health/yoga']);
    assert.equal(given.mapping.niche_source, 'given');
    assert.equal(invalid.valid, false);
    assert.equal(invalid.issues[0].field, 'clips[1].niches[0]');
    assert.deepEqual(none.mapping.niches, []);
    assert.equal((await service.call('GET', '/api/stock-clips/stats')).body.data.total, before);
  });
});

void describe('stock clips: browsing and editing', () => {
  void test('list and search by q, niche, tag, source and status, page by page', async () => {
    const all = await service.call('GET', '/api/stock-clips?source=uploaded&limit=100');
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.data.clips.length >= 2);
    assert.ok(all.body.data.clips.every((c: { source: string }) => c.source === 'uploaded'));
    const q = await service.call('GET', '/api/stock-clips?q=harbour%20boats');
    assert.deepEqual(
      q.body.data.clips.map((c: { title: string }) => c.title),
      ['Fishing boats in a harbour'],
    );
    const niche = await service.call('GET', '/api/stock-clips?niche=Urban/Nightlife&status=ready');
    assert.deepEqual(
      niche.body.data.clips.map((c: { title: string }) => c.title),
      ['city lights 01'],
    );
    const tag = await service.call('GET', '/api/stock-clips?tag=%23Woodworking');
    assert.equal(tag.body.data.clips.length, 1);
    const literal = await service.call('GET', '/api/stock-clips?q=%25');
    assert.deepEqual(literal.body.data.clips, []);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await service.call(
        'GET',
        `/api/stock-clips?source=imported&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(page.status, 200, page.text);
      assert.ok(page.body.data.clips.length <= 1);
      seen.push(...page.body.data.clips.map((c: { id: string }) => c.id));
      cursor = page.body.data.next_cursor;
      assert.equal(page.body.data.has_more, cursor !== null);
    } while (cursor);
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen).size, 3);

    for (const bad of ['limit=0', 'limit=101', 'cursor=nonsense', 'niche=finance/moon', 'sort=title']) {
      const response = await service.call('GET', `/api/stock-clips?${bad}`);
      assert.equal(response.status, 400, `${bad}: ${response.text}`);
    }
    const stats = (await service.call('GET', '/api/stock-clips/stats')).body.data;
    assert.ok(stats.by_source.uploaded.ready >= 2);
    assert.equal(stats.by_source.imported.ready, 2);
    assert.equal(stats.by_source.imported.pending, 1);
    assert.equal(stats.total, stats.by_status.ready + stats.by_status.pending);
    assert.ok(
      stats.niches.some(
        (n: { niche: string; ready: number }) => n.niche === 'urban/nightlife' && n.ready === 1,
      ),
    );
    assert.ok(stats.niches_without_ready_clips.includes('events/halloween'));
  });

  void test('PATCH retags, DELETE removes record and file, usage counts up; generated clips stay', async () => {
    const made = await raw(
      'POST',
      '/api/stock-clips/direct-upload?title=Rain%20on%20glass&tags=rain,glass',
      clip,
    );
    const id = made.body.data.clip.id;
    const patched = await service.call('PATCH', `/api/stock-clips/${id}`, {
      body: {
        add_tags: ['Window', 'rain'],
        remove_tags: ['glass'],
        niches: ['nature/water', 'relaxing'],
        description: 'Drops run down a window.',
      },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data.clip.tags, ['rain', 'window']);
    assert.deepEqual(patched.body.data.clip.niches, ['nature/water', 'relaxing']);
    const both = await service.call('PATCH', `/api/stock-clips/${id}`, {
      body: { tags: ['a'], add_tags: ['b'] },
    });
    assert.equal(both.status, 400);
    const usage = await post(`/${id}/increment-usage`, { by: 3 });
    assert.deepEqual(usage.body.data, { clip_id: id, usage_count: 3 });
    assert.equal((await post(`/${id}/increment-usage`, undefined)).body.data.usage_count, 4);

    const stored = await service.runtime.database.db
      .selectFrom('stock_clips')
      .select('path')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const removed = await service.call('DELETE', `/api/stock-clips/${id}`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.data.deleted, true);
    assert.equal(existsSync(stored.path!), false);
    const gone = await service.call('GET', `/api/stock-clips/${id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'STOCK_CLIP_NOT_FOUND');

    await service.runtime.database.db
      .insertInto('stock_clips')
      .values({
        id: 'gen-test-clip',
        title: 'Generated test clip',
        source: 'generated',
        status: 'ready',
        path: '/nonexistent/gen.mp4',
      })
      .execute();
    assert.equal((await service.call('DELETE', '/api/stock-clips/gen-test-clip')).status, 409);
    assert.equal((await raw('POST', '/api/stock-clips/gen-test-clip/upload', clip)).status, 409);
    const retagged = await service.call('PATCH', '/api/stock-clips/gen-test-clip', {
      body: { tags: ['calm'] },
    });
    assert.deepEqual(retagged.body.data.clip.tags, ['calm']);
    await service.runtime.database.db.deleteFrom('stock_clips').where('id', '=', 'gen-test-clip').execute();
  });
});

void describe('stock clips: the stock engine', () => {
  void test('a configured Pexels provider adds portrait clips for the scenes, downloaded and probed', async () => {
    const { db } = service.runtime.database;
    const library = new StockLibrary(
      db,
      service.runtime.config.libraryDir,
      createLogger('silent'),
      createPexelsClient({ apiKey: 'fake-pexels-key', baseUrl: `${filesBase}/pexels` }),
    );
    const result = await library.ensureProviderFootage({
      sceneTexts: ['Traffic flows through the city at night.'],
      footageKeywords: [],
      urlGuard: service.runtime.context.urlGuard,
    });
    assert.deepEqual(seenByPexels, [{ query: 'traffic flows city', authorization: 'fake-pexels-key' }]);
    assert.equal(result?.imported.length, 1, JSON.stringify(result));
    const [id] = result.imported;
    const ready = (await library.readyClips()).find((c) => c.id === id);
    assert.equal(ready?.source, 'provider');
    assert.equal(ready?.title, 'city traffic at night');
    const row = (await service.call('GET', `/api/stock-clips/${id}`)).body.data.clip;
    assert.equal(row.external_source, 'pexels');
    assert.equal(row.external_id, '8080');
    assert.match(row.attribution, /Test Author on Pexels/);
    assert.equal(row.width, 640);
    const repeat = await library.ensureProviderFootage({
      sceneTexts: ['Traffic flows through the city at night.'],
      footageKeywords: [],
      urlGuard: service.runtime.context.urlGuard,
    });
    assert.deepEqual(repeat?.imported, []);
    assert.equal(seenByPexels.length, 1, 'a query answered within the hour is not asked again');
    const offline = new StockLibrary(db, service.runtime.config.libraryDir, createLogger('silent'));
    assert.equal(
      await offline.ensureProviderFootage({
        sceneTexts: ['x'],
        footageKeywords: [],
        urlGuard: service.runtime.context.urlGuard,
      }),
      undefined,
    );
  });

  // nature/water shares no generated clip with the niche the stock-video test renders (finance/wealth), so
  // the two files never generate the same clip at the same time.
  void test('an uploaded clip tagged with a niche is chosen by a real render of that clip_type', async () => {
    const upload = await raw(
      'POST',
      '/api/stock-clips/direct-upload?title=Lighthouse%20beam&tags=lighthouse,harbour&niches=nature/water',
      clip,
    );
    assert.equal(upload.status, 201, upload.text);
    const clipId = upload.body.data.clip.id;
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `render-${clipId}` },
      body: {
        // No sentence names the clip: its niche and the footage keyword must bring it in.
        script:
          'Every evening the keeper climbs the stairs. He checks the lamp and trims the wick. Sailors sleep soundly because someone kept watch.',
        clip_type: 'nature/water',
        footage_keywords: ['lighthouse'],
        duration_sec: 15,
        music: false,
        captions: false,
        include_branding: false,
      },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const shots: { clipId: string; matched: string[] }[] = job.artifacts.footage.shots;
    assert.ok(
      shots.some((s) => s.clipId === clipId),
      JSON.stringify(shots),
    );
    assert.deepEqual(shots.find((s) => s.clipId === clipId)!.matched, []);
    const used = (await service.call('GET', `/api/stock-clips/${clipId}`)).body.data.clip;
    assert.equal(used.usage_count, 1);
  });
});
