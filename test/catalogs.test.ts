import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from './support/test-service.ts';

// Spec 1 §1.3, §4.11 and §9: the machine-readable catalogs, the live balance and the webhook secret.

let service: TestService;
before(async () => {
  service = await startTestService({ balanceCents: 5_000 });
});
after(async () => {
  await service.stop();
});

interface ToolsOperation {
  operation: string;
  usd_cents: number | null;
}

void describe('catalogs', () => {
  void test('GET /health answers 200 without a key', async () => {
    const response = await service.call('GET', '/api/v1/health', { key: null });
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
  });

  void test('GET /capabilities carries version 2026-10-08 and each registered mode with its path and input schema', async () => {
    assert.equal((await service.call('GET', '/api/v1/capabilities', { key: null })).status, 401);
    const response = await service.call('GET', '/api/v1/capabilities');
    assert.equal(response.status, 200, response.text);
    const data = response.body.data;
    assert.equal(data.version, '2026-10-08');
    assert.equal(data.modes.length, 1);
    const mode = data.modes[0];
    assert.equal(mode.mode, 'test_video');
    assert.equal(mode.path, '/api/v1/generate-and-post');
    assert.equal(mode.method, 'POST');
    const schema = mode.input_schema;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['topic']);
    assert.deepEqual(schema.properties.style.enum, ['plain', 'fancy']);
    assert.equal(schema.properties.topic.maxLength, 500);
  });

  void test('GET /tools answers without a key: version 2026-10-06, price table and registered tools', async () => {
    const response = await service.call('GET', '/api/v1/tools', { key: null });
    assert.equal(response.status, 200, response.text);
    const data = response.body.data;
    assert.equal(data.version, '2026-10-06');
    const operations = data.pricing.operations as ToolsOperation[];
    // Only what this server serves is priced: the test mode, none of the product's unmounted modes.
    assert.deepEqual(
      operations.map((o) => [o.operation, o.usd_cents]),
      [['test_video', 60]],
    );
    assert.deepEqual(data.pricing.variable, {});
    const tool = data.tools.find((t: { name: string }) => t.name === 'test_video');
    assert.ok(tool, JSON.stringify(data.tools));
    assert.equal(tool.path, '/api/v1/generate-and-post');
  });

  void test('GET /usage shows the live balance, which drops by exactly the charge header of a job', async () => {
    const first = await service.call('GET', '/api/v1/usage');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.balance_usd_cents, 5_000);

    const body = { topic: 'priced' };
    const dry = await service.call('POST', '/api/v1/generate-and-post', { body: { ...body, dry_run: true } });
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      body,
      headers: { 'idempotency-key': `cat-${randomUUID()}` },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const cost = Number(receipt.headers.get('x-api-credits-cost-usd-cents'));
    assert.ok(Number.isInteger(cost) && cost > 0);
    assert.equal(receipt.body.data.price_usd_cents, cost);
    assert.equal(dry.body.data.price.usd_cents, cost);

    const second = await service.call('GET', '/api/v1/usage');
    assert.equal(second.body.data.balance_usd_cents, 5_000 - cost);
    const sandbox = await service.call('GET', '/api/v1/usage', { key: service.account.sandbox_key });
    assert.equal(sandbox.body.data.balance_usd_cents, 5_000 - cost);

    const other = await service.newAccount(2_000);
    assert.equal(
      (await service.call('GET', '/api/v1/usage', { key: other.live_key })).body.data.balance_usd_cents,
      2_000,
    );
  });

  void test('GET /usage prices exactly the served tools, as /tools does', async () => {
    const pricing = (await service.call('GET', '/api/v1/usage')).body.data.pricing;
    assert.deepEqual(pricing.operations, { test_video: 60 });
    assert.deepEqual(pricing.variable, {});
    const tools = (await service.call('GET', '/api/v1/tools', { key: null })).body.data.pricing
      .operations as ToolsOperation[];
    for (const entry of tools)
      assert.equal(pricing.operations[entry.operation], entry.usd_cents, entry.operation);
  });

  void test('GET /webhook-secret returns the account secret, stable and distinct per account', async () => {
    assert.equal((await service.call('GET', '/api/v1/webhook-secret', { key: null })).status, 401);
    const first = await service.call('GET', '/api/v1/webhook-secret');
    assert.equal(first.status, 200, first.text);
    const secret = first.body.data.secret;
    assert.equal(typeof secret, 'string');
    assert.ok(secret.length >= 24);
    assert.equal((await service.call('GET', '/api/v1/webhook-secret')).body.data.secret, secret);
    assert.equal(
      (await service.call('GET', '/api/v1/webhook-secret', { key: service.account.sandbox_key })).body.data
        .secret,
      secret,
    );
    const other = await service.newAccount();
    assert.notEqual(
      (await service.call('GET', '/api/v1/webhook-secret', { key: other.live_key })).body.data.secret,
      secret,
    );
  });
});
