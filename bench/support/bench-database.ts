import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** DATABASE_URL when set, else a throw-away embedded PostgreSQL (the service's own) with an empty `bench` database. */
export async function benchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-pg-'));
  const server = await startEmbeddedPostgres(dir, undefined, { max_connections: '300' });
  const admin = new pg.Client({ connectionString: server.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const url = new URL(server.connectionString);
  url.pathname = '/bench';
  return {
    url: url.toString(),
    stop: async () => {
      await server.stop();
      await rm(server.clusterDir, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
