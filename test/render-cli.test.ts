import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { createTestDatabase } from './support/test-database.ts';

// `npm run render`: the generate-and-post pipeline run as a command, without the server.

const root = new URL('..', import.meta.url).pathname;
let dir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-render-cli-'));
  env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(),
    DATA_DIR: join(dir, 'data'),
    RENDER_PRESET: 'ultrafast',
    // The generated footage and music cache that every test file of the run shares.
    ...(process.env.TEST_LIBRARY_DIR ? { LIBRARY_DIR: process.env.TEST_LIBRARY_DIR } : {}),
  };
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function render(args: string[]): Promise<CliRun> {
  // What `npm run render` runs: the compiled build (npm test brings it up to date first).
  const child = spawn(process.execPath, ['build/cli/render.js', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function requestFile(name: string, body: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(body));
  return path;
}

void describe('npm run render', () => {
  void test('renders a request into an MP4 with its poster and captions beside it', async () => {
    const request = await requestFile('request.json', {
      topic: 'how compound interest grows savings',
      duration_sec: 15,
      content_purpose: 'education',
      brand: { name: 'Acme Savings', accent_color: '#22C55E' },
    });
    const out = join(dir, 'videos', 'savings.mp4');
    const run = await render([request, '--out', out]);
    assert.equal(run.code, 0, run.stderr);

    assert.match(run.stderr, /^\[ {0,2}\d+%\] compose {2}Rendering the video\.$/m);
    const summary = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
    assert.equal(summary.out, out);
    assert.ok(typeof summary.title === 'string' && summary.title.length > 5, String(summary.title));
    assert.match(String(summary.description), /#\w+/);
    // What the render cost, for sizing a machine: its own time, CPU with ffmpeg's, and its peak memory.
    assert.ok(Number(summary.renderSec) > 0 && Number(summary.cpuSec) > 0, run.stdout);
    assert.ok(Number(summary.peakRssMb) > 50 && Number(summary.peakRssMb) < 2048, run.stdout);

    const info = await probeMedia(out);
    assert.equal(info.video?.codec, 'h264');
    assert.equal(info.video?.width, 1080);
    assert.equal(info.video?.height, 1920);
    assert.equal(info.audio?.codec, 'aac');
    assert.ok(Math.abs(info.durationSec - 15) <= 1.5, `duration ${info.durationSec}`);
    assert.ok(Math.abs(Number(summary.durationSec) - info.durationSec) < 0.05);

    const poster = join(dir, 'videos', 'savings.jpg');
    assert.equal(summary.poster, poster);
    assert.equal((await probeMedia(poster)).video?.codec, 'mjpeg');
    const srt = await readFile(join(dir, 'videos', 'savings.srt'), 'utf8');
    assert.match(srt, /^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n\S/);
  });

  void test('an invalid request names the offending fields and exits 2 without rendering', async () => {
    const request = await requestFile('bad.json', {
      topic: 'anything',
      duration_sec: 5,
      clip_type: 'not-a-niche',
    });
    const out = join(dir, 'bad.mp4');
    const run = await render([request, '--out', out]);
    assert.equal(run.code, 2, run.stderr);
    const { error } = JSON.parse(run.stdout.trim()) as {
      error: { code: string; details: { fields: { field: string; valid_values?: string[] }[] } };
    };
    assert.equal(error.code, 'INPUT_INVALID');
    assert.deepEqual(error.details.fields.map((f) => f.field).sort(), ['clip_type', 'duration_sec']);
    assert.ok(error.details.fields.find((f) => f.field === 'clip_type')?.valid_values?.includes('finance'));
    assert.match(run.stderr, /^ {2}duration_sec /m);
    assert.equal(existsSync(out), false);
  });

  void test('a dry run validates and estimates without rendering', async () => {
    const request = await requestFile('dry.json', { topic: 'anything', duration: 45, dry_run: true });
    const run = await render([request, '--out', join(dir, 'dry.mp4')]);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout.trim()) as {
      dry_run: boolean;
      estimate: { durationSec: number };
      warnings: string[];
    };
    assert.equal(summary.dry_run, true);
    assert.equal(summary.estimate.durationSec, 45);
    assert.match(summary.warnings.join(' '), /"duration" is a deprecated alias/);
    assert.equal(existsSync(join(dir, 'dry.mp4')), false);
  });

  void test('--mode validates the body with that mode: a text-to-video dry run, and an unknown mode', async () => {
    const request = await requestFile('t2v.json', {
      prompt: 'A harbour town at sunrise, boats leaving the harbour',
      duration_sec: 10,
      dry_run: true,
    });
    const run = await render([request, '--mode', 'text_to_video', '--out', join(dir, 't2v.mp4')]);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout.trim()) as { dry_run: boolean; estimate: { durationSec: number } };
    assert.equal(summary.dry_run, true);
    assert.equal(summary.estimate.durationSec, 10);

    const unknown = await render([request, '--mode', 'hologram', '--out', join(dir, 'x.mp4')]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no mode "hologram"; modes: .*\btext_to_video\b/);
  });

  void test('usage errors exit 2 with the usage text', async () => {
    const run = await render([]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no request file given/);
    assert.match(run.stderr, /Usage: npm run render/);
  });
});
