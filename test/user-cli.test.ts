import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { createTestDatabase } from './support/test-database.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// `reelsmith` (client/src/cli/, docs/integrations.md "CLI") run as a child process, the way `npx reelsmith`
// runs it: the command npm links into node_modules/.bin from the client workspace, built first from source.

const root = new URL('..', import.meta.url).pathname;
const BIN = join(root, 'node_modules', '.bin', 'reelsmith');

let fast: TestService; // the test mode: real jobs with progress that finish in a second
let product: TestService; // the product's modes: real prices, sandbox jobs in the library
let dir: string;

before(async () => {
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'client/tsconfig.build.json'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  assert.equal(build.status, 0, `building the client failed: ${build.stdout}${build.stderr}`);
  [fast, product] = await Promise.all([
    startTestService(),
    startTestService({ modes: productModes, worker: false }),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-user-cli-'));
});
after(async () => {
  await Promise.all([fast.stop(), product.stop()]);
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function reelsmith(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const base = { ...process.env };
  delete base.REELSMITH_URL;
  delete base.REELSMITH_API_KEY;
  const child = spawn(BIN, args, { cwd: dir, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const against = (service: TestService, key: string | undefined = service.account.live_key) => ({
  REELSMITH_URL: service.url,
  REELSMITH_API_KEY: key,
});

async function balance(service: TestService, key = service.account.live_key): Promise<number> {
  return (await service.call('GET', '/api/v1/usage', { key })).body.data.balance_usd_cents;
}

void describe('reelsmith (user CLI)', () => {
  void test('--help lists the commands, the connection settings and the exit codes', async () => {
    const run = await reelsmith(['--help']);
    assert.equal(run.code, 0, run.stderr);
    for (const text of [
      'video TOPIC',
      'jobs [JOB_ID]',
      'usage',
      'REELSMITH_URL',
      'REELSMITH_API_KEY',
      'Exit codes',
    ])
      assert.ok(run.stdout.includes(text), text);
    const unknown = await reelsmith(['render']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "render"/);
  });

  void test('refuses to run without a key, and with a refused key, saying how to fix it', async () => {
    const before = await balance(fast);
    const noKey = await reelsmith(['video', 'a topic', '--yes'], { REELSMITH_URL: fast.url });
    assert.equal(noKey.code, 3);
    assert.match(noKey.stderr, /no API key: pass --key svc_… or set REELSMITH_API_KEY/);
    const badKey = await reelsmith(['usage', '--key', 'svc_notakey000000'], { REELSMITH_URL: fast.url });
    assert.equal(badKey.code, 3);
    assert.match(badKey.stderr, /AUTH_INVALID_API_KEY: .*\(check --key \/ REELSMITH_API_KEY\)/);
    assert.equal(await balance(fast), before);
  });

  void test('shows the price first and charges nothing unless confirmed', async () => {
    const before = await balance(product);
    const run = await reelsmith(
      ['video', 'how compound interest grows savings', '--duration', '30'],
      against(product),
    );
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /^Price: \$0\.60 \(stock\) — balance \$1000\.00, render /m);
    assert.match(run.stderr, /not charged: add --yes to charge \$0\.60/);
    assert.equal(await balance(product), before);
  });

  void test('video --yes: charges, shows progress, downloads the MP4', async () => {
    const before = await balance(fast);
    const run = await reelsmith(
      ['video', 'a quick test video', '--yes', '--out', 'out/first.mp4'],
      against(fast),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Price: \$0\.60 \(test_video\)/m);
    assert.match(
      run.stderr,
      /^Job job_\w+ queued, charged \$0\.60 \(Idempotency-Key reelsmith-client-[0-9a-f-]+\)\.$/m,
    );
    assert.match(run.stderr, /^\[ 50%\] render {3}Rendering$/m);
    assert.match(run.stderr, /^\[100%\] completed/m);
    const out = join(dir, 'out', 'first.mp4');
    assert.match(run.stdout, new RegExp(`^saved ${out} \\(video, [\\d.]+ kB\\)$`, 'm'));
    const info = await probeMedia(out);
    assert.equal(info.video?.codec, 'h264');
    assert.deepEqual([info.video?.width, info.video?.height], [64, 112]);
    assert.equal(await balance(fast), before - 60);
  });

  void test('video --json --no-stream: polls, and prints one JSON document', async () => {
    const run = await reelsmith(
      ['video', 'polled test video', '-y', '--no-stream', '--json', '--out', 'polled.mp4'],
      against(fast),
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.status, 'completed');
    assert.equal(result.price_usd_cents, 60);
    assert.deepEqual(
      result.files.map((f: { role: string; path: string }) => [f.role, f.path]),
      [['video', join(dir, 'polled.mp4')]],
    );
    assert.match(run.stderr, /^\[ 50%\] render/m);
  });

  void test('a failed job exits 1 and says it was refunded; a refused body exits 2 naming the field', async () => {
    const body = join(dir, 'fail.json');
    await writeFile(body, JSON.stringify({ outcome: 'fail' }));
    const before = await balance(fast);
    const failed = await reelsmith(['video', 'doomed', '--body', body, '--yes'], against(fast));
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(
      failed.stderr,
      /job job_\w+ ended failed \(AI_OUTPUT_LOW_QUALITY: .*\); the \$0\.60 were refunded/,
    );
    assert.equal(await balance(fast), before);

    const invalid = await reelsmith(['video', 'too long', '--duration', '9999', '--yes'], against(fast));
    assert.equal(invalid.code, 2, invalid.stderr);
    assert.match(invalid.stderr, /INPUT_INVALID: .*\n {2}duration_sec /);
  });

  void test('a balance below the price exits 5', async () => {
    const poor = await fast.newAccount(10);
    const run = await reelsmith(['video', 'too expensive', '--yes'], against(fast, poor.live_key));
    assert.equal(run.code, 5, run.stderr);
    assert.match(run.stderr, /INSUFFICIENT_API_CREDITS/);
  });

  void test('a sandbox key: free placeholder video and poster end to end, then listed by jobs', async () => {
    const sandbox = against(product, product.account.sandbox_key);
    const run = await reelsmith(['video', 'a sandboxed video', '--all', '--out', 'sandbox/v.mp4'], sandbox);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /^Price: \$0\.60 \(stock\) — sandbox key: a placeholder video, nothing is charged\.$/m,
    );
    const jobId = /^Job (sandbox_job_\w+) completed/m.exec(run.stderr)?.[1];
    assert.ok(jobId, run.stderr);
    assert.match(run.stdout, /^saved .*\/sandbox\/v\.mp4 \(video, /m);
    assert.match(run.stdout, /^saved .*\/sandbox\/v\.jpg \(poster, /m);
    const info = await probeMedia(join(dir, 'sandbox', 'v.mp4'));
    assert.deepEqual([info.video?.width, info.video?.height], [1080, 1920]);

    const list = await reelsmith(['jobs'], sandbox);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      new RegExp(
        `^${jobId}\\s+completed\\s+stock\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+Sandbox example`,
        'm',
      ),
    );
    const one = await reelsmith(['jobs', jobId], sandbox);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, new RegExp(`^${jobId}  completed  stock  \\$0\\.00  \\(sandbox\\)$`, 'm'));
    assert.match(one.stdout, /^ {2}video {4}http:\/\/127\.0\.0\.1:\d+\/media\//m);
    const missing = await reelsmith(['jobs', 'job_missing'], sandbox);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /JOB_NOT_FOUND/);
  });

  void test('usage shows the balance, the ledger and the prices', async () => {
    const run = await reelsmith(['usage'], against(product));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Account {2}.+, live key$/m);
    assert.match(run.stdout, /^Balance {2}\$1000\.00$/m);
    assert.match(run.stdout, /^ {2}stock +\$0\.60$/m);
    const json = await reelsmith(['usage', '--json'], against(product));
    assert.equal(JSON.parse(json.stdout).balance_usd_cents, 100_000);
  });

  void test('video --local renders on this machine with the repository pipeline, without a server or key', async () => {
    const run = await reelsmith(
      ['video', 'how tides work', '--local', '--duration', '15', '--all', '--out', 'local/tides.mp4'],
      {
        DATABASE_URL: await createTestDatabase(),
        DATA_DIR: join(dir, 'data'),
        RENDER_PRESET: 'ultrafast',
        ...(process.env.TEST_LIBRARY_DIR ? { LIBRARY_DIR: process.env.TEST_LIBRARY_DIR } : {}),
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /nothing is charged/);
    assert.match(run.stderr, /^\[ {0,2}\d+%\] compose {2}Rendering the video\.$/m);
    const out = join(dir, 'local', 'tides.mp4');
    assert.deepEqual(run.stdout.trim().split('\n'), [
      `saved ${out}`,
      `saved ${join(dir, 'local', 'tides.jpg')}`,
      `saved ${join(dir, 'local', 'tides.srt')}`,
    ]);
    const info = await probeMedia(out);
    assert.deepEqual([info.video?.width, info.video?.height], [1080, 1920]);
    assert.ok(info.durationSec > 8, String(info.durationSec));
  });
});
