import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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
// Usage: npm run bench:api [-- --seconds 10 --connections N --only reads,dry,single,accounts]

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
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]!.split(',')) : undefined;
const wanted = (scenario: string) => !only || only.has(scenario);

const db = await benchDatabase();
const port = await freePort();
const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-'));
const server = fork(new URL('./bench-server.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
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
const serverPid = server.pid!;
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

/** utime + stime (+ cutime + cstime with `reaped`) of a process, in seconds; 0 once it is gone. */
function cpuOf(pid: number, reaped: boolean): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the PostgreSQL processes this benchmark started (the postmaster counts its exited backends). */
function postgresCpu(): number {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      names.set(Number(entry), text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')));
      parents.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      continue;
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, name] of names) if (name === 'postgres' && ours(pid)) total += cpuOf(pid, true);
  return total;
}

async function serverRoundTrips(): Promise<number> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      const count = (message as { roundTrips?: number }).roundTrips;
      if (count === undefined) return;
      server.off('message', listener);
      resolve(count);
    };
    server.on('message', listener);
    server.send('round-trips');
  });
}

/** What one request cost: CPU microseconds of the server process and of PostgreSQL, and statements sent. */
interface Cost {
  serverUs: number;
  postgresUs: number;
  roundTrips: number;
}

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
  cost: Cost;
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
  const before = {
    server: cpuOf(serverPid, false),
    postgres: postgresCpu(),
    trips: await serverRoundTrips(),
  };
  const result = await autocannon({ url: base + path, connections, duration: seconds, ...options });
  const after = { server: cpuOf(serverPid, false), postgres: postgresCpu(), trips: await serverRoundTrips() };
  const load = watch.finish();
  const total = Math.max(1, result.requests.total);
  const cost = {
    serverUs: ((after.server - before.server) * 1e6) / total,
    postgresUs: ((after.postgres - before.postgres) * 1e6) / total,
    roundTrips: (after.trips - before.trips) / total,
  };
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
    cost,
  };
  return { ...row, target: judged(row, target) };
}

const rows: Row[] = [];
if (wanted('reads'))
  rows.push(
    await run(
      'job reads (GET /jobs/{id})',
      `/api/v1/jobs/${jobId}`,
      readConnections,
      { method: 'GET', headers: auth },
      { rps: 6000, p99: 15 },
    ),
  );
if (wanted('dry'))
  rows.push(
    await run('dry runs (POST, dry_run: true)', '/api/v1/generate-and-post', readConnections, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ topic: 'dry', dry_run: true }),
    }),
  );
let n = 0;
let single = 0;
if (wanted('single'))
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
if (wanted('accounts'))
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
console.log(
  '| scenario | connections | req/s | p50 ms | p99 ms | requests | non-2xx | server CPU µs/req | PostgreSQL CPU µs/req | round trips/req | target |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.connections} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.non2xx} | ` +
      `${Math.round(r.cost.serverUs)} | ${Math.round(r.cost.postgresUs)} | ${r.cost.roundTrips.toFixed(2)} | ${r.target} |`,
  );
