import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newClient, uniqueKey } from './support/idem-helpers.ts';
import { testMode } from './support/test-mode.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// Spec 1 §2.5 and §4.1.3: dry runs validate and price like the real call, create nothing, charge nothing,
// are never cached and need no Idempotency-Key.

let service: TestService;
before(async () => {
  service = await startTestService({
    modes: [testMode(), testMode({ name: 'test_no_dry_run', endpoint: 'no-dry-run', dryRun: false })],
  });
});
after(async () => {
  await service.stop();
});

const START = 100_000;

void describe('dry runs', () => {
  void test('a dry run answers the priced, normalized request and charges nothing', async () => {
    const c = await newClient(service, START);
    const dry = await c.generate({ topic: 'price me', style: 'fancy', dry_run: true }, null);
    assert.equal(dry.status, 200);
    assert.equal(dry.body.success, true);
    assert.ok(dry.body.meta.request_id);
    const data = dry.body.data;
    assert.equal(data.dry_run, true);
    assert.equal(data.valid, true);
    assert.equal(data.mode, 'test_video');
    assert.equal(data.charged, false);
    assert.deepEqual(data.warnings, []);
    assert.equal(data.normalized_request.topic, 'price me');
    assert.equal(data.normalized_request.style, 'fancy');
    // Normalization applies the schema's defaults and takes the dry_run flag out.
    assert.equal(data.normalized_request.duration_sec, 30);
    assert.equal(data.normalized_request.outcome, 'succeed');
    assert.equal('dry_run' in data.normalized_request, false);
    assert.equal(data.price.usd_cents, 60);
    assert.equal(data.price.display, '$0.60');
    assert.ok(Array.isArray(data.price.breakdown) && data.price.breakdown.length > 0);
    assert.equal(
      data.price.breakdown.reduce((sum: number, line: { usd_cents: number }) => sum + line.usd_cents, 0),
      data.price.usd_cents,
    );
    const estimate = data.estimated_render_seconds;
    assert.ok(estimate.min <= estimate.typical && estimate.typical <= estimate.max, JSON.stringify(estimate));
    assert.equal(dry.headers.get('x-job-id'), null);
    assert.equal('job_id' in data, false);
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);

    // The price of the dry run is what the real call charges.
    const real = await c.generate({ topic: 'price me', style: 'fancy' }, uniqueKey());
    assert.equal(real.status, 202);
    assert.equal(real.headers.get('x-api-credits-cost-usd-cents'), String(data.price.usd_cents));
    assert.equal(real.body.data.price_usd_cents, data.price.usd_cents);
    assert.equal(await c.balance(), START - data.price.usd_cents);
  });

  void test('a dry run is never cached under its Idempotency-Key', async () => {
    const c = await newClient(service, START);
    const key = uniqueKey();
    const first = await c.generate({ topic: 'not cached', dry_run: true }, key);
    assert.equal(first.status, 200);
    const again = await c.generate({ topic: 'not cached', dry_run: true }, key);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-idempotent-replay'), null);
    assert.notEqual(again.body.meta.replayed, true);

    const real = await c.generate({ topic: 'not cached' }, key);
    assert.equal(real.status, 202);
    assert.equal(real.headers.get('x-idempotent-replay'), null);
    assert.match(real.body.data.job_id, /^job_/);
    assert.deepEqual(await c.jobIds(), [real.body.data.job_id]);

    // After the real call stored its answer under the key, a dry run with that key still only prices.
    const afterwards = await c.generate({ topic: 'not cached', dry_run: true }, key);
    assert.equal(afterwards.status, 200);
    assert.equal(afterwards.body.data.dry_run, true);
    assert.equal(afterwards.headers.get('x-idempotent-replay'), null);
    assert.equal(await c.balance(), START - 60);
  });

  void test('a dry run refuses invalid input exactly as the real call does', async () => {
    const c = await newClient(service, START);
    const invalid = { topic: 'bad values', style: 'neon', duration_sec: 500 };
    const dry = await c.generate({ ...invalid, dry_run: true }, null);
    const real = await c.generate(invalid, uniqueKey());
    assert.equal(dry.status, 400);
    assert.equal(real.status, 400);
    assert.equal(dry.body.error.code, 'INPUT_INVALID');
    assert.equal(real.body.error.code, 'INPUT_INVALID');
    assert.deepEqual(dry.body.error.details.fields, real.body.error.details.fields);
    const fields = dry.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    assert.deepEqual(fields, ['duration_sec', 'style']);
    const style = dry.body.error.details.fields.find((f: { field: string }) => f.field === 'style');
    assert.deepEqual(style.valid_values, ['plain', 'fancy']);

    // The mode's own validation (beyond the schema) runs in dry runs too.
    const dryRule = await c.generate({ topic: 'forbidden topic', dry_run: true }, null);
    const realRule = await c.generate({ topic: 'forbidden topic' }, uniqueKey());
    assert.equal(dryRule.status, 400);
    assert.equal(dryRule.body.error.code, realRule.body.error.code);
    assert.deepEqual(dryRule.body.error.details, realRule.body.error.details);
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);
  });

  void test('warnings name each deprecated alias used', async () => {
    const c = await newClient(service, START);
    const dry = await c.generate(
      { topic: 'aliases', duration: 20, webhookUrl: 'https://hooks.example.com/done', dry_run: true },
      null,
    );
    assert.equal(dry.status, 200);
    const { warnings, normalized_request: normalized } = dry.body.data;
    assert.equal(warnings.length, 2, JSON.stringify(warnings));
    assert.ok(
      warnings.some((w: string) => w.includes('"duration"') && w.includes('duration_sec')),
      JSON.stringify(warnings),
    );
    assert.ok(
      warnings.some((w: string) => w.includes('"webhookUrl"') && w.includes('webhook_url')),
      JSON.stringify(warnings),
    );
    assert.equal(normalized.duration_sec, 20);
    assert.equal(normalized.webhook_url, 'https://hooks.example.com/done');
    assert.equal('duration' in normalized, false);
    assert.equal('webhookUrl' in normalized, false);
  });

  void test('a mode without dry runs answers 400 DRY_RUN_NOT_SUPPORTED and runs nothing', async () => {
    const c = await newClient(service, START);
    const refused = await c.call('POST', '/api/v1/no-dry-run', {
      body: { topic: 'no dry run here', dry_run: true },
      headers: { 'idempotency-key': uniqueKey() },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'DRY_RUN_NOT_SUPPORTED');
    assert.equal(await c.balance(), START);
    assert.deepEqual(await c.jobIds(), []);
  });

  void test('a sandbox key dry-runs with full validation', async () => {
    const c = await newClient(service, START);
    const valid = await c.generate({ topic: 'sandbox pricing', dry_run: true }, null, {
      key: c.account.sandbox_key,
    });
    assert.equal(valid.status, 200);
    assert.equal(valid.body.data.valid, true);
    assert.equal(valid.body.data.price.usd_cents, 60);
    assert.equal(valid.body.data.charged, false);

    const invalid = await c.generate({ topic: 'sandbox pricing', style: 'neon', dry_run: true }, null, {
      key: c.account.sandbox_key,
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.code, 'INPUT_INVALID');
    assert.deepEqual(
      invalid.body.error.details.fields.map((f: { field: string }) => f.field),
      ['style'],
    );
    assert.deepEqual(await c.jobIds(), []);
    assert.equal(await c.balance(), START);
  });
});
