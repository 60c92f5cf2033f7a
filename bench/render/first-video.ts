import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeDataDir } from '../../test/support/embedded-instance.ts';
import { freePort } from '../../test/support/test-service.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';

// bench/render/first-video (issue 8 item 12): how long the first video of a fresh install takes while the
// built-in library is generated in the background.
//
//   node --import tsx bench/render/first-video.ts [--seconds 30] [--root DIR] [--keep]
//
// An empty DATA_DIR and no DATABASE_URL, so the service creates its embedded PostgreSQL as on a fresh install;
// the service started as `npm start` starts it (the compiled build/cli/serve.js, built first as `npm ci` does;
// LIBRARY_SEED=background), and one stock video requested the moment the service prints its key. Issue 18's
// target is from the start of the service to the job's `completed`. `--root` starts the service of another
// checkout (e.g. an export of an earlier commit, with node_modules linked in; one without scripts/build.mjs
// runs its TypeScript through tsx) to measure the behaviour before a change.

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    root: { type: 'string', default: resolve(import.meta.dirname, '../..') },
    keep: { type: 'boolean', default: false },
  },
});
if (process.env.DATABASE_URL) throw new Error('this benchmark needs a fresh database: unset DATABASE_URL');
const buildScript = join(values.root, 'scripts', 'build.mjs');
const compiled = existsSync(buildScript);
if (compiled && spawnSync(process.execPath, [buildScript], { stdio: 'inherit' }).status !== 0)
  throw new Error('scripts/build.mjs failed');

const REQUEST = {
  topic: 'how compound interest grows savings',
  duration_sec: Number(values.seconds),
  content_purpose: 'education',
  brand: { name: 'Acme Savings', accent_color: '#22C55E' },
  progress_bar: { enabled: true, position: 'top' },
};

interface JobView {
  status: string;
  progress: { at: string; stage: string }[];
  error: unknown;
}

const fmt = (n: number) => n.toFixed(1);
const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-first-video-'));
const port = await freePort();
const service = spawn(
  process.execPath,
  compiled ? ['build/cli/serve.js'] : ['--import', 'tsx', 'src/cli/serve.ts'],
  {
    cwd: values.root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LIBRARY_SEED: 'background',
      LOG_LEVEL: 'warn',
      // Polled four times a second.
      JOB_READS_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const exited = once(service, 'exit');
try {
  const startedAt = performance.now();
  // The service's own PostgreSQL is part of what a first start costs.
  const watch = watchMachineLoad(['postgres']);
  const key = await new Promise<string>((resolveKey, reject) => {
    let out = '';
    service.stdout.setEncoding('utf8');
    service.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /live key:\s+(\S+)/.exec(out);
      if (match) resolveKey(match[1]!);
    });
    service.once('exit', (code) => reject(new Error(`the service exited (${code}) before printing its key`)));
  });
  console.log(`${values.root}: service up in ${fmt((performance.now() - startedAt) / 1000)} s (${dataDir})`);
  const api = `http://127.0.0.1:${port}/api/v1`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const requestedAt = performance.now();
  const receipt = await fetch(`${api}/generate-and-post`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `first-video-${Date.now()}` },
    body: JSON.stringify(REQUEST),
  });
  const accepted = (await receipt.json()) as { data?: { job_id: string } };
  if (receipt.status !== 202 || !accepted.data) throw new Error(`not accepted: ${JSON.stringify(accepted)}`);
  let job: JobView;
  for (;;) {
    const answer = await fetch(`${api}/jobs/${accepted.data.job_id}`, { headers });
    if (answer.status !== 200) throw new Error(`job read answered ${answer.status}: ${await answer.text()}`);
    job = ((await answer.json()) as { data: { job: JobView } }).data.job;
    if (['completed', 'failed', 'dead_lettered', 'cancelled'].includes(job.status)) break;
    await sleep(250);
  }
  const seconds = (performance.now() - requestedAt) / 1000;
  const sinceStart = (performance.now() - startedAt) / 1000;
  const loadReport = watch.finish();
  if (job.status !== 'completed')
    throw new Error(`the job ended ${job.status}: ${JSON.stringify(job.error)}`);
  const stages = job.progress.map(({ stage, at }, i) => {
    const next = job.progress[i + 1]?.at;
    return `${stage} ${next ? fmt((Date.parse(next) - Date.parse(at)) / 1000) : '-'}`;
  });
  const made = await readdir(join(dataDir, 'library', 'footage')).catch(() => [] as string[]);
  console.log(`stages (s): ${stages.join(', ')}`);
  console.log(
    `first ${REQUEST.duration_sec} s video completed ${fmt(seconds)} s after the request, ${fmt(sinceStart)} s after ` +
      `the service was started (target ≤ 45 s: ${verdict(sinceStart <= 45, loadReport)}; ` +
      `${made.filter((f) => f.endsWith('.mp4')).length} footage clips in the library by then)`,
  );
  console.log(describeLoad(loadReport));
  console.log(
    JSON.stringify({
      root: values.root,
      first_video_sec: Math.round(seconds * 10) / 10,
      since_start_sec: Math.round(sinceStart * 10) / 10,
      quiet: loadReport.quiet,
    }),
  );
} finally {
  service.kill('SIGTERM');
  await exited;
  if (!values.keep) await removeDataDir(dataDir);
}
