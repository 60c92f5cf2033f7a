import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createAccount, type CreatedAccount } from '../../src/platform/accounts/accounts.ts';
import { openDatabase, type Db } from '../../src/platform/db/database.ts';
import { freePort } from '../../test/support/test-service.ts';
import { benchDatabase, type BenchDatabase } from '../support/bench-database.ts';
import { describeLoad, watchMachineLoad, type LoadReport } from '../support/machine-load.ts';

// bench/scale (issue 15 item 6).
//
//   npm run bench:scale [-- --seconds 10 --connections 20]
//     Throughput of paid acceptances and job reads with one API process, then with two API processes on the
//     same PostgreSQL (load split evenly), and the ratio. On a 2-core machine the two processes, PostgreSQL and
//     the load generator share the same two cores, so the ratio says how much a second process helps here.
//   npm run bench:scale -- --soak [--minutes 30 --rate 10 --renders 1 --drain 10]
//     Mixed traffic for --minutes against the real product (2 API processes with RUN_WORKER=0, 1 worker, one
//     PostgreSQL): job reads and dry runs at --rate requests/s in total, small real renders (15 s stock
//     videos, at most --renders open at once) each with a webhook to a local receiver. Samples RSS and open file
//     descriptors of every process every 10 s; counts 5xx answers, failed connections, and jobs still open
//     --drain minutes after the traffic stopped (stuck).

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '10' },
    renders: { type: 'string', default: '1' },
    drain: { type: 'string', default: '10' },
  },
});

const root = new URL('../..', import.meta.url).pathname;
const LOOSE_LIMITS = { JOB_READS_PER_MINUTE: '100000000', METADATA_READS_PER_MINUTE: '100000000' };

interface Service {
  name: string;
  process: ChildProcess;
  url: string | undefined;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const done = exited(child);
  if ((await Promise.race([done, sleep(60_000, 'timeout')])) === 'timeout') child.kill('SIGKILL');
  await done;
}

/** The API under the throughput benchmark: bench/api's server (the real platform with a stand-in mode, no worker). */
async function benchApi(name: string, env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = fork(join(root, 'bench/api/bench-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', RUN_WORKER: '0' },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
  });
  return { name, process: child, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/** A process of the product itself (`npm start` with RUN_WORKER=0, or `npm run worker`). */
async function productProcess(name: string, script: 'serve' | 'worker', env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Read continuously: a full pipe would stall the process.
  const started = new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (/"msg":"(Reelsmith is serving|worker started)"/.test(output)) resolve();
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}: ${output}`)));
  });
  await started;
  const url = script === 'serve' ? `http://127.0.0.1:${port}` : undefined;
  return { name, process: child, url, stop: () => stopChild(child) } satisfies Service;
}

async function accounts(url: string, count: number): Promise<CreatedAccount[]> {
  const handle = openDatabase(url, { max: 2 });
  try {
    return await Promise.all(
      Array.from({ length: count }, (_, i) =>
        createAccount(handle.db, `scale-${i}-${Date.now()}`, 1_000_000_000),
      ),
    );
  } finally {
    await handle.close();
  }
}

const bearer = (account: CreatedAccount) => ({
  authorization: `Bearer ${account.live_key}`,
  'content-type': 'application/json',
});

// ---------------------------------------------------------------------------------------------------------
// Throughput: one API process versus two.

interface Measured {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

let acceptance = 0;
function cannon(
  url: string,
  kind: 'accept' | 'read',
  payers: CreatedAccount[],
  jobId: string,
  connections: number,
) {
  const seconds = Number(values.seconds);
  if (kind === 'read')
    return autocannon({
      url: `${url}/api/v1/jobs/${jobId}`,
      connections,
      duration: seconds,
      headers: bearer(payers[0]!),
    });
  return autocannon({
    url: `${url}/api/v1/generate-and-post`,
    connections,
    duration: seconds,
    method: 'POST',
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          acceptance++;
          return {
            ...request,
            headers: {
              ...bearer(payers[acceptance % payers.length]!),
              'idempotency-key': `scale-${process.pid}-${acceptance}`,
            },
            body: JSON.stringify({ topic: `scale ${acceptance}` }),
          };
        },
      },
    ],
  });
}

async function measure(
  urls: string[],
  kind: 'accept' | 'read',
  payers: CreatedAccount[],
  jobId: string,
): Promise<Measured & { load: LoadReport }> {
  const total = Number(values.connections);
  const watch = watchMachineLoad(['postgres']);
  const results = await Promise.all(
    urls.map((url) => cannon(url, kind, payers, jobId, Math.max(1, Math.round(total / urls.length)))),
  );
  const load = watch.finish();
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    load,
  };
}

