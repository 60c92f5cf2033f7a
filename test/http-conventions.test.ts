import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createApiKey, revokeKeysByPrefix } from '../src/platform/accounts/accounts.ts';
import { keyPrefix } from '../src/platform/accounts/api-keys.ts';
import { startChildService } from './support/http-child-process.ts';
import { testMode } from './support/test-mode.ts';
import { startTestService, waitForJob, type TestResponse, type TestService } from './support/test-service.ts';

// Spec 1 §5 and §7: envelopes, request ids, error codes and authentication, over real HTTP.

let service: TestService;
before(async () => {
  service = await startTestService({
    modes: [
      testMode(),
      testMode({ name: 'test_public_only', endpoint: 'test/public-only', privateDelivery: false }),
    ],
    env: { BODY_LIMIT_BYTES: '2048' },
    // Jobs run in the child API process of the logging test, so its log shows the worker's lines too.
    worker: false,
  });
});
after(async () => {
  await service.stop();
});

const idem = () => ({ 'idempotency-key': `conv-${randomUUID()}` });

function assertRequestId(response: TestResponse): void {
  assert.equal(typeof response.body?.meta?.request_id, 'string', response.text);
  assert.ok(response.body.meta.request_id.length > 0);
  assert.equal(response.headers.get('x-request-id'), response.body.meta.request_id);
}

function assertSuccess(response: TestResponse, status = 200): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(Object.keys(response.body).sort(), ['data', 'meta', 'success']);
  assert.equal(response.body.success, true);
  assert.ok(response.body.data !== undefined && response.body.data !== null);
  assertRequestId(response);
}

function assertError(response: TestResponse, status: number, code?: string): void {
  assert.equal(response.status, status, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(response.body).sort(), ['error', 'meta', 'success']);
  assert.equal(response.body.success, false);
  const error = response.body.error;
  for (const field of Object.keys(error))
    assert.ok(['code', 'message', 'retryable', 'details'].includes(field), `unexpected error.${field}`);
  if (code) assert.equal(error.code, code);
  else assert.match(error.code, /^[A-Z][A-Z_]+$/);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.equal(typeof error.retryable, 'boolean');
  assert.deepEqual(Object.keys(response.body.meta), ['request_id']);
  assertRequestId(response);
}

async function balance(): Promise<number> {
  return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
}

function fieldNames(response: TestResponse): string[] {
  return response.body.error.details.fields.map((f: { field: string }) => f.field);
}

void describe('envelopes and request ids', () => {
  void test('a success answer is { success: true, data, meta } with meta.request_id echoed in X-Request-Id', async () => {
    const health = await service.call('GET', '/api/v1/health', { key: null });
    assertSuccess(health);
    const capabilities = await service.call('GET', '/api/v1/capabilities');
    assertSuccess(capabilities);
    assert.notEqual(health.body.meta.request_id, capabilities.body.meta.request_id);

    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'envelope' },
      headers: idem(),
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.body.success, true);
    assertRequestId(receipt);
  });

  void test('malformed JSON is 400 INPUT_INVALID in the error envelope', async () => {
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      body: '{"topic": "cut',
      headers: idem(),
    });
    assertError(response, 400, 'INPUT_INVALID');
  });

  void test('an unknown route is a 404 envelope, with and without a key', async () => {
    assertError(await service.call('GET', '/api/v1/no-such-route'), 404);
    assertError(await service.call('GET', '/api/v1/no-such-route', { key: null }), 404);
    assertError(
      await service.call('POST', '/api/v1/videos/no-such-mode', { body: { topic: 'x' }, headers: idem() }),
      404,
    );
    assertError(await service.call('GET', '/no-prefix-at-all', { key: null }), 404);
    assertError(await service.call('GET', '/api/v1/jobs/job_doesnotexist000000000'), 404);
  });

  void test('a body over BODY_LIMIT_BYTES is a 413 envelope', async () => {
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'x'.repeat(400), style: 'plain', padding: 'y'.repeat(3000) },
      headers: idem(),
    });
    assertError(response, 413);
  });

  void test('a validation error names every offending field, with valid_values for enums, and charges nothing', async () => {
    const before = await balance();
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: '', style: 'neon', outcome: 'explode', duration_sec: 500 },
      headers: idem(),
    });
    assertError(response, 400, 'INPUT_INVALID');
    const fields = response.body.error.details.fields as {
      field: string;
      message: string;
      valid_values?: string[];
    }[];
    assert.deepEqual(fields.map((f) => f.field).sort(), ['duration_sec', 'outcome', 'style', 'topic']);
    for (const field of fields) assert.ok(field.message.length > 0);
    assert.deepEqual(fields.find((f) => f.field === 'style')!.valid_values, ['plain', 'fancy']);
    assert.deepEqual(fields.find((f) => f.field === 'outcome')!.valid_values, [
      'succeed',
      'fail',
      'retryable',
      'flaky',
      'sleep',
      'throw',
    ]);
    assert.equal(fields.find((f) => f.field === 'topic')!.valid_values, undefined);
    assert.equal(await balance(), before);
  });

  void test('a 500 is INTERNAL_ERROR and never leaks the internal message or a stack', async () => {
    const before = await balance();
    const response = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'explode-during-validation' },
      headers: idem(),
    });
    assertError(response, 500, 'INTERNAL_ERROR');
    assert.ok(!response.text.includes('passwd'), response.text);
    assert.ok(!response.text.includes('secret internal detail'), response.text);
    assert.doesNotMatch(response.text, /\bat \S+ \(|\bat (file:)?\/|\.ts:\d+/);
    assert.equal(await balance(), before);
  });
});

