import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessError, runProcess } from './run-process.ts';

const failure = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => assert.fail('expected the run to fail'),
    (error: unknown) => error,
  );

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A shell that prints its pid, then becomes `sleep 30` in place (so the pid is the sleeping process). */
function sleeper(extra = ''): { args: string[]; pid: Promise<number>; onStdout: (chunk: string) => void } {
  let found: (pid: number) => void = () => {};
  const pid = new Promise<number>((resolve) => (found = resolve));
  return {
    args: ['-c', `${extra} echo $$; exec sleep 30`],
    pid,
    onStdout: (chunk) => found(Number(chunk.trim())),
  };
}

describe('runProcess', () => {
  test('collects stdout and the stderr tail of a successful run', async () => {
    const result = await runProcess('sh', ['-c', 'printf "out put"; printf "said this" >&2']);
    assert.deepEqual(result, { stdout: 'out put', stderrTail: 'said this' });
  });

  test('writes input to stdin and closes it, keeping multi-byte text intact', async () => {
    const input = 'naïve café — 東京\n'.repeat(20_000);
    const { stdout } = await runProcess('cat', [], { input });
    assert.equal(stdout, input);
  });

  test('gives a child with no input an empty stdin, so a reader ends at once', async () => {
    const { stdout } = await runProcess('cat', []);
    assert.equal(stdout, '');
  });

  test('runs in cwd', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'run-process-'));
    try {
      const { stdout } = await runProcess('pwd', [], { cwd: dir });
      assert.equal(stdout.trim(), await realpath(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('streams stdout to onStdout instead of collecting it', async () => {
    const chunks: string[] = [];
    const { stdout } = await runProcess('sh', ['-c', 'echo one; echo two'], {
      onStdout: (c) => chunks.push(c),
    });
    assert.equal(stdout, '');
    assert.equal(chunks.join(''), 'one\ntwo\n');
  });

  test('passes each stderr line, the unterminated last one included, to onStderrLine', async () => {
    const lines: string[] = [];
    await runProcess('sh', ['-c', 'printf "a\\nb\\r\\nc\\rd" >&2'], { onStderrLine: (l) => lines.push(l) });
    assert.deepEqual(lines, ['a', 'b', 'c', 'd']);
  });

  test('a non-zero exit is a ProcessError with the code and the last stderr lines', async () => {
    const error = await failure(runProcess('sh', ['-c', 'echo first >&2; echo second >&2; exit 3']));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'exit');
    assert.equal(error.command, 'sh');
    assert.equal(error.exitCode, 3);
    assert.equal(error.stderrTail, 'first\nsecond\n');
    assert.equal(error.message, 'sh exited with code 3: first | second');
  });

  test('keeps only the last 4096 characters of a long stderr', async () => {
    const error = await failure(runProcess('sh', ['-c', 'seq 1 5000 >&2; exit 1']));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.stderrTail.length, 4096);
    assert.ok(error.stderrTail.endsWith('4999\n5000\n'));
  });

  test('a tool killed by a signal is an exit failure naming the signal', async () => {
    const error = await failure(runProcess('sh', ['-c', 'kill -KILL $$']));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'exit');
    assert.equal(error.exitSignal, 'SIGKILL');
    assert.match(error.message, /signal SIGKILL/);
  });

  test('a tool that exits without reading its input reports its exit status', async () => {
    const error = await failure(runProcess('sh', ['-c', 'exit 4'], { input: 'x'.repeat(4 << 20) }));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.exitCode, 4);
  });

  test('a missing binary is a spawn failure', async () => {
    const error = await failure(runProcess('/nonexistent/tool', []));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'spawn');
    assert.match(error.message, /ENOENT/);
  });

  test('kills the process on timeout', async () => {
    const run = sleeper();
    const error = await failure(runProcess('sh', run.args, { timeoutMs: 300, onStdout: run.onStdout }));
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'timeout');
    assert.equal(error.exitSignal, 'SIGTERM');
    assert.equal(alive(await run.pid), false);
  });

  test('kills the process on abort and rejects with the abort reason', async () => {
    const run = sleeper();
    const controller = new AbortController();
    void run.pid.then(() => controller.abort());
    const error = await failure(
      runProcess('sh', run.args, { signal: controller.signal, onStdout: run.onStdout }),
    );
    assert.equal(error, controller.signal.reason);
    assert.equal((error as Error).name, 'AbortError');
    assert.equal(alive(await run.pid), false);
  });

  test('an abort reason that is not an Error becomes the cause of an aborted ProcessError', async () => {
    const run = sleeper();
    const controller = new AbortController();
    void run.pid.then(() => controller.abort('cancelled'));
    const error = await failure(
      runProcess('sh', run.args, { signal: controller.signal, onStdout: run.onStdout }),
    );
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'aborted');
    assert.equal(error.cause, 'cancelled');
  });

  test('a tool that ignores SIGTERM is killed after the grace period', async () => {
    const run = sleeper("trap '' TERM;");
    const error = await failure(
      runProcess('sh', run.args, { timeoutMs: 200, killGraceMs: 300, onStdout: run.onStdout }),
    );
    assert.ok(error instanceof ProcessError);
    assert.equal(error.reason, 'timeout');
    assert.equal(error.exitSignal, 'SIGKILL');
    assert.equal(alive(await run.pid), false);
  });

  test('an already aborted signal starts nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'run-process-'));
    try {
      const marker = join(dir, 'ran');
      const signal = AbortSignal.abort();
      const error = await failure(runProcess('touch', [marker], { signal }));
      assert.equal(error, signal.reason);
      assert.equal(existsSync(marker), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('background priority runs the tool at the lowest CPU priority', async () => {
    const niceOf = async (priority: 'normal' | 'background') =>
      Number((await runProcess('sh', ['-c', 'exec ps -o ni= -p $$'], { priority })).stdout.trim());
    assert.equal(await niceOf('background'), 19);
    assert.equal(await niceOf('normal'), getPriority());
  });
});
