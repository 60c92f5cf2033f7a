import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  admin as runAdmin,
  embeddedInstance,
  oneJsonLine,
  removeDataDir,
  startServer as startInstance,
  type Instance,
} from './support/embedded-instance.ts';
import { call } from './support/test-service.ts';

// The embedded default, end to end: `npm start` with no DATABASE_URL initialises PostgreSQL under DATA_DIR,
// creates the default account and prints its keys once; the admin CLI works with the server up and down.

let instance: Instance;
let baseUrl: string;

before(async () => {
  instance = await embeddedInstance(await mkdtemp(join(tmpdir(), 'reelsmith-embedded-')));
  baseUrl = instance.baseUrl;
});

after(async () => {
  await removeDataDir(instance.dataDir);
});

const startServer = () => startInstance(instance);
const admin = (...args: string[]) => runAdmin(instance, args);

void describe('first start and the admin CLI (embedded PostgreSQL)', () => {
  void test('first start creates "default" with 1000 cents and prints its keys once; admin works with the server up and down', async () => {
    const server = startServer();
    await server.ready;
    const live = /live key:\s+(svc_\w+)/.exec(server.output())?.[1];
    const sandbox = /sandbox key:\s+(svc_test_\w+)/.exec(server.output())?.[1];
    assert.ok(live && !live.startsWith('svc_test_'), server.output());
    assert.ok(sandbox);
    const usage = await call(baseUrl, live, 'GET', '/api/v1/usage');
    assert.equal(usage.status, 200);
    assert.equal(usage.body.data.balance_usd_cents, 1000);
    assert.equal((await call(baseUrl, sandbox, 'GET', '/api/v1/usage')).status, 200);

    // Against the running server's database.
    const created = admin('accounts', 'create', '--name', 'acme', '--balance-cents', '2500');
    assert.equal(created.code, 0, created.stderr);
    const account = oneJsonLine(created.stdout);
    assert.deepEqual(Object.keys(account).sort(), ['account_id', 'live_key', 'sandbox_key']);
    assert.match(account.live_key, /^svc_(?!test_)/);
    assert.match(account.sandbox_key, /^svc_test_/);
    assert.equal(
      (await call(baseUrl, account.live_key, 'GET', '/api/v1/usage')).body.data.balance_usd_cents,
      2500,
    );

    const tooSmall = admin('credits', 'add', '--account', account.account_id, '--cents', '999');
    assert.equal(tooSmall.code, 2);
    assert.match(tooSmall.stderr, /minimum top-up is 1000 cents/);
    const topped = oneJsonLine(
      admin('credits', 'add', '--account', account.account_id, '--cents', '1000').stdout,
    );
    assert.equal(topped.balance_cents, 3500);

    const extra = oneJsonLine(admin('keys', 'create', '--account', account.account_id, '--sandbox').stdout);
    assert.match(extra.sandbox_key, /^svc_test_/);
    const shown = oneJsonLine(admin('accounts', 'show', '--account', account.account_id).stdout);
    assert.equal(shown.balance_cents, 3500);
    assert.equal(shown.topped_up_cents, 3500);
    assert.equal(shown.keys.length, 3);

    const prefix = shown.keys.find((k: { sandbox: boolean }) => !k.sandbox).prefix;
    assert.ok(account.live_key.startsWith(prefix));
    const revoked = oneJsonLine(admin('keys', 'revoke', '--key-prefix', prefix).stdout);
    assert.equal(revoked.revoked, 1);
    const refused = await call(baseUrl, account.live_key, 'GET', '/api/v1/usage');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'AUTH_INVALID_API_KEY');

    assert.equal(await server.stop(), 0);

    // With the server stopped, the CLI starts the embedded database itself.
    const offline = admin('accounts', 'show', '--account', account.account_id);
    assert.equal(offline.code, 0, offline.stderr);
    assert.equal(oneJsonLine(offline.stdout).balance_cents, 3500);
    const offlineCreate = oneJsonLine(admin('accounts', 'create', '--name', 'offline').stdout);
    assert.match(offlineCreate.account_id, /^acct_/);

    // A restart keeps the data and prints no new keys.
    const again = startServer();
    await again.ready;
    assert.doesNotMatch(again.output(), /live key:/);
    assert.equal((await call(baseUrl, live, 'GET', '/api/v1/usage')).body.data.balance_usd_cents, 1000);
    assert.equal(await again.stop(), 0);
  });
});
