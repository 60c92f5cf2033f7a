#!/usr/bin/env node
// Runs every test file with Node's test runner. Integration tests need PostgreSQL: with DATABASE_URL set
// they use that server; otherwise this script starts an embedded PostgreSQL for the run and removes it after.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { tsImport } from 'tsx/esm/api';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const files = ['src', 'test']
  .flatMap((dir) => findTests(join(root, dir)))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();

// The tests that start the service as an operator does run the compiled build/ (`npm start`'s code).
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let embedded;
let embeddedDir;
const env = { ...process.env };
if (!env.TEST_DATABASE_URL) {
  if (env.DATABASE_URL) {
    env.TEST_DATABASE_URL = env.DATABASE_URL;
  } else {
    // The service's own embedded PostgreSQL (src/platform/db), so tests run wherever `npm start` runs.
    const { startEmbeddedPostgres } = await tsImport(
      '../src/platform/db/embedded-postgres.ts',
      import.meta.url,
    );
    embeddedDir = mkdtempSync(join(tmpdir(), 'reelsmith-test-pg-'));
    embedded = await startEmbeddedPostgres(embeddedDir, undefined, {
      max_connections: '400',
      fsync: 'off',
      synchronous_commit: 'off',
    });
    env.TEST_DATABASE_URL = embedded.connectionString;
  }
}
delete env.DATABASE_URL;
// Generated stock footage and music are shared by every test file of the run (made once, on first need).
env.LIBRARY_SEED = 'on_demand';
env.TEST_LIBRARY_DIR ??= join(root, '.test-cache', 'library');

const concurrency = Number(env.TEST_CONCURRENCY ?? 2);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { cwd: root, env, stdio: 'inherit' },
);
// Interrupted, the tests end first, so that the database is still stopped and removed below.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (embedded) {
  await embedded.stop().catch(() => {});
  rmSync(embedded.clusterDir, { recursive: true, force: true });
  rmSync(embeddedDir, { recursive: true, force: true });
}
process.exit(code);
