import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { UrlGuard } from '../platform/net/url-guard.ts';
import { freePort } from '../../test/support/test-service.ts';
import {
  choosePortraitFile,
  createPexelsClient,
  PexelsError,
  titleFromPexelsUrl,
  type PexelsVideoFile,
} from './pexels.ts';

const KEY = 'pexels-test-key';
const seen: { path: string; params: Record<string, string>; authorization: string | undefined }[] = [];

const file = (id: number, width: number, height: number, quality = 'hd', fileType = 'video/mp4') => ({
  id,
  quality,
  file_type: fileType,
  width,
  height,
  fps: 25,
  link: `https://videos.pexels.com/video-files/${id}/${id}-${width}x${height}.mp4`,
});

const video = (id: number, slug: string, duration: number, files: ReturnType<typeof file>[]) => ({
  id,
  width: 1080,
  height: 1920,
  url: `https://www.pexels.com/video/${slug}-${id}/`,
  image: `https://images.pexels.com/videos/${id}/free-video-${id}.jpg`,
  duration,
  user: { id: 7, name: 'Ana Lens', url: 'https://www.pexels.com/@ana' },
  video_files: files,
  video_pictures: [],
});

// A local stand-in speaking Pexels' documented protocol.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const params = Object.fromEntries(url.searchParams);
  seen.push({ path: url.pathname, params, authorization: req.headers.authorization });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  if (url.pathname !== '/videos/search') return json(404, { error: 'Not Found' });
  if (req.headers.authorization !== KEY) return json(401, { error: 'Unauthorized' });
  if (params.query === 'quota') {
    return json(
      429,
      { error: 'Rate limit exceeded' },
      { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 120) },
    );
  }
  if (params.query === 'outage') return json(503, { error: 'Service Unavailable' });
  if (params.query === 'garbled')
    return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
  if (params.query === 'odd') return json(200, { photos: [] });
  json(200, {
    page: 1,
    per_page: Number(params.per_page),
    total_results: 4,
    url: 'https://www.pexels.com/search/videos/ocean%20waves/',
    videos: [
      video(101, 'short-splash', 2, [file(1, 1080, 1920)]),
      video(102, 'waves-rolling-onto-a-beach', 14, [
        file(2, 1920, 1080),
        file(3, 360, 640, 'sd'),
        file(4, 1080, 1920),
        file(5, 2160, 3840, 'uhd'),
        file(6, 720, 1280),
      ]),
      video(103, 'hour-long-timelapse', 3600, [file(7, 1080, 1920)]),
      video(104, 'landscape-only-sea', 10, [file(8, 1920, 1080), file(9, 1280, 720)]),
      video(105, 'surfer-at-sunset', 21, [file(10, 540, 960, 'sd'), file(11, 720, 1280)]),
      video(106, 'third-match', 9, [file(12, 1080, 1920)]),
    ],
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const guard = new UrlGuard({ allowLoopback: true });

after(async () => {
  await guard.close();
  await new Promise((resolve) => server.close(resolve));
});

void describe('Pexels client against a local Pexels', () => {
  void test('sends the key and the query, and turns the answer into portrait candidates', async () => {
    const client = createPexelsClient({ apiKey: KEY, baseUrl: `${base}/` });
    seen.length = 0;
    const candidates = await client.portraitCandidates(guard, 'ocean waves', { perQuery: 2 });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.path, '/videos/search');
    assert.equal(seen[0]!.authorization, KEY);
    assert.deepEqual(seen[0]!.params, { query: 'ocean waves', orientation: 'portrait', per_page: '6' });
    assert.deepEqual(candidates, [
      {
        externalId: '102',
        title: 'waves rolling onto a beach',
        pageUrl: 'https://www.pexels.com/video/waves-rolling-onto-a-beach-102/',
        durationSec: 14,
        width: 1080,
        height: 1920,
        downloadUrl: 'https://videos.pexels.com/video-files/4/4-1080x1920.mp4',
        attribution:
          'Video by Ana Lens on Pexels (https://www.pexels.com/video/waves-rolling-onto-a-beach-102/)',
      },
      {
        externalId: '105',
        title: 'surfer at sunset',
        pageUrl: 'https://www.pexels.com/video/surfer-at-sunset-105/',
        durationSec: 21,
        width: 720,
        height: 1280,
        downloadUrl: 'https://videos.pexels.com/video-files/11/11-720x1280.mp4',
        attribution: 'Video by Ana Lens on Pexels (https://www.pexels.com/video/surfer-at-sunset-105/)',
      },
    ]);
  });

  void test('searchVideos passes page and per_page (capped at 80) and keeps every file', async () => {
    const client = createPexelsClient({ apiKey: KEY, baseUrl: base });
    seen.length = 0;
    const page = await client.searchVideos(guard, { query: 'sea', perPage: 500, page: 2 });
    assert.deepEqual(seen[0]!.params, { query: 'sea', per_page: '80', page: '2' });
    assert.equal(page.videos.length, 6);
    assert.equal(page.videos[1]!.files.length, 5);
    assert.deepEqual(page.videos[1]!.author, { name: 'Ana Lens', url: 'https://www.pexels.com/@ana' });
  });

  void test('errors are mapped to kinds a caller can act on', async () => {
    const expectKind = async (
      apiKey: string,
      query: string,
      kind: string,
      retryable: boolean,
      url = base,
    ) => {
      const client = createPexelsClient({ apiKey, baseUrl: url });
      const error = await client.portraitCandidates(guard, query, { perQuery: 1 }).then(
        () => assert.fail(`"${query}" should fail`),
        (e: unknown) => e,
      );
      assert.ok(error instanceof PexelsError, String(error));
      assert.equal(error.kind, kind, error.message);
      assert.equal(error.retryable, retryable);
      return error;
    };
    const unauthorized = await expectKind('wrong-key', 'ocean', 'unauthorized', false);
    assert.equal(unauthorized.status, 401);
    assert.match(unauthorized.message, /PEXELS_API_KEY/);
    const limited = await expectKind(KEY, 'quota', 'rate_limited', true);
    assert.ok(limited.retryAfterSec! >= 119 && limited.retryAfterSec! <= 121, String(limited.retryAfterSec));
    await expectKind(KEY, 'outage', 'unavailable', true);
    await expectKind(KEY, 'garbled', 'bad_response', false);
    await expectKind(KEY, 'odd', 'bad_response', false);
    await expectKind(KEY, 'ocean', 'fetch_failed', true, `http://127.0.0.1:${await freePort()}`);
  });
});

void describe('choosePortraitFile', () => {
  const f = (id: number, width: number, height: number, fileType = 'video/mp4'): PexelsVideoFile => ({
    id,
    quality: null,
    fileType,
    width,
    height,
    fps: 30,
    link: `https://example.com/${id}.mp4`,
  });
  const cases: [string, PexelsVideoFile[], number | undefined][] = [
    ['full HD portrait over 4K and smaller', [f(1, 2160, 3840), f(2, 1080, 1920), f(3, 720, 1280)], 2],
    ['1440×2560 when no 1920-tall file', [f(1, 2160, 3840), f(2, 1440, 2560), f(3, 720, 1280)], 3],
    ['tallest under 1920 rather than 4K', [f(1, 2160, 3840), f(2, 720, 1280), f(3, 900, 1600)], 3],
    ['4K when nothing from 1280 up', [f(1, 2160, 3840), f(2, 360, 640)], 1],
    ['the tallest small file as a last resort', [f(1, 360, 640), f(2, 540, 960)], 2],
    ['landscape files are never chosen', [f(1, 1920, 1080), f(2, 1080, 1080)], undefined],
    ['non-MP4 files are skipped', [f(1, 1080, 1920, 'video/webm'), f(2, 720, 1280)], 2],
    ['a file without a type is judged by its link', [f(1, 1080, 1920, '')], 1],
    ['nothing to choose from', [], undefined],
  ];
  for (const [name, files, expected] of cases) {
    void test(name, () => assert.equal(choosePortraitFile(files)?.id, expected));
  }
});

void describe('titleFromPexelsUrl', () => {
  const cases: [string, number, string][] = [
    ['https://www.pexels.com/video/waves-on-a-beach-2499611/', 2499611, 'waves on a beach'],
    ['https://www.pexels.com/video/Woman-Running-55/', 55, 'woman running'],
    ['https://www.pexels.com/video/2499611/', 2499611, 'Pexels video 2499611'],
    ['not a url', 9, 'Pexels video 9'],
  ];
  for (const [url, id, expected] of cases)
    void test(url, () => assert.equal(titleFromPexelsUrl(url, id), expected));
});
