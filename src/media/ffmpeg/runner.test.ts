import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ProcessError } from '../process/run-process.ts';
import { ffmpegProcessArgs, runFfmpeg, runFfprobe } from './runner.ts';

const failure = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => assert.fail('expected the run to fail'),
    (error: unknown) => error,
  );

// -re makes ffmpeg run in real time, so this takes 30 s unless it is stopped.
const REAL_TIME_30_SEC = ['-re', '-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=30', '-f', 'null', '-'];

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

describe('runFfmpeg', () => {
  test('reports progress in seconds of output', async () => {
    const seen: number[] = [];
    await runFfmpeg(['-f', 'lavfi', '-i', 'color=s=32x32:r=10:d=2', '-f', 'null', '-'], {
      onProgress: (s) => seen.push(s),
    });
    assert.ok(seen.length > 0);
    assert.ok(Math.abs((seen.at(-1) ?? 0) - 2) < 0.15, `last progress ${seen.at(-1)}`);
  });

  test('throws ProcessError with exit code and ffmpeg’s own error on failure', async () => {
    const err = await failure(runFfmpeg(['-i', '/nonexistent/input.mp4', '-f', 'null', '-']));
    assert.ok(err instanceof ProcessError);
    assert.equal(err.reason, 'exit');
    assert.equal(err.command, 'ffmpeg');
    assert.notEqual(err.exitCode, 0);
    assert.match(err.stderrTail, /No such file or directory/);
    assert.match(err.message, /No such file or directory/);
  });

  test('stops ffmpeg on abort with the abort reason', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const err = await failure(runFfmpeg(REAL_TIME_30_SEC, { signal: controller.signal }));
    assert.equal(err, controller.signal.reason);
    assert.ok(Date.now() - started < 5000);
  });

  test('stops ffmpeg on timeout', async () => {
    const err = await failure(runFfmpeg(REAL_TIME_30_SEC, { timeoutMs: 300 }));
    assert.ok(err instanceof ProcessError);
    assert.equal(err.reason, 'timeout');
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
