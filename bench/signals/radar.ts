import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createAccount } from '../../src/platform/accounts/accounts.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import {
  REPLAY_REDDIT_CREDENTIALS,
  REPLAY_YOUTUBE_KEY,
  SignalSourcesServer,
} from '../../test/support/signal-sources-server.ts';
import { freePort } from '../../test/support/test-service.ts';
import { benchDatabase } from '../support/bench-database.ts';

// bench/signals/radar: GET /trends/radar against the real server and PostgreSQL on this machine, with every
// trend source (feeds, Hacker News, GDELT, Wikipedia, Reddit, YouTube) replayed by a loopback server.
// - cold: the cache of the key expired, so the request fetches every source, clusters, scores and stores
//   (target ≤ 3 s);
// - cached: 20 connections reading a fresh snapshot, each read charged (target p99 ≤ 20 ms).
// Usage: node --import tsx bench/signals/radar.ts [--seconds 10 --connections 20 --cold-runs 10]

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 10);
const connections = option('connections', 20);
const coldRuns = option('cold-runs', 10);

const db = await benchDatabase();
const replay = await SignalSourcesServer.start();
const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-radar-'));
const feedsFile = join(dataDir, 'feeds.json');
await writeFile(feedsFile, JSON.stringify(replay.feeds()));
const port = await freePort();
const urls = replay.baseUrls;
const server = fork(new URL('../api/bench-server.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RUN_WORKER: '0',
    REELSMITH_ALLOW_LOOPBACK_URLS: '1',
    TRENDS_FEEDS: feedsFile,
    TRENDS_HN_BASE_URL: urls.hackerNews,
    TRENDS_GDELT_BASE_URL: urls.gdelt,
    TRENDS_REDDIT_BASE_URL: urls.reddit,
    TRENDS_WIKIMEDIA_BASE_URL: urls.wikimedia,
    TRENDS_YOUTUBE_BASE_URL: urls.youtube,
    REDDIT_CLIENT_ID: REPLAY_REDDIT_CREDENTIALS.clientId,
    REDDIT_CLIENT_SECRET: REPLAY_REDDIT_CREDENTIALS.clientSecret,
    YOUTUBE_API_KEY: REPLAY_YOUTUBE_KEY,
  },
});
await new Promise<void>((resolve, reject) => {
  server.once('message', () => resolve());
  server.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
const handle = openDatabase(db.url, { max: 2 });
const account = await createAccount(handle.db, 'bench', 1_000_000_000);
const readers = await Promise.all(
  Array.from({ length: connections }, (_, i) => createAccount(handle.db, `reader-${i}`, 1_000_000_000)),
);
const auth = { authorization: `Bearer ${account.live_key}` };

async function radar(path: string): Promise<{ ms: number; cached: boolean; trends: number }> {
  const started = performance.now();
  const response = await fetch(base + path, { headers: auth });
  const body = (await response.json()) as { data?: { trends: unknown[] }; meta: { cached?: boolean } };
  const ms = performance.now() - started;
  if (!body.data) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms, cached: body.meta.cached === true, trends: body.data.trends.length };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// Cold: every run expires the snapshot first, as ten minutes passing would.
const coldPath = '/api/v1/trends/radar?geo=US&min_virality=0';
const cold: number[] = [];
let trendCount = 0;
for (let run = 0; run < coldRuns; run++) {
  await handle.pool.query(`UPDATE trend_cache SET expires_at = now() - interval '1 second'`);
  const result = await radar(coldPath);
  if (result.cached) throw new Error('a cold run was answered from the cache');
  cold.push(result.ms);
  trendCount = result.trends;
}
cold.sort((a, b) => a - b);

// Cached: the snapshot and the build of this window exist; each read still authenticates and is charged.
const cachedPath = '/api/v1/trends/radar?geo=US';
await radar(cachedPath);
interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
}
async function load(name: string, options: Partial<autocannon.Options>): Promise<Row> {
  const result = await autocannon({ url: base + cachedPath, connections, duration: seconds, ...options });
  if (result.non2xx > 0) console.error(name, 'status codes', JSON.stringify(result.statusCodeStats));
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}
let next = 0;
const rows = [
  await load('cached radar, sandbox key (nothing charged)', {
    headers: { authorization: `Bearer ${account.sandbox_key}` },
  }),
  await load('cached radar, one account', { headers: auth }),
  await load(`cached radar, ${connections} accounts`, {
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { authorization: `Bearer ${readers[next++ % readers.length]!.live_key}` },
        }),
      },
    ],
  }),
];
const charged = await handle.pool.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'charge' AND reason = 'trends_radar_cached read'`,
);

await handle.close();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await replay.close();
await db.stop();
await rm(dataDir, { recursive: true, force: true });

const round = (ms: number) => Math.round(ms);
console.log(
  `\nGET /trends/radar, server + PostgreSQL (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded'}) + replayed sources on this machine\n`,
);
console.log(
  `cold (all 6 sources fetched, ${trendCount} trends built and stored), ${coldRuns} runs: ` +
    `p50 ${round(percentile(cold, 50))} ms, max ${round(cold.at(-1)!)} ms (target ≤ 3000 ms)`,
);
console.log(`\ncached, ${connections} connections, ${seconds} s each (target p99 ≤ 20 ms):\n`);
console.log('| scenario | req/s | p50 ms | p99 ms | max ms | requests | non-2xx |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.requests} | ${r.non2xx} |`,
  );
console.log(`\ncached reads charged in the ledger: ${charged.rows[0]!.n}`);
