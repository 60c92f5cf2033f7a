import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import {
  previewAccountSchema,
  previewContractsSchema,
  previewValidationSchema,
} from '../src/b2b/preview-answers.ts';
import { productModes } from '../src/modes/index.ts';
import { withUserUrlRules } from '../src/platform/net/user-url.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The business preview contract (spec 2 §4.4, §9) on the real service with the product's modes: the account
// and its capability flags, JSON Schemas that really validate the bodies the service accepts and the answers it
// gives (checked with ajv), and a validation that names every broken rule and creates, fetches and charges
// nothing.

let service: TestService;
/** A loopback server that counts what reaches it: validation must fetch nothing. */
let watched: http.Server;
let watchedBase: string;
const hits: string[] = [];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

before(async () => {
  service = await startTestService({ modes: productModes });
  watched = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => watched.listen(0, '127.0.0.1', resolve));
  watchedBase = `http://127.0.0.1:${(watched.address() as AddressInfo).port}`;
});

after(async () => {
  await service.stop();
  await new Promise((resolve) => watched.close(resolve));
});

function validBody(): Record<string, any> {
  return {
    schema_version: '2026-10-06.preview.2',
    external_id: 'crm-creative-0042',
    content_purpose: 'sales',
    customer: {
      customer_id: 'cust-acme',
      website_url: 'https://acme.com',
      name: 'Acme Tools',
      context_urls: ['https://acme.com/pricing', 'https://acme.com/about'],
    },
    campaign: {
      campaign_id: 'spring-26',
      creative_id: 'creative-7',
      objective: 'book_demo',
      audience: 'Operations leads at mid-size manufacturers',
      call_to_action: { text: 'Book a demo', url: 'https://acme.com/demo' },
    },
    brand: { name: 'Acme', tone: 'professional', primary_color: '#0A66C2' },
    output: { aspect_ratio: '9:16', resolution: '1080p', captions: true, language: 'en' },
    delivery: { visibility: 'private', method: 'pull', access: 'authenticated' },
    budget: { currency: 'USD', max_cost_usd_cents: 500 },
    mode: 'stock',
    input: {
      topic: 'how predictive maintenance cuts downtime',
      duration_seconds: 30,
      voice_id: 'espeak:en-us:female-1',
      stock_keywords: ['factory', 'maintenance'],
    },
  };
}

const validate = (body: unknown, key?: string) =>
  service.call('POST', '/api/v1/b2b/validate', { body, ...(key !== undefined ? { key } : {}) });

async function balance(): Promise<number> {
  return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
}

async function jobCount(): Promise<number> {
  const { rows } = await sql<{
    n: string;
  }>`SELECT count(*) AS n FROM jobs WHERE account_id = ${service.account.account_id}`.execute(
    service.runtime.database.db,
  );
  return Number(rows[0]!.n);
}

function errorsOf(schema: Record<string, unknown>, value: unknown): string {
  const check = ajv.compile(schema);
  return check(value) ? '' : ajv.errorsText(check.errors);
}

void describe('GET /b2b/account', () => {
  void test('names the account, the key mode, the preview stamps and exactly the spec’s capabilities', async () => {
    const answer = await service.call('GET', '/api/v1/b2b/account');
    assert.equal(answer.status, 200, answer.text);
    const data = answer.body.data;
    previewAccountSchema.parse(data);
    assert.equal(data.account_id, service.account.account_id);
    assert.equal(data.key_mode, 'live');
    assert.equal(data.schema_version, '2026-10-06.preview.2');
    assert.equal(data.contract_stage, 'preview');
    assert.deepEqual(data.capabilities, {
      request_validation: true,
      generation: false,
      library_metadata: true,
      brand_kits: true,
      private_cdn: false,
      database_delivery: false,
      delegated_customer_accounts: false,
    });
    assert.deepEqual(data.links, {
      usage: '/api/v1/usage',
      contracts: '/api/v1/b2b/contracts',
      validate: '/api/v1/b2b/validate',
      library: '/api/v1/b2b/library/videos',
      brands: '/api/v1/b2b/brands',
    });
    assert.deepEqual(
      data.modes.map((m: { mode: string }) => m.mode),
      ['stock', 'clipping', 'avatar', 'ai_video'],
    );
    const paths = Object.fromEntries(
      data.modes.map((m: { mode: string; operations: { path: string }[] }) => [
        m.mode,
        m.operations.map((o) => o.path),
      ]),
    );
    assert.deepEqual(paths.clipping, ['/api/v1/clipper/vidsite']);
    assert.deepEqual(paths.avatar, ['/api/v1/videos/ai-influencer']);
    assert.deepEqual(paths.ai_video, ['/api/v1/videos/text-to-video', '/api/v1/videos/image-to-video']);
    assert.ok(
      paths.stock.includes('/api/v1/generate-and-post') && paths.stock.includes('/api/v1/videos/magic'),
    );
    assert.deepEqual(
      data.modes.filter((m: { validation: boolean }) => m.validation).map((m: { mode: string }) => m.mode),
      ['stock'],
    );
    // One blocker per capability the preview lacks.
    assert.deepEqual(data.blockers.map((b: { capability: string }) => b.capability).sort(), [
      'database_delivery',
      'delegated_customer_accounts',
      'generation',
      'private_cdn',
    ]);
    for (const blocker of data.blockers) assert.ok(blocker.code && blocker.message.length > 20);

    const sandbox = await service.call('GET', '/api/v1/b2b/account', { key: service.account.sandbox_key });
    assert.equal(sandbox.body.data.key_mode, 'sandbox');
    assert.equal(sandbox.body.data.account_id, service.account.account_id);
    const anonymous = await service.call('GET', '/api/v1/b2b/account', { key: null });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'AUTH_REQUIRED');
  });
});