void describe('authentication', () => {
  void test('no key is 401 AUTH_REQUIRED on every authenticated route', async () => {
    assertError(await service.call('GET', '/api/v1/usage', { key: null }), 401, 'AUTH_REQUIRED');
    assertError(await service.call('GET', '/api/v1/capabilities', { key: null }), 401, 'AUTH_REQUIRED');
    assertError(await service.call('GET', '/api/v1/jobs/job_x', { key: null }), 401, 'AUTH_REQUIRED');
    assertError(
      await service.call('POST', '/api/v1/generate-and-post', {
        key: null,
        body: { topic: 'no key' },
        headers: idem(),
      }),
      401,
      'AUTH_REQUIRED',
    );
  });

  void test('an unknown or revoked key is 401 AUTH_INVALID_API_KEY, by either header', async () => {
    const unknown = `svc_${'A'.repeat(32)}`;
    assertError(await service.call('GET', '/api/v1/usage', { key: unknown }), 401, 'AUTH_INVALID_API_KEY');
    assertError(
      await service.call('GET', '/api/v1/usage', { key: null, headers: { 'x-api-key': unknown } }),
      401,
      'AUTH_INVALID_API_KEY',
    );

    const key = await createApiKey(service.runtime.database.db, service.account.account_id, false);
    assert.equal((await service.call('GET', '/api/v1/usage', { key })).status, 200);
    assert.equal(await revokeKeysByPrefix(service.runtime.database.db, keyPrefix(key)), 1);
    // Every API process caches keys and drops them when the revocation's NOTIFY arrives (milliseconds).
    let after = await service.call('GET', '/api/v1/usage', { key });
    for (let i = 0; i < 20 && after.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await service.call('GET', '/api/v1/usage', { key });
    }
    assertError(after, 401, 'AUTH_INVALID_API_KEY');
    assertError(
      await service.call('GET', '/api/v1/usage', { key: null, headers: { 'x-api-key': key } }),
      401,
      'AUTH_INVALID_API_KEY',
    );
  });

  void test('both "Authorization: Bearer" and "X-API-Key" authenticate', async () => {
    const bearer = await service.call('GET', '/api/v1/usage', {
      key: null,
      headers: { authorization: `Bearer ${service.account.live_key}` },
    });
    assertSuccess(bearer);
    const header = await service.call('GET', '/api/v1/usage', {
      key: null,
      headers: { 'x-api-key': service.account.live_key },
    });
    assertSuccess(header);
    assert.equal(header.body.data.account_id, service.account.account_id);
    const sandbox = await service.call('GET', '/api/v1/usage', {
      key: null,
      headers: { 'x-api-key': service.account.sandbox_key },
    });
    assertSuccess(sandbox);
    assert.equal(sandbox.body.data.account_id, service.account.account_id);
  });
});

void describe('route-level refusals', () => {
  void test('retired routes answer 410 MODE_NOT_AVAILABLE', async () => {
    const retired = ['ai-story', 'reddit-story', 'fake-chat', 'soothing', 'ugc', 'ai-ad', 'rss'];
    for (const route of retired) {
      const response = await service.call('POST', `/api/v1/videos/${route}`, {
        body: { topic: 'retired' },
        headers: idem(),
      });
      assertError(response, 410, 'MODE_NOT_AVAILABLE');
    }
  });

  void test('private delivery on a mode without it is 422 PRIVATE_DELIVERY_UNAVAILABLE, free', async () => {
    const before = await balance();
    const refused = await service.call('POST', '/api/v1/test/public-only', {
      body: { topic: 'private please', delivery: { visibility: 'private' } },
      headers: idem(),
    });
    assertError(refused, 422, 'PRIVATE_DELIVERY_UNAVAILABLE');
    assert.equal(await balance(), before);

    const accepted = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'private please', delivery: { visibility: 'private' } },
      headers: idem(),
    });
    assert.equal(accepted.status, 202, accepted.text);
    assert.deepEqual(accepted.body.data.delivery, { visibility: 'private', link_ttl_seconds: 86400 });
  });

  void test('a webhook_url that is plain http or internal is 400 naming webhook_url', async () => {
    const before = await balance();
    const bad = [
      'http://hooks.example.com/reelsmith',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.0.10/hook',
      'https://[fd00::1]/hook',
      'https://build.internal/hook',
      'ftp://hooks.example.com/reelsmith',
    ];
    for (const url of bad) {
      const response = await service.call('POST', '/api/v1/generate-and-post', {
        body: { topic: 'hooked', webhook_url: url },
        headers: idem(),
      });
      assertError(response, 400, 'INPUT_INVALID');
      assert.deepEqual(fieldNames(response), ['webhook_url'], url);
    }
    assert.equal(await balance(), before);
    const ok = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'hooked', webhook_url: 'https://hooks.example.com/reelsmith', dry_run: true },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.data.normalized_request.webhook_url, 'https://hooks.example.com/reelsmith');
  });
});

