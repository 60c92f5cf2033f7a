import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { VideoSiteError } from './video-site.ts';
import {
  buildDownloadArgs,
  buildListArgs,
  classifyFailure,
  DOWNLOAD_FORMAT,
  errorLine,
  findYtDlp,
  isMissingTab,
  parseChannelListing,
  parseDownloadOutput,
  YtDlpFetcher,
} from './ytdlp-fetcher.ts';

const listing = JSON.stringify({
  id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
  title: 'Some Channel - Videos',
  entries: [
    { id: 'upcoming000', title: 'Premiere', live_status: 'is_upcoming' },
    { id: 'newest00001', title: 'Newest', timestamp: 1_767_225_600, duration: 612 },
    { id: 'middle00002', title: 'Middle', upload_date: '20251231' },
    { id: 'not-a-video-id', title: 'A playlist' },
    { id: 'oldest00003' },
  ],
});

void describe('yt-dlp arguments and outputs', () => {
  void test('the channel listing is flat, JSON, bounded and ends the options before the URL', () => {
    assert.deepEqual(buildListArgs('https://www.youtube.com/@x/videos', 15), [
      '--ignore-config',
      '--no-warnings',
      '--socket-timeout',
      '30',
      '--flat-playlist',
      '-J',
      '--playlist-end',
      '15',
      '--',
      'https://www.youtube.com/@x/videos',
    ]);
  });

  void test('the download picks at most 1080p, merges to MP4 and prints where the file went', () => {
    const args = buildDownloadArgs('https://www.youtube.com/watch?v=dQw4w9WgXcQ', '/work/job/source');
    assert.equal(args[args.indexOf('-f') + 1], DOWNLOAD_FORMAT);
    assert.ok(
      DOWNLOAD_FORMAT.split('/')
        .slice(0, -1)
        .every((choice) => choice.includes('[height<=1080]')),
    );
    assert.ok(DOWNLOAD_FORMAT.startsWith('bv*[height<=1080][ext=mp4]+ba[ext=m4a]'));
    assert.equal(args[args.indexOf('--merge-output-format') + 1], 'mp4');
    assert.equal(args[args.indexOf('-o') + 1], '/work/job/source/source.%(ext)s');
    assert.equal(args[args.indexOf('--print') + 1], 'after_move:%(.{id,title,duration,filepath})j');
    assert.ok(args.includes('--no-playlist') && args.includes('--no-simulate'));
    assert.deepEqual(args.slice(-2), ['--', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ']);
  });

  void test('a listing keeps videos newest first and skips upcoming streams and non-videos', () => {
    const uploads = parseChannelListing(listing, 15);
    assert.deepEqual(
      uploads.map((u) => [u.id, u.title, u.publishedAt, u.durationSec]),
      [
        ['newest00001', 'Newest', '2026-01-01T00:00:00.000Z', 612],
        ['middle00002', 'Middle', '2025-12-31T00:00:00.000Z', null],
        ['oldest00003', 'oldest00003', null, null],
      ],
    );
    assert.equal(uploads[0]!.url, 'https://www.youtube.com/watch?v=newest00001');
    assert.equal(parseChannelListing(listing, 2).length, 2);
    assert.deepEqual(parseChannelListing('{"entries":[]}'), []);
    assert.throws(() => parseChannelListing('not json'), SyntaxError);
  });

  void test('the printed JSON line names the file, title and length', () => {
    const out =
      'some line\n{"id": "dQw4w9WgXcQ", "title": "A talk", "duration": 95.5, "filepath": "/w/source.mp4"}\n';
    assert.deepEqual(parseDownloadOutput(out), { path: '/w/source.mp4', title: 'A talk', durationSec: 95.5 });
    assert.throws(() => parseDownloadOutput(''), VideoSiteError);
    assert.throws(() => parseDownloadOutput('{"title":"x"}'), VideoSiteError);
  });

  void test('errors are read from stderr', () => {
    const cases: Array<[string, string]> = [
      ['ERROR: [youtube:tab] @nobody: This channel does not exist.', 'not_found'],
      ['ERROR: [youtube:tab] https://www.youtube.com/c/x: HTTP Error 404: Not Found', 'not_found'],
      ['ERROR: [youtube] dQw4w9WgXcQ: Video unavailable', 'video_unavailable'],
      ['ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you have access', 'video_unavailable'],
      ['ERROR: [youtube] dQw4w9WgXcQ: Sign in to confirm your age', 'video_unavailable'],
      [
        'ERROR: [youtube] dQw4w9WgXcQ: Join this channel to get access to members-only content',
        'video_unavailable',
      ],
      [
        'ERROR: [youtube] x: Unable to download API page: <urlopen error [Errno -3] Temporary failure>',
        'unavailable',
      ],
      ['ERROR: [youtube] x: HTTP Error 429: Too Many Requests', 'unavailable'],
    ];
    for (const [stderr, failure] of cases) assert.equal(classifyFailure(stderr), failure, stderr);
    assert.ok(isMissingTab('ERROR: [youtube:tab] @quiet: This channel does not have a videos tab'));
    assert.ok(!isMissingTab('ERROR: [youtube:tab] @nobody: This channel does not exist.'));
    assert.equal(
      errorLine('[youtube] fetching\nERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in\n'),
      'Private video. Sign in',
    );
  });
});

// A stand-in yt-dlp executable: answers the way yt-dlp does for the channels and videos named below, and
// records its arguments, so the runner (spawn, exit codes, stderr, timeouts, output files) is exercised for real.
const STAND_IN = `#!${process.execPath}
const { writeFileSync, appendFileSync } = require('node:fs');
const args = process.argv.slice(2);
appendFileSync(process.env.YTDLP_ARGS_LOG, JSON.stringify(args) + '\\n');
const url = args[args.length - 1];
const fail = (message) => { process.stderr.write('ERROR: ' + message + '\\n'); process.exit(1); };
if (args.includes('--flat-playlist')) {
  if (url.includes('@nobody')) fail('[youtube:tab] @nobody: This channel does not exist.');
  if (url.includes('@quiet')) fail('[youtube:tab] @quiet: This channel does not have a videos tab');
  if (url.includes('@down')) fail('[youtube:tab] @down: Unable to download API page: HTTP Error 503');
  if (url.includes('@slow')) setTimeout(() => {}, 60000);
  else process.stdout.write(${JSON.stringify(listing)});
} else {
  if (url.endsWith('private0000')) fail('[youtube] private0000: Private video. Sign in if you have access');
  const template = args[args.indexOf('-o') + 1];
  const path = template.replace('%(ext)s', 'mp4');
  writeFileSync(path, 'media bytes');
  process.stdout.write(JSON.stringify({ id: url.slice(-11), title: 'Fetched title', duration: 61, filepath: path }) + '\\n');
}
`;

void describe('YtDlpFetcher with a stand-in executable', () => {
  let dir: string;
  let binary: string;
  let argsLog: string;
  let previousLog: string | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ytdlp-stand-in-'));
    binary = join(dir, 'bin', 'yt-dlp');
    await mkdir(join(dir, 'bin'));
    await writeFile(binary, STAND_IN);
    await chmod(binary, 0o755);
    argsLog = join(dir, 'args.log');
    previousLog = process.env.YTDLP_ARGS_LOG;
    process.env.YTDLP_ARGS_LOG = argsLog;
  });
  after(async () => {
    if (previousLog === undefined) delete process.env.YTDLP_ARGS_LOG;
    else process.env.YTDLP_ARGS_LOG = previousLog;
    await rm(dir, { recursive: true, force: true });
  });

  const fetcher = (listTimeoutMs?: number) =>
    new YtDlpFetcher({ binary: () => Promise.resolve(binary), ...(listTimeoutMs ? { listTimeoutMs } : {}) });

  void test('finds the binary from YTDLP_PATH or PATH, and only when it is executable', async () => {
    assert.equal(await findYtDlp(binary, ''), binary);
    assert.equal(await findYtDlp(join(dir, 'absent'), join(dir, 'bin')), null);
    assert.equal(await findYtDlp(undefined, `/nonexistent:${join(dir, 'bin')}`), binary);
    assert.equal(await findYtDlp(undefined, '/nonexistent'), null);
    await writeFile(join(dir, 'not-executable'), '');
    assert.equal(await findYtDlp(join(dir, 'not-executable'), ''), null);
  });

  void test('lists a channel and downloads a video', async () => {
    const uploads = await fetcher().listChannel('https://www.youtube.com/@some/videos', 2);
    assert.deepEqual(
      uploads.map((u) => u.id),
      ['newest00001', 'middle00002'],
    );
    const dest = join(dir, 'download');
    await mkdir(dest);
    const video = await fetcher().download('https://www.youtube.com/watch?v=dQw4w9WgXcQ', dest);
    assert.deepEqual(video, { path: join(dest, 'source.mp4'), title: 'Fetched title', durationSec: 61 });
    assert.equal((await stat(video.path)).size, 'media bytes'.length);
    const calls = (await readFile(argsLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    assert.deepEqual(calls.at(-1), buildDownloadArgs('https://www.youtube.com/watch?v=dQw4w9WgXcQ', dest));
  });

  void test('failures come back as VideoSiteErrors of the right kind', async () => {
    const failure = async (run: Promise<unknown>) => {
      const error = await run.then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof VideoSiteError, String(error));
      return error;
    };
    const missing = await failure(fetcher().listChannel('https://www.youtube.com/@nobody/videos'));
    assert.equal(missing.failure, 'not_found');
    assert.equal(missing.message, 'This channel does not exist.');
    assert.deepEqual(await fetcher().listChannel('https://www.youtube.com/@quiet/videos'), []);
    assert.equal(
      (await failure(fetcher().listChannel('https://www.youtube.com/@down/videos'))).failure,
      'unavailable',
    );
    const slow = await failure(fetcher(300).listChannel('https://www.youtube.com/@slow/videos'));
    assert.equal(slow.failure, 'unavailable');
    assert.match(slow.message, /did not answer/);
    const privateVideo = await failure(
      fetcher().download('https://www.youtube.com/watch?v=private0000', dir),
    );
    assert.equal(privateVideo.failure, 'video_unavailable');
    const absent = new YtDlpFetcher({ binary: () => Promise.resolve(null) });
    assert.equal(
      (await failure(absent.listChannel('https://www.youtube.com/@some/videos'))).failure,
      'tool_missing',
    );
    const vanished = new YtDlpFetcher({ binary: () => Promise.resolve(join(dir, 'gone')) });
    assert.equal(
      (await failure(vanished.download('https://youtu.be/dQw4w9WgXcQ', dir))).failure,
      'tool_missing',
    );
  });

  void test('an aborted download stops the process and surfaces the abort', async () => {
    const controller = new AbortController();
    const run = fetcher().listChannel('https://www.youtube.com/@slow/videos', 15, controller.signal);
    controller.abort(new Error('job cancelled'));
    await assert.rejects(run, /job cancelled/);
  });
});
