import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendTail, FfmpegError, ffmpegProcessArgs, runFfmpeg, runFfprobe } from './runner.ts';

describe('ffmpegProcessArgs', () => {
  test('adds quiet, non-interactive progress options before the caller args', () => {
    assert.deepEqual(ffmpegProcessArgs(['-i', 'in.mp4', 'out.mp4']), [
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-progress',
      'pipe:1',
      '-i',
      'in.mp4',
      'out.mp4',
    ]);
  });
});

describe('appendTail', () => {
  const cases: [string, string, number, string][] = [
    ['', 'abc', 5, 'abc'],
    ['abc', 'def', 5, 'bcdef'],
    ['abc', 'defghij', 4, 'ghij'],
  ];
  for (const [tail, chunk, limit, expected] of cases) {
    test(`${tail}+${chunk} limit ${limit}`, () => assert.equal(appendTail(tail, chunk, limit), expected));
  }
});

describe('runFfmpeg', () => {
  test('reports progress in seconds of output', async () => {
    const seen: number[] = [];
    await runFfmpeg(['-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=2', '-f', 'null', '-'], {
      onProgress: (s) => seen.push(s),
    });
    assert.ok(seen.length > 0);
    assert.ok(Math.abs((seen.at(-1) ?? 0) - 2) < 0.15, `last progress ${seen.at(-1)}`);
  });

  test('throws FfmpegError with exit code and stderr tail on failure', async () => {
    const err = await runFfmpeg(['-i', '/nonexistent/input.mp4', '-f', 'null', '-']).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof FfmpegError);
    assert.equal(err.reason, 'exit');
    assert.notEqual(err.exitCode, 0);
    assert.match(err.stderrTail, /No such file or directory/);
    assert.ok(err.stderrTail.length <= 4096);
  });

  test('kills the process on abort', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    // -re makes ffmpeg run in real time, so this would take 30 s if not killed.
    const err = await runFfmpeg(['-re', '-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=30', '-f', 'null', '-'], {
      signal: controller.signal,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof FfmpegError);
    assert.equal(err.reason, 'aborted');
    assert.ok(Date.now() - started < 5000);
  });

  test('kills the process on timeout', async () => {
    const err = await runFfmpeg(['-re', '-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=30', '-f', 'null', '-'], {
      timeoutMs: 300,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof FfmpegError);
    assert.equal(err.reason, 'timeout');
  });

  test('rejects before spawning when already aborted', async () => {
    await assert.rejects(runFfmpeg(['-version'], { signal: AbortSignal.abort() }), { reason: 'aborted' });
  });

  test('reports a missing binary as a spawn failure', async () => {
    await assert.rejects(runFfmpeg(['-version'], { binary: '/nonexistent/ffmpeg' }), { reason: 'spawn' });
  });

  test('passes stderr lines to onStderrLine', async () => {
    const lines: string[] = [];
    await runFfmpeg(['-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=0.2', '-f', 'null', '-'], {
      onStderrLine: (l) => lines.push(l),
    });
    assert.ok(lines.some((l) => l.includes('Input #0, lavfi')));
  });
});

describe('runFfprobe', () => {
  test('returns stdout', async () => {
    const { stdout } = await runFfprobe(['-version']);
    assert.match(stdout, /^ffprobe version/);
  });
});
