import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { productModes } from '../src/modes/index.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// GET /api/v1/openapi.json and GET /docs: the document is valid OpenAPI 3.1, holds exactly the routes the
// running app registered, takes the bodies spec 1 shows, and describes the answers the service really sends.

let service: TestService;
let doc: any;

before(async () => {
  service = await startTestService({ modes: productModes, worker: false });
  const response = await service.call('GET', '/api/v1/openapi.json', { key: null });
  assert.equal(response.status, 200, response.text);
  doc = response.body;
});
after(async () => {
  await service.stop();
});

/** Each `METHOD path` the app answers, read from Fastify's own route tree (printRoutes), not from the document. */
function liveRoutes(app: FastifyInstance): Set<string> {
  const byPath = new Map<string, Set<string>>();
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:[│ ] {3})*)[└├]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes.length = depth;
    prefixes.push(match[2]!);
    if (!match[3]) continue;
    const path = prefixes.join('');
    const methods = byPath.get(path) ?? new Set<string>();
    for (const method of match[3].split(', ')) methods.add(method);
    byPath.set(path, methods);
  }
  const routes = new Set<string>();
  for (const [path, methods] of byPath) {
    for (const method of methods) {
      // Fastify answers HEAD on every GET route by itself.
      if (method === 'HEAD' && methods.has('GET')) continue;
      routes.add(`${method} ${normalize(path)}`);
    }
  }
  return routes;
}

/** Path parameters written alike (`:id`, `{id}`, a trailing `*`), so the two spellings compare. */
function normalize(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+|\{[^}]+\}|\*$/g, '{}');
}

function documentedRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(item)) routes.add(`${method.toUpperCase()} ${normalize(path)}`);
  }
  return routes;
}

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc, 'openapi');
  return {
    body: (method: string, path: string) =>
      ajv.compile({
        $ref: `openapi#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}`,
      }),
    answer: (method: string, path: string, status: number) =>
      ajv.compile({
        $ref: `openapi#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`,
      }),
  };
}

