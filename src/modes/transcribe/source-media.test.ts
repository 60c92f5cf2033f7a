import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { runProcess } from '../../media/process/run-process.ts';
import {
  checkDuration,
  detectFormat,
  fetchSource,
  probeSource,
  SOURCE_MAX_DURATION_SEC,
  SourceRejectedError,
  type ProbeFacts,
} from './source-media.ts';

describe('detectFormat', () => {
  const facts = (formatName: string, more: Partial<ProbeFacts> = {}): ProbeFacts => ({
    formatName,
    videoCodecs: [],
    audioCodecs: ['aac'],
    ...more,
  });
  const cases: [string, ProbeFacts, string | undefined][] = [
    ['mp3', facts('mp3', { audioCodecs: ['mp3'] }), 'mp3'],
    ['wav', facts('wav', { audioCodecs: ['pcm_s16le'] }), 'wav'],
    ['flac', facts('flac', { audioCodecs: ['flac'] }), 'flac'],
    ['ogg', facts('ogg', { audioCodecs: ['opus'] }), 'ogg'],
    ['m4a by brand', facts('mov,mp4,m4a,3gp,3g2,mj2', { majorBrand: 'M4A ' }), 'm4a'],
    ['audio-only isom is m4a', facts('mov,mp4,m4a,3gp,3g2,mj2', { majorBrand: 'isom' }), 'm4a'],
    ['mp4', facts('mov,mp4,m4a,3gp,3g2,mj2', { majorBrand: 'isom', videoCodecs: ['h264'] }), 'mp4'],
    ['mov', facts('mov,mp4,m4a,3gp,3g2,mj2', { majorBrand: 'qt  ', videoCodecs: ['h264'] }), 'mov'],
    [
      '3gp refused',
      facts('mov,mp4,m4a,3gp,3g2,mj2', { majorBrand: '3gp4', videoCodecs: ['h263'] }),
      undefined,
    ],
    ['webm', facts('matroska,webm', { videoCodecs: ['vp9'], audioCodecs: ['opus'] }), 'webm'],
    ['matroska refused', facts('matroska,webm', { videoCodecs: ['h264'], audioCodecs: ['aac'] }), undefined],
    ['avi refused', facts('avi', { videoCodecs: ['mpeg4'] }), undefined],
  ];
  for (const [name, input, expected] of cases) test(name, () => assert.equal(detectFormat(input), expected));
});

describe('limits', () => {
  test('the duration limit is the spec’s 4 hours', () => {
    assert.equal(SOURCE_MAX_DURATION_SEC, 14_400);
    checkDuration(14_400);
    assert.throws(() => checkDuration(14_401), /the limit is 4 h/);
  });
});

describe('probing and fetching real files', () => {
  let dir = '';
  let server: Server;
  let base = '';
  const guard = new UrlGuard({ allowLoopback: true });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'source-media-test-'));
    const ff = (...args: string[]) => runProcess('ffmpeg', ['-v', 'error', '-y', ...args]);
    const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'];
    await ff(...tone, '-c:a', 'libmp3lame', '-f', 'mp3', join(dir, 'tone-really-mp3.wav'));
    await ff(...tone, '-c:a', 'libopus', join(dir, 'tone.webm'));
    await ff(
      ...['-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=10:d=2', ...tone],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      join(dir, 'clip.mov'),
    );
    // Digital silence compresses to almost nothing in FLAC: over four hours in about a megabyte.
    await ff(
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=1000:cl=mono',
      '-t',
      '14500',
      '-c:a',
      'flac',
      join(dir, 'long.flac'),
    );
    await writeFile(join(dir, 'notes.txt'), 'plain text, not media\n');
    server = createServer((req, res) => {
      if (req.url === '/huge') {
        // Announces 600 MB; a correct client never reads the body.
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(600 * 1024 * 1024) });
        res.end();
        return;
      }
      if (req.url === '/endless') {
        // No length announced: the limit must hold while streaming.
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        if (req.method === 'HEAD') return void res.end();
        res.write(Buffer.alloc(64 * 1024));
        res.end(Buffer.alloc(64 * 1024));
        return;
      }
      if (req.url === '/missing') return void res.writeHead(404).end();
      res.writeHead(200).end(req.method === 'HEAD' ? undefined : Buffer.alloc(0));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.close();
    await guard.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('an MP3 named .wav is an mp3: the content decides', async () => {
    const probed = await probeSource(join(dir, 'tone-really-mp3.wav'));
    assert.equal(probed.format, 'mp3');
    assert.ok(Math.abs(probed.durationSec - 2) < 0.1);
    assert.equal(probed.video, undefined);
    assert.equal(probed.audio?.codec, 'mp3');
  });

  test('WebM audio and a QuickTime movie with its picture size', async () => {
    assert.equal((await probeSource(join(dir, 'tone.webm'))).format, 'webm');
    const movie = await probeSource(join(dir, 'clip.mov'));
    assert.equal(movie.format, 'mov');
    assert.deepEqual(movie.video, { width: 160, height: 90 });
  });

  test('a text file is refused as not media', async () => {
    await assert.rejects(probeSource(join(dir, 'notes.txt')), (error: unknown) => {
      assert.ok(error instanceof SourceRejectedError);
      assert.match(error.message, /not an audio or video file/);
      return true;
    });
  });

  test('a source over four hours is refused by its probed duration', async () => {
    const probed = await probeSource(join(dir, 'long.flac'));
    assert.equal(probed.durationSec, 14_500);
    assert.throws(() => checkDuration(probed.durationSec), SourceRejectedError);
  });

  test('an announced size over the limit is refused without downloading', async () => {
    const dest = join(dir, 'huge');
    await assert.rejects(fetchSource(guard, `${base}/huge`, dest), /is 600 MB; the limit is 500 MB/);
    assert.equal(existsSync(dest), false);
  });

  test('the size limit also holds while streaming a body of unannounced length', async () => {
    const dest = join(dir, 'endless');
    const limits = { maxBytes: 100 * 1024, maxDurationSec: SOURCE_MAX_DURATION_SEC };
    await assert.rejects(
      fetchSource(guard, `${base}/endless`, dest, { limits }),
      /is larger than the 0.1 MB limit/,
    );
    assert.equal(existsSync(dest), false);
  });

  test('a URL answering 404 is refused with its status', async () => {
    await assert.rejects(fetchSource(guard, `${base}/missing`, join(dir, 'missing')), /answered HTTP 404/);
  });
});