void describe('GET /b2b/contracts', () => {
  let contracts: any;
  before(async () => {
    const answer = await service.call('GET', '/api/v1/b2b/contracts');
    assert.equal(answer.status, 200, answer.text);
    contracts = answer.body.data;
  });

  void test('is stamped, says generation is not available, and has every section of the spec', () => {
    previewContractsSchema.parse(contracts);
    assert.equal(contracts.schema_version, '2026-10-06.preview.2');
    assert.equal(contracts.stage, 'preview');
    assert.equal(contracts.generation_available, false);
    assert.deepEqual(Object.keys(contracts.modes), ['stock', 'clipping', 'avatar', 'ai_video']);
    for (const section of ['library', 'private_access', 'semantics', 'blockers', 'legacy_youtube'])
      assert.ok(contracts[section], section);
    assert.equal(contracts.private_access.private_cdn, false);
    assert.equal(contracts.private_access.link_ttl_seconds, 86_400);
    assert.deepEqual(contracts.library.operations.clipping, ['clip']);
    assert.deepEqual(contracts.library.job_statuses.failed, ['failed', 'dead_lettered', 'cancelled']);
    // Every schema is a JSON Schema ajv compiles.
    for (const [mode, entry] of Object.entries<any>(contracts.modes)) {
      for (const schema of [
        entry.request_schema,
        entry.result_schema,
        ...entry.operations.map((o: any) => o.request_schema),
      ])
        assert.doesNotThrow(() => ajv.compile(schema), mode);
    }
  });

  void test('the stock request schema accepts what /generate-and-post accepts and refuses what it refuses', async () => {
    const schema = contracts.modes.stock.request_schema;
    const good = {
      topic: 'three habits of careful savers',
      duration_sec: 15,
      content_purpose: 'education',
      caption_style: { preset: 'classic', position: 'center' },
      music: { enabled: true, volume: 0.2 },
      brand: { name: 'Penny Wise', primary_color: '#22C55E' },
      footage_keywords: ['coins', 'piggy bank'],
    };
    assert.equal(errorsOf(schema, good), '');
    const dryRun = await service.call('POST', '/api/v1/generate-and-post', {
      body: { ...good, dry_run: true },
    });
    assert.equal(dryRun.status, 200, dryRun.text);

    for (const [bad, field] of [
      [{ ...good, duration_sec: 5 }, 'duration_sec'],
      [{ ...good, aspect_ratio: '16:9' }, 'aspect_ratio'],
      [{ ...good, brand: { primary_color: 'green' } }, 'brand.primary_color'],
      [{ ...good, caption_style: { preset: 'neon' } }, 'caption_style'],
    ] as const) {
      assert.notEqual(errorsOf(schema, bad), '', `the schema refuses ${field}`);
      const refused = await service.call('POST', '/api/v1/generate-and-post', {
        body: { ...bad, dry_run: true },
      });
      assert.equal(refused.status, 400, `the service refuses ${field}`);
      assert.ok(
        refused.body.error.details.fields.some((f: { field: string }) => f.field.startsWith(field)),
        refused.text,
      );
    }
  });

  void test('the other modes’ request schemas are the ones their routes validate with', async () => {
    const clip = contracts.modes.clipping.request_schema;
    const clipBody = { vidsite_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', clip_count: 3 };
    assert.equal(errorsOf(clip, clipBody), '');
    assert.notEqual(errorsOf(clip, { ...clipBody, clip_count: 11 }), '');
    const ai = contracts.modes.ai_video.request_schema;
    assert.equal(errorsOf(ai, { prompt: 'a lighthouse in a storm', duration_sec: 30 }), '');
    assert.notEqual(errorsOf(ai, { prompt: 'x'.repeat(1001) }), '');
    const avatar = contracts.modes.avatar.request_schema;
    assert.equal(errorsOf(avatar, { avatar_id: 'av_1', script: 'Hello there.' }), '');
    assert.notEqual(errorsOf(avatar, { avatar_id: 'av_1', script: 'Hi', speed: 3 }), '');
  });

  void test('the result schemas validate real library videos of their mode', async () => {
    const sandboxKey = service.account.sandbox_key;
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      key: sandboxKey,
      body: { topic: 'a sandbox video for the contract' },
    });
    assert.ok(receipt.status < 300, receipt.text);
    const page = await service.call('GET', '/api/v1/b2b/library/videos', { key: sandboxKey });
    const video = page.body.data.items.find((v: any) => v.job_id === receipt.body.data.job_id);
    assert.equal(video.media_access.status, 'available');
    const read = await service.call('GET', `/api/v1/b2b/library/videos/${video.video_id}`, {
      key: sandboxKey,
    });
    for (const item of [video, read.body.data]) {
      assert.equal(errorsOf(contracts.result_schema, item), '');
      assert.equal(errorsOf(contracts.modes.stock.result_schema, item), '');
      assert.notEqual(
        errorsOf(contracts.modes.clipping.result_schema, item),
        '',
        'another mode’s schema refuses it',
      );
    }
  });

  void test('the top-level request schema is the validate body', async () => {
    assert.equal(errorsOf(contracts.request_schema, validBody()), '');
    const noTopic = validBody();
    delete noTopic.input.topic;
    assert.notEqual(errorsOf(contracts.request_schema, noTopic), '');
    assert.notEqual(errorsOf(contracts.request_schema, { ...validBody(), mode: 'avatar' }), '');
  });

  void test('legacy_youtube describes POST /api/clip-video: its body, its receipt and its errors', async () => {
    const legacy = contracts.legacy_youtube;
    assert.equal(legacy.path, '/api/clip-video');
    assert.equal(legacy.served, true);
    assert.ok(legacy.limitations.length >= 3);
    const body = {
      video_url: `${watchedBase}/interview.mp4`,
      user_id: service.account.account_id,
      video_type: 1,
      numberOfClips: 2,
    };
    assert.equal(errorsOf(legacy.input_schema, body), '');
    const answer = await service.call('POST', '/api/clip-video', {
      body,
      headers: { 'idempotency-key': 'legacy-contract-1' },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(errorsOf(legacy.receipt_data_schema, answer.body), '');
    // The job fetches its source (a 404 here) and fails, refunded, before the validation tests count anything.
    const job = await waitForJob(service, answer.body.taskId, { timeoutMs: 60_000 });
    assert.equal(job.status, 'failed');
    const refused = await service.call('POST', '/api/clip-video', {
      body: { ...body, user_id: 'someone-else' },
    });
    assert.equal(refused.status, 404);
    assert.equal(errorsOf(legacy.error_schema, refused.body), '');
  });
});

void describe('POST /b2b/validate', () => {
  void test('a valid body passes, normalized and priced, and charges, creates and fetches nothing', async () => {
    const balanceBefore = await balance();
    const jobsBefore = await jobCount();
    const hitsBefore = hits.length;
    const body = validBody();
    delete body.input.duration_seconds;
    body.customer.website_url = `${watchedBase}/`;
    body.customer.context_urls = [`${watchedBase}/about`];
    const answer = await validate(body);
    assert.equal(answer.status, 200, answer.text);
    const data = answer.body.data;
    // The documented answer shape; the body's loopback URLs pass as they did in the service (test setting).
    withUserUrlRules({ allowLoopback: true }, () => previewValidationSchema.parse(data));
    assert.equal(data.valid, true);
    assert.equal(data.mode, 'stock');
    assert.equal(data.normalized_request.input.duration_seconds, 30, 'the default length is filled in');
    assert.deepEqual(data.normalized_request.customer, body.customer);
    assert.deepEqual(data.price_estimate, {
      currency: 'USD',
      usd_cents: 60,
      display: '$0.60',
      basis: 'a stock video, flat for any length',
      within_budget: true,
    });
    assert.equal(data.generation_available, false);
    assert.equal(data.charged, false);
    assert.equal(data.job_created, false);
    assert.deepEqual(data.warnings, []);
    assert.equal(answer.headers.get('x-api-credits-cost-usd-cents'), null);

    // The equivalent body is one /generate-and-post accepts as it is.
    const equivalent = data.generation_equivalent;
    assert.equal(equivalent.path, '/api/v1/generate-and-post');
    assert.equal(equivalent.accepted, true, JSON.stringify(equivalent.issues));
    assert.equal(equivalent.body.topic, body.input.topic);
    assert.equal(equivalent.body.customer_id, 'cust-acme');
    assert.deepEqual(equivalent.body.delivery, { visibility: 'private' });
    const dryRun = await service.call('POST', '/api/v1/generate-and-post', {
      body: { ...equivalent.body, dry_run: true },
    });
    assert.equal(dryRun.status, 200, dryRun.text);

    assert.equal(await balance(), balanceBefore);
    assert.equal(await jobCount(), jobsBefore);
    assert.equal(hits.length, hitsBefore, 'no URL of the body was fetched');

    const sandbox = await validate(validBody(), service.account.sandbox_key);
    assert.equal(sandbox.status, 200);
    assert.equal(sandbox.body.meta.key_mode, 'sandbox');
  });

  void test('what generation would refuse today is a warning, not an error', async () => {
    const body = validBody();
    body.output.aspect_ratio = '16:9';
    body.budget.max_cost_usd_cents = 50;
    body.delivery.method = 'webhook';
    const answer = await validate(body);
    const voice = validBody();
    voice.input.voice_id = 'nobody-speaks';
    const unknownVoice = await validate(voice);
    assert.equal(unknownVoice.status, 200, unknownVoice.text);
    assert.deepEqual(
      unknownVoice.body.data.generation_equivalent.issues.map((i: { field: string }) => i.field),
      ['voice_id'],
    );
    assert.equal(answer.status, 200, answer.text);
    const data = answer.body.data;
    assert.equal(data.price_estimate.within_budget, false);
    assert.equal(data.generation_equivalent.accepted, false);
    assert.deepEqual(
      data.generation_equivalent.issues.map((i: { field: string }) => i.field),
      ['aspect_ratio'],
    );
    assert.equal(data.warnings.length, 3, data.warnings.join('\n'));
  });

  void test('brand.brand_id must be a kit of the account for that customer', async () => {
    const missing = validBody();
    missing.brand = { brand_id: 'no-such-kit' };
    const notFound = await validate(missing);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.error.code, 'BRAND_NOT_FOUND');

    const kit = await service.call('POST', '/api/v1/b2b/brands', {
      body: { brand_id: 'acme-kit', customer_id: 'cust-acme', name: 'Acme', primary_color: '#0A66C2' },
    });
    assert.ok(kit.status < 300, kit.text);
    const found = validBody();
    found.brand = { brand_id: 'acme-kit' };
    const answer = await validate(found);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.data.brand_kit, { brand_id: 'acme-kit', name: 'Acme', revision: 1 });
    assert.equal(answer.body.data.generation_equivalent.body.brand_id, 'acme-kit');
    const otherCustomer = validBody();
    otherCustomer.brand = { brand_id: 'acme-kit' };
    otherCustomer.customer.customer_id = 'cust-other';
    assert.equal((await validate(otherCustomer)).status, 404);
  });

  void test('every rule violation is a free 400 naming its field', async () => {
    const balanceBefore = await balance();
    type Edit = (body: Record<string, any>) => void;
    const cases: [string, Edit][] = [
      ['schema_version', (b) => (b.schema_version = '2026-10-06.preview.1')],
      ['external_id', (b) => (b.external_id = '')],
      ['external_id', (b) => (b.external_id = 'x'.repeat(129))],
      ['external_id', (b) => delete b.external_id],
      ['content_purpose', (b) => (b.content_purpose = 'fun')],
      ['customer', (b) => delete b.customer],
      ['customer.customer_id', (b) => (b.customer.customer_id = 'has space')],
      ['customer.website_url', (b) => delete b.customer.website_url],
      ['customer.website_url', (b) => (b.customer.website_url = 'http://acme.com')],
      ['customer.website_url', (b) => (b.customer.website_url = 'https://10.0.0.1/')],
      ['customer.website_url', (b) => (b.customer.website_url = 'https://metadata.google.internal/')],
      ['customer.name', (b) => (b.customer.name = '')],
      ['customer.context_urls', (b) => (b.customer.context_urls = Array(11).fill('https://acme.com/x'))],
      [
        'customer.context_urls[1]',
        (b) => (b.customer.context_urls = ['https://acme.com/a', 'ftp://acme.com/b']),
      ],
      ['campaign', (b) => delete b.campaign],
      ['campaign.campaign_id', (b) => delete b.campaign.campaign_id],
      ['campaign.creative_id', (b) => (b.campaign.creative_id = '')],
      ['campaign.objective', (b) => (b.campaign.objective = 'sales')],
      ['campaign.audience', (b) => (b.campaign.audience = '')],
      ['campaign.audience', (b) => (b.campaign.audience = 'a'.repeat(1001))],
      ['campaign.call_to_action', (b) => delete b.campaign.call_to_action],
      ['campaign.call_to_action.text', (b) => (b.campaign.call_to_action.text = 'x'.repeat(161))],
      ['campaign.call_to_action.url', (b) => (b.campaign.call_to_action.url = 'http://acme.com/demo')],
      ['brand', (b) => (b.brand = {})],
      ['brand.primary_color', (b) => (b.brand.primary_color = 'blue')],
      ['brand.tone', (b) => (b.brand.tone = 'loud')],
      ['brand.website_url', (b) => (b.brand.website_url = 'https://wiki.corp/')],
      ['brand.favourite', (b) => (b.brand.favourite = 'blue')],
      ['output', (b) => delete b.output],
      ['output.aspect_ratio', (b) => (b.output.aspect_ratio = '4:5')],
      ['output.resolution', (b) => (b.output.resolution = '720p')],
      ['output.captions', (b) => (b.output.captions = 'yes')],
      ['output.language', (b) => (b.output.language = 'e')],
      ['output.language', (b) => (b.output.language = `en-${'x'.repeat(33)}`)],
      ['delivery.visibility', (b) => (b.delivery.visibility = 'public')],
      ['delivery.method', (b) => (b.delivery.method = 'email')],
      ['delivery.access', (b) => (b.delivery.access = 'public')],
      ['delivery.destination_id', (b) => (b.delivery.destination_id = '')],
      ['budget.currency', (b) => (b.budget.currency = 'EUR')],
      ['budget.max_cost_usd_cents', (b) => (b.budget.max_cost_usd_cents = 0)],
      ['budget.max_cost_usd_cents', (b) => (b.budget.max_cost_usd_cents = 100_001)],
      ['budget.max_cost_usd_cents', (b) => (b.budget.max_cost_usd_cents = 99.5)],
      ['mode', (b) => (b.mode = 'clipping')],
      ['input', (b) => delete b.input],
      ['input.topic', (b) => delete b.input.topic],
      ['input.topic', (b) => (b.input.topic = 'x'.repeat(1001))],
      ['input.topic', (b) => (b.input.topic = '   ')],
      ['input.script', (b) => (b.input.script = 'x'.repeat(2801))],
      ['input.duration_seconds', (b) => (b.input.duration_seconds = 14)],
      ['input.duration_seconds', (b) => (b.input.duration_seconds = 121)],
      ['input.voice_id', (b) => (b.input.voice_id = '')],
      ['input.stock_keywords', (b) => (b.input.stock_keywords = [])],
      ['input.stock_keywords', (b) => (b.input.stock_keywords = Array(13).fill('k'))],
      ['input.stock_keywords[0]', (b) => (b.input.stock_keywords = ['k'.repeat(81)])],
      ['colour', (b) => (b.colour = 'blue')],
    ];
    for (const [field, edit] of cases) {
      const body = validBody();
      edit(body);
      const answer = await validate(body);
      assert.equal(answer.status, 400, `${field}: ${answer.text}`);
      assert.equal(answer.body.success, false);
      assert.equal(answer.body.error.code, 'INPUT_INVALID');
      assert.equal(answer.body.error.retryable, false);
      const fields = answer.body.error.details.fields.map((f: { field: string }) => f.field);
      assert.deepEqual(fields, [field], `${field}: ${answer.text}`);
      assert.match(answer.body.error.message, new RegExp(field.replace(/[.[\]]/g, '\\$&')));
    }

    const several = validBody();
    several.mode = 'avatar';
    several.budget.currency = 'EUR';
    delete several.input.topic;
    const answer = await validate(several);
    assert.deepEqual(answer.body.error.details.fields.map((f: { field: string }) => f.field).sort(), [
      'budget.currency',
      'input.topic',
      'mode',
    ]);
    const enumIssue = answer.body.error.details.fields.find((f: { field: string }) => f.field === 'mode');
    assert.deepEqual(enumIssue.valid_values, ['stock']);

    const notObject = await validate([validBody()]);
    assert.equal(notObject.status, 400);
    assert.equal(notObject.body.error.details.fields[0].field, '(body)');
    assert.equal(await balance(), balanceBefore);
  });
});