async function throughput(db: BenchDatabase, dataDir: string): Promise<void> {
  const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, ...LOOSE_LIMITS };
  const first = await benchApi('api-1', env);
  const payers = await accounts(db.url, 25);
  const seed = await fetch(`${first.url}/api/v1/generate-and-post`, {
    method: 'POST',
    headers: { ...bearer(payers[0]!), 'idempotency-key': `scale-seed-${Date.now()}` },
    body: JSON.stringify({ topic: 'seed' }),
  });
  const jobId = ((await seed.json()) as { data: { job_id: string } }).data.job_id;

  const rows: { scenario: string; processes: number; m: Measured & { load: LoadReport } }[] = [];
  for (const kind of ['accept', 'read'] as const)
    rows.push({ scenario: kind, processes: 1, m: await measure([first.url!], kind, payers, jobId) });
  const second = await benchApi('api-2', env);
  for (const kind of ['accept', 'read'] as const)
    rows.push({
      scenario: kind,
      processes: 2,
      m: await measure([first.url!, second.url!], kind, payers, jobId),
    });
  await second.stop();
  await first.stop();

  console.log(
    `\n${values.seconds} s per run, ${values.connections} connections in total (split evenly over the processes), one PostgreSQL\n`,
  );
  console.log('| scenario | API processes | req/s | p99 ms | non-2xx | errors | machine |');
  console.log('|---|---|---|---|---|---|---|');
  const label = { accept: 'paid acceptances (25 accounts)', read: 'job reads (GET /jobs/{id})' };
  for (const { scenario, processes, m } of rows)
    console.log(
      `| ${label[scenario as 'accept' | 'read']} | ${processes} | ${Math.round(m.rps)} | ${m.p99} | ${m.non2xx} | ${m.errors} | ${m.load.quiet ? 'quiet' : `LOADED: others used ${m.load.otherCores.toFixed(2)} of ${m.load.cores} cores`} |`,
    );
  for (const kind of ['accept', 'read'] as const) {
    const one = rows.find((r) => r.scenario === kind && r.processes === 1)!.m.rps;
    const two = rows.find((r) => r.scenario === kind && r.processes === 2)!.m.rps;
    console.log(`${label[kind]}: two processes / one = ${(two / one).toFixed(2)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Soak: mixed traffic against the product for --minutes.

interface Sample {
  at: number;
  rssMb: number;
  fds: number;
}

async function sampleProcess(pid: number): Promise<Sample | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    const fds = (await readdir(`/proc/${pid}/fd`)).length;
    return { at: Date.now(), rssMb: rssKb / 1024, fds };
  } catch {
    return undefined;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Receives the jobs' webhooks: counts them per job id (the body's data names the job). */
async function webhookReceiver(): Promise<{ server: Server; url: string; received: Map<string, number> }> {
  const received = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const jobId = /"job_?[iI]d"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? 'unknown';
      received.set(jobId, (received.get(jobId) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function soak(db: BenchDatabase, dataDir: string): Promise<void> {
  const minutes = Number(values.minutes);
  const rate = Number(values.rate);
  const maxOpenRenders = Number(values.renders);
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    LIBRARY_SEED: 'on_demand',
    REELSMITH_ALLOW_LOOPBACK_URLS: '1',
    ...LOOSE_LIMITS,
  };
  const receiver = await webhookReceiver();
  const apiA = await productProcess('api-a', 'serve', { ...env, RUN_WORKER: '0' });
  const apiB = await productProcess('api-b', 'serve', { ...env, RUN_WORKER: '0' });
  const worker = await productProcess('worker', 'worker', { ...env, WORKER_CONCURRENCY: '1' });
  const services = [apiA, apiB, worker];
  const apis = [apiA.url!, apiB.url!];
  const [account] = await accounts(db.url, 1);
  const headers = bearer(account!);
  const handle = openDatabase(db.url, { max: 2 });
  let openRenders = 0;
  let openCheckedAt = 0;

  const counts = { requests: 0, status5xx: 0, connectionErrors: 0, dryRuns: 0, reads: 0, renders: 0 };
  const renderJobs: string[] = [];
  const knownJobs: string[] = [];
  let n = 0;
  const send = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const url = apis[n++ % apis.length]!;
    counts.requests++;
    try {
      const response = await fetch(url + path, {
        method,
        headers: { ...headers, ...extra },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 500) {
        counts.status5xx++;
        console.error(`${method} ${path} → ${response.status}: ${text.slice(0, 300)}`);
      }
      return { status: response.status, text };
    } catch (error) {
      counts.connectionErrors++;
      console.error(`${method} ${path} failed: ${(error as Error).message}`);
      return undefined;
    }
  };
  const renderBody = (i: number) => ({
    topic: `soak render ${i}: why small habits compound`,
    duration_sec: 15,
    webhook_url: receiver.url,
  });

  const samples = new Map<string, Sample[]>(services.map((s) => [s.name, []]));
  const sampleAll = async () => {
    for (const s of services) {
      const sample = await sampleProcess(s.process.pid!);
      if (sample) samples.get(s.name)!.push(sample);
    }
  };
  await sampleAll();
  const sampler = setInterval(() => void sampleAll(), 10_000);

  const watch = watchMachineLoad(['postgres', 'ffmpeg', 'espeak-ng']);
  const end = Date.now() + minutes * 60_000;
  const interval = 1000 / rate;
  let next = Date.now();
  let i = 0;
  while (Date.now() < end) {
    i++;
    if (Date.now() - openCheckedAt > 2000) {
      openRenders = await openRenderJobs(handle.db, renderJobs);
      openCheckedAt = Date.now();
    }
    if (openRenders < maxOpenRenders) {
      openRenders++;
      const answer = await send('POST', '/api/v1/generate-and-post', renderBody(i), {
        'idempotency-key': `soak-render-${process.pid}-${i}`,
      });
      const jobId = answer && /"job_id":"([^"]+)"/.exec(answer.text)?.[1];
      if (jobId) {
        renderJobs.push(jobId);
        knownJobs.push(jobId);
        counts.renders++;
      }
    } else if (i % 3 === 0 || knownJobs.length === 0) {
      await send('POST', '/api/v1/generate-and-post', { ...renderBody(i), dry_run: true });
      counts.dryRuns++;
    } else {
      await send('GET', `/api/v1/jobs/${knownJobs[i % knownJobs.length]}`);
      counts.reads++;
    }
    next += interval;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    else next = Date.now();
  }
  const load = watch.finish();

  // No new traffic: the renders still open get --drain minutes to end; what does not is stuck.
  const drainUntil = Date.now() + Number(values.drain) * 60_000;
  while ((await openRenderJobs(handle.db, renderJobs)) > 0 && Date.now() < drainUntil) await sleep(2000);
  await sleep(5000);
  clearInterval(sampler);
  await sampleAll();

  const jobs = await handle.db
    .selectFrom('jobs')
    .select(['id', 'status', 'error'])
    .where('id', 'in', renderJobs.length > 0 ? renderJobs : [''])
    .execute();
  await handle.close();
  const byStatus = new Map<string, number>();
  for (const job of jobs) byStatus.set(job.status, (byStatus.get(job.status) ?? 0) + 1);
  const stuck = jobs.filter((j) => !['completed', 'failed', 'dead_lettered', 'cancelled'].includes(j.status));
  const ended = jobs.filter((j) => !stuck.includes(j));
  const missingHooks = ended.filter((j) => !receiver.received.has(j.id));

  for (const s of services) await s.stop();
  receiver.server.closeAllConnections();
  receiver.server.close();

  console.log(`\nSoak: ${minutes} min of mixed traffic, 2 API processes + 1 worker on one PostgreSQL`);
  console.log(describeLoad(load));
  console.log(
    `requests ${counts.requests} (job reads ${counts.reads}, dry runs ${counts.dryRuns}, renders ${counts.renders}); 5xx ${counts.status5xx}; connection errors ${counts.connectionErrors}`,
  );
  console.log(
    `render jobs: ${[...byStatus].map(([status, count]) => `${status} ${count}`).join(', ') || 'none'}; stuck ${stuck.length}; ended without a webhook ${missingHooks.length}`,
  );
  for (const j of jobs.filter((job) => job.status !== 'completed'))
    console.log(`  ${j.id} ${j.status} ${JSON.stringify(j.error)}`);
  console.log(
    '\n| process | RSS MB first / median first quarter / median last quarter / max | open fds first / median first quarter / median last quarter / max | flat |',
  );
  console.log('|---|---|---|---|');
  let allFlat = true;
  for (const [name, series] of samples) {
    const quarter = Math.max(1, Math.floor(series.length / 4));
    const rss = series.map((s) => s.rssMb);
    const fds = series.map((s) => s.fds);
    const [rssEarly, rssLate] = [median(rss.slice(0, quarter)), median(rss.slice(-quarter))];
    const [fdsEarly, fdsLate] = [median(fds.slice(0, quarter)), median(fds.slice(-quarter))];
    // Flat: the last quarter's typical value is within 10 % (RSS) or 5 descriptors of the first quarter's.
    const flat = rssLate <= rssEarly * 1.1 && fdsLate <= fdsEarly + 5;
    allFlat &&= flat;
    console.log(
      `| ${name} | ${rss[0]?.toFixed(0)} / ${rssEarly.toFixed(0)} / ${rssLate.toFixed(0)} / ${Math.max(...rss).toFixed(0)} | ${fds[0]} / ${fdsEarly} / ${fdsLate} / ${Math.max(...fds)} | ${flat ? 'yes' : 'NO'} |`,
    );
  }
  const passed = allFlat && counts.status5xx === 0 && counts.connectionErrors === 0 && stuck.length === 0;
  console.log(
    `\nverdict: memory and descriptors ${allFlat ? 'flat' : 'NOT flat'}, ${counts.status5xx} 5xx, ${stuck.length} stuck — ${passed ? 'passed' : 'FAILED'}${minutes < 30 ? ` (a ${minutes}-minute run is a smoke run, too short to judge)` : ''}`,
  );
}

/** How many of `jobIds` are still open (queued or rendering). */
async function openRenderJobs(db: Db, jobIds: string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('id', 'in', jobIds)
    .where('status', 'in', ['queued', 'leased', 'running', 'uploading'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const db = await benchDatabase();
const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-scale-'));
try {
  if (values.soak) await soak(db, dataDir);
  else await throughput(db, dataDir);
} finally {
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}
