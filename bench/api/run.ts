import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createAccount } from '../../src/platform/accounts/accounts.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { freePort } from '../../test/support/test-service.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { describeLoad, verdict, watchMachineLoad, type LoadReport } from '../support/machine-load.ts';

// bench/api: job reads, dry runs and paid acceptances against the real server and PostgreSQL on this machine.
// Usage: npm run bench:api [-- --seconds 10 --connections N]

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 10);
// Past saturation more connections only queue (latency = connections / throughput), so each scenario runs at
// the concurrency where it reaches its throughput: reads at 20, paid acceptances at 12. --connections overrides.
const override = args.includes('--connections') ? option('connections', 20) : undefined;
const readConnections = override ?? 20;
const writeConnections = override ?? 12;

const db = await benchDatabase();
const port = await freePort();
const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-'));
const server = fork(new URL('./bench-server.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RUN_WORKER: '0',
    // Raised so the benchmark measures the server, not the per-key limiter's 429s.
    JOB_READS_PER_MINUTE: '100000000',
    METADATA_READS_PER_MINUTE: '100000000',
  },
});
await new Promise<void>((resolve, reject) => {
  server.once('message', () => resolve());
  server.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
const handle = openDatabase(db.url, { max: 2 });
const account = await createAccount(handle.db, 'bench', 1_000_000_000);
// Paid acceptances of one account are serialized by its balance lock (each waits for the previous commit's
// WAL flush), so the acceptance benchmark spreads the load over many accounts, as real traffic is.
const payers = await Promise.all(
  Array.from({ length: 25 }, (_, i) => createAccount(handle.db, `payer-${i}`, 1_000_000_000)),
);
await handle.close();
const auth = { authorization: `Bearer ${account.live_key}`, 'content-type': 'application/json' };

const seed = await fetch(`${base}/api/v1/generate-and-post`, {
  method: 'POST',
  headers: { ...auth, 'idempotency-key': 'bench-seed-0001' },
  body: JSON.stringify({ topic: 'seed' }),
});
const seeded = (await seed.json()) as { data?: { job_id: string } };
if (!seeded.data) throw new Error(`seeding the benchmark failed: ${JSON.stringify(seeded)}`);
const jobId = seeded.data.job_id;

interface Row {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
  target: string;
  load: LoadReport;
}
/** Issue 18's targets; a scenario without one is reported only. */
interface Target {
  rps: number;
  p99?: number;
}
function judged(row: Omit<Row, 'target'>, target: Target | undefined): string {
  if (!target) return '—';
  const met = row.rps >= target.rps && (target.p99 === undefined || row.p99 <= target.p99);
  const goal = `≥ ${target.rps} req/s${target.p99 === undefined ? '' : `, p99 ≤ ${target.p99} ms`}`;
  return `${goal} — ${verdict(met, row.load)}`;
}
async function run(
  name: string,
  path: string,
  connections: number,
  options: Partial<autocannon.Options>,
  target?: Target,
): Promise<Row> {
  // The server, its PostgreSQL and this load generator are the system measured; anything else is load.
  const watch = watchMachineLoad(['postgres']);
  const result = await autocannon({ url: base + path, connections, duration: seconds, ...options });
  const load = watch.finish();
  console.log(`${name}: ${describeLoad(load)}`);
  if (result.non2xx > 0) console.error(name, 'status codes', JSON.stringify(result.statusCodeStats));
  const row = {
    name,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    requests: result.requests.total,
    load,
  };
  return { ...row, target: judged(row, target) };
}

const rows: Row[] = [];
rows.push(
  await run(
    'job reads (GET /jobs/{id})',
    `/api/v1/jobs/${jobId}`,
    readConnections,
    { method: 'GET', headers: auth },
    { rps: 6000, p99: 15 },
  ),
);
rows.push(
  await run('dry runs (POST, dry_run: true)', '/api/v1/generate-and-post', readConnections, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ topic: 'dry', dry_run: true }),
  }),
);
let n = 0;
let single = 0;
rows.push(
  await run(
    'paid acceptances, one account (unique keys)',
    '/api/v1/generate-and-post',
    writeConnections,
    {
      method: 'POST',
      requests: [
        {
          setupRequest: (request: autocannon.Request) => {
            single++;
            return {
              ...request,
              headers: { ...auth, 'idempotency-key': `single-${process.pid}-${single}` },
              body: JSON.stringify({ topic: `single ${single}` }),
            };
          },
        },
      ],
    },
    { rps: 300 },
  ),
);
rows.push(
  await run(
    'paid acceptances, 25 accounts (unique keys)',
    '/api/v1/generate-and-post',
    writeConnections,
    {
      method: 'POST',
      headers: auth,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => {
            n++;
            const payer = payers[n % payers.length]!;
            return {
              ...request,
              headers: {
                authorization: `Bearer ${payer.live_key}`,
                'content-type': 'application/json',
                'idempotency-key': `bench-${process.pid}-${n}`,
              },
              body: JSON.stringify({ topic: `paid ${n}` }),
            };
          },
        },
      ],
    },
    { rps: 600, p99: 60 },
  ),
);

server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await db.stop();
await rm(dataDir, { recursive: true, force: true });

console.log(
  `\n${seconds} s per scenario, server + PostgreSQL on this machine (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'})\n`,
);
console.log('| scenario | connections | req/s | p50 ms | p99 ms | requests | non-2xx | target |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.connections} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.non2xx} | ${r.target} |`,
  );
