import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The public routes the Studio page needs besides the contract's (docs/studio.md): GET /jobs, GET /ledger and
// the API keys; and the page's own files, served from src/studio/public and node_modules with their types.

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

const submit = (body: Record<string, unknown>, key?: string) =>
  service.call('POST', '/api/v1/generate-and-post', {
    body,
    headers: { 'idempotency-key': `studio-${Math.random()}` },
    ...(key ? { key } : {}),
  });

void describe('GET /api/v1/jobs', () => {
  void test('lists the account’s jobs newest first, with progress, price and a stream for open ones', async () => {
    const account = await service.newAccount();
    const done = await submit({ topic: 'first' }, account.live_key);
    await waitForJob(service, done.body.data.job_id, { key: account.live_key });
    const slow = await submit({ topic: 'second', outcome: 'sleep', sleep_ms: 60_000 }, account.live_key);
    const list = await service.call('GET', '/api/v1/jobs', { key: account.live_key });
    assert.equal(list.status, 200, list.text);
    const jobs = list.body.data.jobs;
    assert.deepEqual(
      jobs.map((j: any) => j.id),
      [slow.body.data.job_id, done.body.data.job_id],
    );
    const [open, finished] = jobs;
    assert.equal(finished.status, 'completed');
    assert.equal(finished.title, 'About first');
    assert.equal(finished.price_usd_cents, 60);
    assert.equal(finished.operation, 'test_video');
    assert.equal(finished.progress.percent, 100);
    assert.equal(finished.websocket_url, undefined);
    assert.equal(finished.listing, 'private');
    assert.ok(open.websocket_url, 'an open job carries its progress stream');
    // The stream it names works: history arrives at once.
    const socket = new WebSocket(open.websocket_url);
    const first = await new Promise<any>((resolve, reject) => {
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      socket.once('error', reject);
    });
    socket.close();
    assert.equal(first.job_id, open.id);
    assert.equal(first.status, 'queued');
    const page = await service.call('GET', '/api/v1/jobs?limit=1', { key: account.live_key });
    assert.equal(page.body.data.jobs.length, 1);
    assert.equal(page.body.data.next_before, open.id);
    const next = await service.call('GET', `/api/v1/jobs?limit=1&before=${open.id}`, {
      key: account.live_key,
    });
    assert.deepEqual(
      next.body.data.jobs.map((j: any) => j.id),
      [finished.id],
    );
    await service.call('POST', `/api/v1/jobs/${open.id}/cancel`, { key: account.live_key });
    const other = await service.call('GET', '/api/v1/jobs', { key: (await service.newAccount()).live_key });
    assert.deepEqual(other.body.data.jobs, [], 'another account sees none of them');
    const bad = await service.call('GET', '/api/v1/jobs?limit=0', { key: account.live_key });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, 'limit');
  });
});

void describe('GET /api/v1/ledger', () => {
  void test('entries newest first with the balance each left and the mode of its job; a refund follows a failure', async () => {
    const account = await service.newAccount(10_000);
    const failed = await submit({ topic: 'doomed', outcome: 'fail' }, account.live_key);
    await waitForJob(service, failed.body.data.job_id, { key: account.live_key });
    const ledger = await service.call('GET', '/api/v1/ledger', { key: account.live_key });
    assert.equal(ledger.status, 200, ledger.text);
    const entries = ledger.body.data.entries;
    assert.deepEqual(
      entries.map((e: any) => [e.kind, e.amount_usd_cents, e.balance_after_usd_cents, e.mode]),
      [
        ['refund', 60, 10_000, 'test_video'],
        ['charge', -60, 9_940, 'test_video'],
        ['top_up', 10_000, 10_000, null],
      ],
    );
    assert.equal(entries[0].job_id, failed.body.data.job_id);
  });
});

void describe('API keys', () => {
  void test('a live key lists, creates (shown once) and revokes keys; a revoked key stops at once', async () => {
    const account = await service.newAccount();
    const listed = await service.call('GET', '/api/v1/keys', { key: account.live_key });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.keys.length, 2);
    assert.ok(listed.text.indexOf(account.live_key) === -1, 'keys are never shown again');
    assert.ok(listed.body.data.keys.some((k: any) => account.live_key.startsWith(k.prefix)));

    const created = await service.call('POST', '/api/v1/keys', {
      key: account.live_key,
      body: { sandbox: true },
    });
    assert.equal(created.status, 201, created.text);
    const fresh = created.body.data.key;
    assert.match(fresh.key, /^svc_test_/);
    assert.equal(fresh.sandbox, true);
    const usage = await service.call('GET', '/api/v1/usage', { key: fresh.key });
    assert.equal(usage.body.data.key_mode, 'sandbox');
    assert.equal(usage.body.data.account_id, account.account_id);
    assert.ok(
      !(await service.call('GET', '/api/v1/keys', { key: account.live_key })).text.includes(fresh.key),
    );

    const refused = await service.call('POST', '/api/v1/keys', { key: fresh.key, body: {} });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'LIVE_KEY_REQUIRED');
    const refusedRevoke = await service.call('DELETE', `/api/v1/keys/${fresh.id}`, { key: fresh.key });
    assert.equal(refusedRevoke.status, 403);

    const foreign = await service.call('DELETE', `/api/v1/keys/${fresh.id}`, {
      key: (await service.newAccount()).live_key,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await service.call('GET', '/api/v1/usage', { key: fresh.key })).status, 200);

    const revoked = await service.call('DELETE', `/api/v1/keys/${fresh.id}`, { key: account.live_key });
    assert.equal(revoked.status, 200, revoked.text);
    assert.ok(revoked.body.data.key.revoked_at);
    const after = await service.call('GET', '/api/v1/usage', { key: fresh.key });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'AUTH_INVALID_API_KEY');
  });
});

void describe('the Studio’s files', () => {
  void test('the page, its modules and uPlot are served with their types; nothing else is', async () => {
    const root = await fetch(`${service.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/studio');
    const page = await fetch(`${service.url}/studio`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    for (const [path, type] of [
      ['/studio/assets/app.js', /^text\/javascript/],
      ['/studio/assets/studio.css', /^text\/css/],
      ['/studio/vendor/uplot/uPlot.esm.js', /^text\/javascript/],
      ['/studio/vendor/uplot/uPlot.min.css', /^text\/css/],
    ] as const) {
      const response = await fetch(service.url + path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      assert.ok((await response.text()).length > 100, path);
    }
    assert.match(html, /\/studio\/assets\/app\.js/);
    assert.match(
      await (await fetch(`${service.url}/studio/vendor/uplot/uPlot.esm.js`)).text(),
      /export \{ uPlot as default \}/,
    );
    for (const path of [
      '/studio/assets/nope.js',
      '/studio/assets/..%2F..%2F..%2Fpackage.json',
      '/studio/vendor/uplot/uPlot.d.ts',
      '/studio/vendor/uplot/..%2Fpackage.json',
    ]) {
      assert.equal((await fetch(service.url + path)).status, 404, path);
    }
  });
});
