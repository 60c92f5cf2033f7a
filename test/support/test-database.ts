import pg from 'pg';
import { randomToken } from '../../src/platform/ids.ts';

/** A fresh, empty database on the test PostgreSQL server (TEST_DATABASE_URL, set by scripts/run-tests.mjs). */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const name = `rs_test_${randomToken(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