// Bodies written from spec 1 (§4.2, §4.4, §4.5, §4.6, §4.9, §4.10).
const STOCK_BODY = {
  topic: 'how compound interest grows savings',
  content_purpose: 'education',
  duration_sec: 30,
  aspect_ratio: '9:16',
  clip_type: 'finance',
  content_style: 'educational',
  caption_style: { preset: 'highlight', position: 'lower_third', font_size: 'large' },
  music: { enabled: true, volume: 0.35 },
  voice_gender: 'female',
  voice_speed: 1.0,
  cta: { text: 'Start saving today' },
  brand: { name: 'Acme Savings', accent_color: '#22C55E', tone: 'calm', keywords: ['savings', 'interest'] },
  progress_bar: { enabled: true, position: 'bottom' },
  webhook_url: 'https://hooks.example.com/reelsmith',
  agent_run_id: 'run-42',
  listing: 'private',
  delivery: { visibility: 'private' },
  include_captions: true,
};
const TEXT_TO_VIDEO_BODY = {
  prompt: 'A slow aerial shot over a misty pine forest at sunrise',
  quality_tier: 'high',
  duration_sec: 30,
  aspect_ratio: '16:9',
  resolution: '1080p',
  script: 'Every forest starts with a single seed. Watch the morning light wake the valley.',
  voice_gender: 'female',
  captions: true,
  music: true,
  native_audio: false,
  dry_run: true,
};
const AI_INFLUENCER_BODY = {
  avatar_id: 'avatar_abcdefghij0123456789',
  script: 'Three habits changed how I save money. First, pay yourself before anything else.',
  engine: 'avatar_iii',
  aspect_ratio: '9:16',
  captions: true,
  music: true,
  speed: 1.0,
};
const PRESENTER_BROLL_BODY = {
  avatar_id: 'avatar_abcdefghij0123456789',
  format: 'presenter_broll',
  topic: 'why index funds beat stock picking',
  duration_sec: 30,
  layout: 'creator',
  broll: { visuals: 'stock', footage_keywords: ['stock market', 'charts'] },
};
const AVATAR_BODY = { image_url: 'https://images.example.com/maya.jpg', name: 'Maya' };
// The stock validate body of spec 2 §4.4, every field of it.
const PREVIEW_BODY = {
  schema_version: '2026-10-06.preview.2',
  external_id: 'crm-creative-0042',
  content_purpose: 'sales',
  customer: {
    customer_id: 'cust-acme',
    website_url: 'https://acme.com',
    name: 'Acme Tools',
    context_urls: ['https://acme.com/pricing'],
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
  delivery: { visibility: 'private', method: 'pull', access: 'authenticated', destination_id: 'dest-1' },
  budget: { currency: 'USD', max_cost_usd_cents: 500 },
  mode: 'stock',
  input: {
    topic: 'how predictive maintenance cuts downtime',
    script: 'Unplanned downtime costs more than the repair.',
    duration_seconds: 30,
    voice_id: 'espeak:en-us:female-1',
    stock_keywords: ['factory', 'maintenance'],
  },
};

void describe('OpenAPI document', () => {
  void test('is a valid OpenAPI 3.1 document, served without a key', async () => {
    const validation = await new Validator().validate(structuredClone(doc));
    assert.equal(validation.valid, true, JSON.stringify(validation.errors, null, 2));
    assert.match(doc.openapi, /^3\.1\./);
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKeyAuth', 'bearerAuth']);
    assert.deepEqual(doc.components.securitySchemes.apiKeyAuth, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'X-API-Key: <API key>.',
    });
  });

  void test('holds every route the running app registered, and only those', () => {
    const live = liveRoutes(service.runtime.app!);
    const documented = documentedRoutes();
    // The service registers far more than a handful of routes; a broken reading of either side would show here.
    assert.ok(live.size > 80, `only ${live.size} routes read from the app`);
    assert.deepEqual(
      [...live].filter((route) => !documented.has(route)),
      [],
      'registered but not documented',
    );
    assert.deepEqual(
      [...documented].filter((route) => !live.has(route)),
      [],
      'documented but not registered',
    );
    for (const route of [
      'GET /api/v1/openapi.json',
      'GET /docs',
      'GET /api/v1/jobs/{}/stream',
      'GET /metrics',
      'GET /media/{}',
      'POST /api/v1/videos/ai-influencer',
    ]) {
      assert.ok(documented.has(route), route);
    }
  });

  void test('operations name their security, headers and errors', () => {
    const health = doc.paths['/api/v1/health'].get;
    assert.deepEqual(health.security, [], 'a route without a key has no security');
    const usage = doc.paths['/api/v1/usage'].get;
    assert.equal(usage.security, undefined, 'an authenticated route takes the document security');
    assert.deepEqual(doc.security, [{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    assert.match(usage.responses['401'].description, /AUTH_REQUIRED/);
    assert.match(usage.responses['429'].description, /RATE_LIMIT_EXCEEDED/);
    assert.ok(usage.responses['429'].headers['Retry-After']);

    const stock = doc.paths['/api/v1/generate-and-post'].post;
    const receipt = stock.responses['202'];
    for (const header of [
      'X-Request-Id',
      'X-Job-Id',
      'X-Api-Credits-Cost-Usd-Cents',
      'X-Api-Credits-Engine',
    ]) {
      assert.ok(receipt.headers[header], `${header} on the receipt`);
    }
    assert.ok(stock.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
    assert.match(stock.responses['402'].description, /INSUFFICIENT_API_CREDITS/);
    assert.match(stock.responses['400'].description, /IDEMPOTENCY_KEY_REQUIRED/);
    const job = doc.paths['/api/v1/jobs/{jobId}'].get;
    assert.deepEqual(
      job.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
      ['path:jobId'],
    );
    assert.match(job.responses['404'].description, /JOB_NOT_FOUND/);
    assert.equal(doc.paths['/api/v1/videos/ai-story'].post.deprecated, true);
    assert.match(
      doc.paths['/api/v1/videos/ai-story'].post.responses['410'].description,
      /MODE_NOT_AVAILABLE/,
    );
    assert.ok(doc.paths['/api/v1/jobs/{jobId}/stream'].get.responses['101']);
  });

  void test("a Generate route's body is its mode's schema: the same JSON Schema /capabilities publishes", async () => {
    const capabilities = await service.call('GET', '/api/v1/capabilities');
    assert.equal(capabilities.status, 200, capabilities.text);
    const modes = capabilities.body.data.modes as { path: string; input_schema: any }[];
    assert.ok(modes.length >= 10);
    for (const mode of modes) {
      // POST /jobs takes any mode's body: one of its alternatives is this mode's own.
      const schema = doc.paths[mode.path].post.requestBody.content['application/json'].schema;
      const refs: string[] = schema.$ref ? [schema.$ref] : schema.anyOf.flatMap((s: any) => s.$ref ?? []);
      const bodies = refs.map((ref) => doc.components.schemas[ref.split('/').pop()!]);
      const same = bodies.find((body) =>
        Object.entries(mode.input_schema.properties ?? {}).every(([field, property]) =>
          isDeepStrictEqual(body.properties[field], property),
        ),
      );
      assert.ok(same, `${mode.path}: no body of the document has the mode's schema`);
    }
  });

  void test("the specs' example bodies validate against the document, and invalid ones do not", () => {
    const v = validator();
    const valid: [string, string, unknown][] = [
      ['post', '/api/v1/generate-and-post', STOCK_BODY],
      ['post', '/api/v1/generate-and-post', { script: 'Saving early matters.', dry_run: true }],
      ['post', '/api/v1/videos/text-to-video', TEXT_TO_VIDEO_BODY],
      ['post', '/api/v1/videos/ai-influencer', AI_INFLUENCER_BODY],
      ['post', '/api/v1/videos/ai-influencer', PRESENTER_BROLL_BODY],
      ['post', '/api/v1/avatars', AVATAR_BODY],
      ['post', '/api/v1/jobs', { operation: 'text_to_video', ...TEXT_TO_VIDEO_BODY }],
      ['post', '/api/v1/jobs', STOCK_BODY],
      [
        'post',
        '/api/v1/batch',
        {
          jobs: [
            { endpoint: 'generate-and-post', body: STOCK_BODY },
            { endpoint: 'videos/text-to-video', body: TEXT_TO_VIDEO_BODY },
          ],
        },
      ],
      ['post', '/api/v1/b2b/validate', PREVIEW_BODY],
    ];
    for (const [method, path, body] of valid) {
      const validate = v.body(method, path);
      assert.equal(validate(body), true, `${path}: ${JSON.stringify(validate.errors)}`);
    }
    const invalid: [string, string, unknown][] = [
      ['post', '/api/v1/generate-and-post', { ...STOCK_BODY, duration_sec: 500 }],
      ['post', '/api/v1/generate-and-post', { ...STOCK_BODY, caption_style: { preset: 'sparkles' } }],
      ['post', '/api/v1/videos/text-to-video', { ...TEXT_TO_VIDEO_BODY, prompt: 'x'.repeat(1001) }],
      ['post', '/api/v1/videos/text-to-video', { ...TEXT_TO_VIDEO_BODY, resolution: '4k' }],
      ['post', '/api/v1/videos/ai-influencer', { ...AI_INFLUENCER_BODY, engine: 'avatar_ix' }],
      ['post', '/api/v1/avatars', { name: 'Maya' }],
      ['post', '/api/v1/avatars', { ...AVATAR_BODY, voice: 'x' }],
      ['post', '/api/v1/jobs', { operation: 'no_such_mode', ...TEXT_TO_VIDEO_BODY }],
      ['post', '/api/v1/batch', { jobs: [] }],
      ['post', '/api/v1/b2b/validate', { ...PREVIEW_BODY, mode: 'clipping' }],
      [
        'post',
        '/api/v1/b2b/validate',
        { ...PREVIEW_BODY, budget: { currency: 'EUR', max_cost_usd_cents: 500 } },
      ],
      [
        'post',
        '/api/v1/b2b/validate',
        { ...PREVIEW_BODY, input: { ...PREVIEW_BODY.input, duration_seconds: 121 } },
      ],
    ];
    for (const [method, path, body] of invalid) {
      assert.equal(
        v.body(method, path)(body),
        false,
        `${path} accepted ${JSON.stringify(body).slice(0, 120)}`,
      );
    }
  });

  void test('the answers the service sends match the document', async () => {
    const v = validator();
    const health = await service.call('GET', '/api/v1/health', { key: null });
    assert.equal(v.answer('get', '/api/v1/health', 200)(health.body), true);

    const dryRun = await service.call('POST', '/api/v1/generate-and-post', {
      body: { ...STOCK_BODY, dry_run: true },
    });
    assert.equal(dryRun.status, 200, dryRun.text);
    const dryRunAnswer = v.answer('post', '/api/v1/generate-and-post', 200);
    assert.equal(dryRunAnswer(dryRun.body), true, JSON.stringify(dryRunAnswer.errors));

    const refused = await service.call('POST', '/api/v1/generate-and-post', {
      body: { ...STOCK_BODY, duration_sec: 500, dry_run: true },
    });
    assert.equal(refused.status, 400);
    assert.equal(v.answer('post', '/api/v1/generate-and-post', 400)(refused.body), true);

    // No webhook: the job is cancelled below, and its callback would go out to the example address.
    const accepted = await service.call('POST', '/api/v1/generate-and-post', {
      body: { ...STOCK_BODY, webhook_url: undefined },
      headers: { 'idempotency-key': 'openapi-doc-receipt-0001' },
    });
    assert.equal(accepted.status, 202, accepted.text);
    const receipt = v.answer('post', '/api/v1/generate-and-post', 202);
    assert.equal(receipt(accepted.body), true, JSON.stringify(receipt.errors));
    for (const header of Object.keys(doc.paths['/api/v1/generate-and-post'].post.responses['202'].headers)) {
      if (header.startsWith('X-Idempotent-')) continue;
      assert.ok(accepted.headers.get(header), `the receipt carries ${header}`);
    }

    const jobId: string = accepted.body.data.job_id;
    const job = await service.call('GET', `/api/v1/jobs/${jobId}`);
    const jobAnswer = v.answer('get', '/api/v1/jobs/{jobId}', 200);
    assert.equal(jobAnswer(job.body), true, JSON.stringify(jobAnswer.errors));
    const cancelled = await service.call('POST', `/api/v1/jobs/${jobId}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(v.answer('post', '/api/v1/jobs/{jobId}/cancel', 200)(cancelled.body), true);
    const missing = await service.call('GET', '/api/v1/jobs/job_missing');
    assert.equal(missing.status, 404);
    assert.equal(v.answer('get', '/api/v1/jobs/{jobId}', 404)(missing.body), true);
  });
});

void describe('GET /docs', () => {
  void test('is an HTML reference page whose scripts and styles this server serves', async () => {
    const page = await fetch(`${service.url}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(scripts.length >= 2, html);
    for (const src of [...scripts, ...styles]) {
      assert.ok(src.startsWith('/'), `${src} is served here, not from a CDN`);
      const asset = await fetch(`${service.url}${src}`);
      assert.equal(asset.status, 200, src);
      const type = asset.headers.get('content-type') ?? '';
      assert.match(type, src.endsWith('.css') ? /^text\/css/ : /^text\/javascript/, src);
      assert.ok((await asset.text()).length > 100, src);
    }
    const bundle = await fetch(`${service.url}/docs/swagger-ui-bundle.js`);
    assert.ok((await bundle.arrayBuffer()).byteLength > 100_000, 'the whole Swagger UI bundle');
    const start = await (await fetch(`${service.url}/docs/reference.js`)).text();
    assert.match(start, /\/api\/v1\/openapi\.json/);
    const unknown = await fetch(`${service.url}/docs/..%2Fpackage.json`);
    assert.equal(unknown.status, 404);
  });
});