void describe('API keys at rest and in logs', () => {
  void test('the database holds only a SHA-256 hash and a short prefix of each key', async () => {
    const db = service.runtime.database.db;
    const { account_id, live_key, sandbox_key } = service.account;
    // Use both keys first so every table that might record them (jobs, idempotency, ledger) has rows.
    const paid = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'at rest' },
      headers: idem(),
    });
    assert.equal(paid.status, 202, paid.text);
    assert.equal(
      (
        await service.call('POST', '/api/v1/generate-and-post', {
          key: sandbox_key,
          body: { topic: 'at rest' },
        })
      ).status,
      202,
    );

    const rows = await db.selectFrom('api_keys').selectAll().where('account_id', '=', account_id).execute();
    for (const row of rows) {
      assert.match(row.key_hash, /^[0-9a-f]{64}$/);
      assert.ok(row.prefix.length <= 17, row.prefix);
    }
    for (const key of [live_key, sandbox_key]) {
      const row = rows.find((r) => key.startsWith(r.prefix) && r.revoked_at === null);
      assert.ok(row, 'no active row for the key');
      assert.ok(row.prefix.length < key.length / 2, row.prefix);
      for (const value of Object.values(row)) assert.ok(!String(value).includes(key.slice(-16)));
    }

    const tables = await sql<{ schema: string; name: string }>`
      SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
    `.execute(db);
    assert.ok(tables.rows.length > 5);
    for (const table of tables.rows) {
      const dump = await sql<{
        row: string;
      }>`SELECT t::text AS row FROM ${sql.table(`${table.schema}.${table.name}`)} t`.execute(db);
      for (const { row } of dump.rows) {
        for (const key of [live_key, sandbox_key]) {
          assert.ok(!row.includes(key.slice(-16)), `${table.schema}.${table.name} holds a raw key`);
        }
      }
    }
  });

  void test('an API process at LOG_LEVEL=info never writes a key, and tags lines with request and job ids', async () => {
    const child = await startChildService(service, { LOG_LEVEL: 'info', RUN_WORKER: '1' });
    const { live_key, sandbox_key } = service.account;
    const revoked = await createApiKey(service.runtime.database.db, service.account.account_id, false);
    await revokeKeysByPrefix(service.runtime.database.db, keyPrefix(revoked));
    let requestId: string;
    let jobId: string;
    try {
      const bearer = { key: null, headers: { authorization: `Bearer ${live_key}` } };
      const xApiKey = { key: null, headers: { 'x-api-key': live_key } };
      const usage = await child.call('GET', '/api/v1/usage', bearer);
      assert.equal(usage.status, 200);
      requestId = usage.body.meta.request_id;
      assert.equal((await child.call('GET', '/api/v1/capabilities', xApiKey)).status, 200);
      const receipt = await child.call('POST', '/api/v1/generate-and-post', {
        key: null,
        body: { topic: 'logged job' },
        headers: { 'x-api-key': live_key, ...idem() },
      });
      assert.equal(receipt.status, 202, receipt.text);
      jobId = receipt.body.data.job_id;
      assert.equal((await waitForJob(child, jobId)).status, 'completed');
      const invalid = await child.call('POST', '/api/v1/generate-and-post', {
        ...bearer,
        body: { style: 'neon' },
        headers: { ...bearer.headers, ...idem() },
      });
      assert.equal(invalid.status, 400);
      const crash = await child.call('POST', '/api/v1/generate-and-post', {
        key: null,
        body: { topic: 'explode-during-validation' },
        headers: { 'x-api-key': live_key, ...idem() },
      });
      assert.equal(crash.status, 500);
      assert.equal(
        (
          await child.call('POST', '/api/v1/generate-and-post', {
            key: sandbox_key,
            body: { topic: 'sandbox' },
          })
        ).status,
        202,
      );
      assert.equal((await child.call('GET', '/api/v1/usage', { key: revoked })).status, 401);
      assert.equal(
        (await child.call('GET', `/api/v1/nothing-here?api_key=${live_key}`, xApiKey)).status,
        404,
      );
    } finally {
      await child.stop();
    }

    const output = child.stdout() + child.stderr();
    const lines = child
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(lines.length >= 8, `expected JSON log lines on stdout, got: ${output.slice(0, 500)}`);
    assert.ok(
      lines.some((line) => line.requestId === requestId),
      'no log line carries the request id',
    );
    assert.ok(
      lines.some((line) => line.jobId === jobId),
      'no log line carries the job id',
    );
    for (const key of [live_key, sandbox_key, revoked]) {
      assert.ok(!output.includes(key.slice(-16)), `a key appears in the log output`);
    }
  });
});
