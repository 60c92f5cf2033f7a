import assert from 'node:assert/strict';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { brandProfileSchema } from '../src/brand/analysis/profile-fields.ts';
import { isIndustryId } from '../src/brand/profile/industries.ts';
import { productModes } from '../src/modes/index.ts';
import { BRAND_SITE_DECLARED, BrandSiteServer, type HostileKind } from './support/brand-site-server.ts';
import { startHookReceiver, type HookReceiver } from './support/hook-receiver.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /brand/analyze, GET and PATCH /brand/{brand_id} end to end: the real service and worker, the Northwind
// Ledger fixture site on loopback (test/fixtures/brand-site), real crawling, logo normalization, storage,
// ledger and signed webhooks.

const deltaE2000 = differenceCiede2000();

let service: TestService;
let site: BrandSiteServer;
let hooks: HookReceiver;

async function analyze(
  url: string,
  extra: Record<string, unknown> = {},
  key?: string,
  idempotencyKey = `brand-${randomUUID()}`,
) {
  return service.call('POST', '/api/v1/brand/analyze', {
    body: { url, ...extra },
    headers: { 'idempotency-key': idempotencyKey },
    ...(key ? { key } : {}),
  });
}

/** Polls GET /brand/{id} until the analysis is no longer analysing. */
async function waitForBrand(brandId: string, timeoutMs = 40_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await service.call('GET', `/api/v1/brand/${brandId}`);
    assert.equal(response.status, 200, response.text);
    if (response.body.data.status !== 'analyzing') return response.body.data;
    if (Date.now() > deadline) throw new Error(`brand ${brandId} still analysing: ${response.text}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function ledgerOf(jobId: string): Promise<{ kind: string; amount_cents: number }[]> {
  const { rows } = await service.runtime.database.pool.query(
    'SELECT kind, amount_cents FROM ledger_entries WHERE job_id = $1 ORDER BY id',
    [jobId],
  );
  return rows;
}

async function balance(): Promise<number> {
  return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
}

function verifySignature(secret: string, header: string, rawBody: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

void describe('brand analysis', () => {
  let first: any;

  before(async () => {
    site = await BrandSiteServer.start();
    hooks = await startHookReceiver();
    service = await startTestService({ modes: productModes });
  });

  after(async () => {
    await service?.stop();
    await hooks?.close();
    await site?.close();
  });

  void test('a website is analysed on the job queue: receipt, profile, stored logo, charge and signed webhook', async () => {
    const before = await balance();
    const tools = await service.call('GET', '/api/v1/tools', { key: null });
    const listed = tools.body.data.pricing.operations.find(
      (o: { operation: string }) => o.operation === 'brand_analysis',
    );
    assert.deepEqual(
      [listed?.route, listed?.usd_cents, listed?.display],
      ['/api/v1/brand/analyze', 40, '$0.40'],
    );

    const idempotencyKey = `brand-${randomUUID()}`;
    const body = { webhook_url: `${hooks.url}/brand` };
    const receipt = await analyze(site.origin, body, undefined, idempotencyKey);
    assert.equal(receipt.status, 202, receipt.text);
    const replay = await analyze(site.origin, body, undefined, idempotencyKey);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    assert.deepEqual(replay.body.data, receipt.body.data);
    const { data, meta } = receipt.body;
    assert.equal(receipt.body.success, true);
    assert.match(data.job_id, /^job_/);
    assert.match(data.brand_id, /^brand_/);
    assert.equal(data.status, 'analyzing');
    assert.ok(Number.isInteger(data.estimated_completion_sec) && data.estimated_completion_sec > 0);
    assert.equal(data.previous_brand_id, null);
    assert.equal(typeof meta.request_id, 'string');
    const price = Number(receipt.headers.get('x-api-credits-cost-usd-cents'));
    assert.equal(price, 40);

    const brand = await waitForBrand(data.brand_id);
    assert.equal(brand.status, 'ready', JSON.stringify(brand));
    assert.equal(brand.brand_id, data.brand_id);
    assert.equal(brand.job_id, data.job_id);
    assert.equal(brand.url, `${site.origin}/`);
    assert.equal(brand.from_stored_crawl, false);
    assert.deepEqual(brand.overrides, []);
    assert.ok(Date.parse(brand.analyzed_at) > 0);

    const profile = brand.profile;
    assert.deepEqual(Object.keys(profile).sort(), [
      'anti_styles',
      'audience',
      'colors',
      'fonts',
      'industry',
      'logo_url',
      'name',
      'tagline',
      'tone',
      'topic_pool',
      'url',
      'video_styles',
      'voice',
    ]);
    // Every field meets the rules PATCH applies (URLs under this service's guard, which lets loopback through).
    const rules = service.runtime.context.urlGuard.validating(() => brandProfileSchema.safeParse(profile));
    assert.ok(rules.success, JSON.stringify(rules.error?.issues));
    assert.equal(profile.name, BRAND_SITE_DECLARED.name);
    assert.ok(isIndustryId(profile.industry), profile.industry);
    assert.equal(profile.fonts.headline, BRAND_SITE_DECLARED.fonts.heading);
    assert.equal(profile.fonts.body, BRAND_SITE_DECLARED.fonts.body);
    for (const role of ['primary', 'secondary', 'accent', 'background'] as const) {
      const distance = deltaE2000(profile.colors[role], BRAND_SITE_DECLARED.colors[role]);
      assert.ok(
        distance <= 5,
        `${role}: ${profile.colors[role]} is ΔE ${distance.toFixed(1)} from the site's`,
      );
    }

    // logo_url is the stored, normalized copy: a transparent PNG with its white box and margins gone.
    const logoResponse = await fetch(profile.logo_url);
    assert.equal(logoResponse.status, 200);
    assert.equal(logoResponse.headers.get('content-type'), 'image/png');
    const { data: pixels, info } = await sharp(Buffer.from(await logoResponse.arrayBuffer()))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => pixels[(y * info.width + x) * info.channels + 3]!;
    for (const [x, y] of [
      [0, 0],
      [info.width - 1, 0],
      [0, info.height - 1],
      [info.width - 1, info.height - 1],
    ] as const)
      assert.ok(alphaAt(x, y) < 32, `corner ${x},${y} has alpha ${alphaAt(x, y)}`);
    // The fixture's content box is 604×132 inside a 700×220 white box.
    assert.ok(
      Math.abs(info.width - 604) <= 4 && Math.abs(info.height - 132) <= 4,
      `${info.width}×${info.height}`,
    );
    assert.equal(brand.logo.width, info.width);
    assert.equal(brand.logo.background, 'white_removed');

    // Charged exactly the price header, once.
    assert.deepEqual(await ledgerOf(data.job_id), [{ kind: 'charge', amount_cents: -price }]);
    assert.equal(await balance(), before - price);

    // brand.analyzed, signed with the account's secret.
    const [hook] = await hooks.waitFor('/brand', 1);
    assert.equal(hook!.headers['x-service-event-type'], 'brand.analyzed');
    const secret = (await service.call('GET', '/api/v1/webhook-secret')).body.data.secret;
    assert.ok(verifySignature(secret, String(hook!.headers['x-service-signature']), hook!.rawBody));
    const event = JSON.parse(hook!.rawBody);
    assert.equal(event.event_type, 'brand.analyzed');
    assert.equal(event.event_id, hook!.headers['x-service-event-id']);
    assert.equal(event.data.brand_id, data.brand_id);
    assert.equal(event.data.status, 'ready');
    // The same profile; its logo link is signed when the event is made, so only the file it names compares.
    const withoutLink = (p: Record<string, unknown>) => ({
      ...p,
      logo_url: new URL(String(p.logo_url)).pathname,
    });
    assert.deepEqual(withoutLink(event.data.profile), withoutLink(profile));
    assert.equal((await fetch(event.data.profile.logo_url)).status, 200);

    first = brand;
  });

  void test('a re-analysis within 7 days answers from the stored crawl: previous_brand_id, no page requested', async () => {
    assert.ok(first, 'needs the first analysis');
    const requestsBefore = site.requests.length;
    const receipt = await analyze(site.origin);
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.body.data.previous_brand_id, first.brand_id);
    assert.notEqual(receipt.body.data.brand_id, first.brand_id);

    const brand = await waitForBrand(receipt.body.data.brand_id);
    assert.equal(brand.status, 'ready', JSON.stringify(brand));
    assert.equal(brand.previous_brand_id, first.brand_id);
    assert.equal(brand.from_stored_crawl, true);
    assert.equal(site.requests.length, requestsBefore, JSON.stringify(site.requests.slice(requestsBefore)));
    const { logo_url: logo, ...profile } = brand.profile;
    const { logo_url: firstLogo, ...firstProfile } = first.profile;
    assert.deepEqual(profile, firstProfile);
    // The same stored logo, behind a freshly signed link.
    assert.equal(new URL(logo).pathname, new URL(firstLogo).pathname);
    assert.equal(await ledgerOf(receipt.body.data.job_id).then((l) => l.length), 1);
  });

  void test('PATCH overrides any profile field, survives re-analysis, and null brings the analysed value back', async () => {
    const receipt = await analyze(site.origin);
    const brandId = receipt.body.data.brand_id;
    const analysed = (await waitForBrand(brandId)).profile;
    const tone = analysed.tone.includes('playful') ? ['calm', 'warm'] : ['playful', 'warm'];

    const patched = await service.call('PATCH', `/api/v1/brand/${brandId}`, {
      body: { tone, colors: { primary: '#123456' }, anti_styles: ['energetic'] },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data.overrides, ['tone', 'anti_styles', 'colors.primary']);
    assert.deepEqual(patched.body.data.profile.tone, tone);
    assert.equal(patched.body.data.profile.colors.primary, '#123456');
    assert.equal(patched.body.data.profile.colors.accent, analysed.colors.accent);
    assert.deepEqual(patched.body.data.profile.anti_styles, ['energetic']);

    const again = await analyze(site.origin);
    assert.equal(again.body.data.previous_brand_id, brandId);
    const reanalysed = await waitForBrand(again.body.data.brand_id);
    assert.deepEqual(reanalysed.overrides, ['tone', 'anti_styles', 'colors.primary']);
    assert.deepEqual(reanalysed.profile.tone, tone);
    assert.equal(reanalysed.profile.colors.primary, '#123456');

    const cleared = await service.call('PATCH', `/api/v1/brand/${reanalysed.brand_id}`, {
      body: { tone: null, colors: null },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.data.overrides, ['anti_styles']);
    assert.deepEqual(cleared.body.data.profile.tone, analysed.tone);
    assert.equal(cleared.body.data.profile.colors.primary, analysed.colors.primary);
    assert.deepEqual(cleared.body.data.profile.anti_styles, ['energetic']);
    // The earlier analysis keeps its own overrides.
    const earlier = await service.call('GET', `/api/v1/brand/${brandId}`);
    assert.deepEqual(earlier.body.data.profile.tone, tone);
  });

  void test('PATCH refuses values the profile rules refuse, naming each field', async () => {
    const brandId = first.brand_id;
    const bad = await service.call('PATCH', `/api/v1/brand/${brandId}`, {
      body: {
        tone: ['sarcastic', 'calm'],
        audience: ['only one'],
        colors: { primary: 'green' },
        industry: 'not-an-industry',
        voice: { recommendation: 'nobody:nothing' },
        mood: 'happy',
      },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'INPUT_INVALID');
    const fields = bad.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    assert.deepEqual(fields, [
      'audience',
      'colors.primary',
      'industry',
      'mood',
      'tone[0]',
      'voice.recommendation',
    ]);
    const empty = await service.call('PATCH', `/api/v1/brand/${brandId}`, { body: {} });
    assert.equal(empty.status, 400, empty.text);
    const unchanged = await service.call('GET', `/api/v1/brand/${brandId}`);
    assert.deepEqual(unchanged.body.data.overrides, []);
  });

  void test('an unknown or another account’s brand_id is 404 BRAND_NOT_FOUND, for GET and PATCH', async () => {
    const other = await service.newAccount();
    for (const [id, key] of [
      [first.brand_id, other.live_key],
      ['brand_doesnotexist', undefined],
    ] as const) {
      const get = await service.call('GET', `/api/v1/brand/${id}`, key ? { key } : {});
      assert.equal(get.status, 404, get.text);
      assert.equal(get.body.error.code, 'BRAND_NOT_FOUND');
      const patch = await service.call('PATCH', `/api/v1/brand/${id}`, {
        body: { tone: ['calm', 'warm'] },
        ...(key ? { key } : {}),
      });
      assert.equal(patch.status, 404, patch.text);
      assert.equal(patch.body.error.code, 'BRAND_NOT_FOUND');
    }
    // Another account analysing the same site starts cold: nothing of this account's is reused.
    const theirs = await analyze(site.origin, {}, other.live_key);
    assert.equal(theirs.status, 202, theirs.text);
    assert.equal(theirs.body.data.previous_brand_id, null);
  });

  void test('requests are validated before any charge', async () => {
    const before = await balance();
    const missing = await service.call('POST', '/api/v1/brand/analyze', {
      body: {},
      headers: { 'idempotency-key': `brand-${randomUUID()}` },
    });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.error.details.fields[0].field, 'url');
    const privateSite = await analyze('https://10.0.0.8/');
    assert.equal(privateSite.status, 400, privateSite.text);
    assert.equal(privateSite.body.error.details.fields[0].field, 'url');
    const noKey = await service.call('POST', '/api/v1/brand/analyze', { body: { url: site.origin } });
    assert.equal(noKey.status, 400, noKey.text);
    assert.equal(noKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const dry = await service.call('POST', '/api/v1/brand/analyze', {
      body: { url: site.origin, dry_run: true },
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.price.usd_cents, 40);
    assert.equal(dry.body.data.normalized_request.url, `${site.origin}/`);
    assert.equal(await balance(), before);
  });

  void test('hostile sites end in bounded time with a clear error and a refund', async () => {
    const kinds: HostileKind[] = ['huge_page', 'slow_trickle', 'redirect_loop', 'private_redirect'];
    const started = Date.now();
    const results = await Promise.all(
      kinds.map(async (kind) => {
        const receipt = await analyze(site.hostileUrl(kind));
        assert.equal(receipt.status, 202, `${kind}: ${receipt.text}`);
        const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 45_000 });
        const brand = await waitForBrand(receipt.body.data.brand_id);
        return { kind, job, brand, jobId: receipt.body.data.job_id as string };
      }),
    );
    const reasons: Record<string, string> = {
      huge_page: 'too_large',
      slow_trickle: 'timeout',
      redirect_loop: 'redirect_loop',
      private_redirect: 'url_refused',
    };
    for (const { kind, job, brand, jobId } of results) {
      assert.equal(job.status, 'failed', `${kind}: ${JSON.stringify(job.error)}`);
      assert.equal(brand.status, 'failed');
      assert.equal(brand.profile, null);
      assert.deepEqual(brand.error, job.error);
      assert.equal(job.error.code, 'BRAND_AUTOGEN_FAILED', `${kind}: ${JSON.stringify(job.error)}`);
      assert.equal(job.error.retryable, false);
      assert.ok(job.error.message.includes(`(${reasons[kind]})`), `${kind}: ${job.error.message}`);
      assert.deepEqual(await ledgerOf(jobId), [
        { kind: 'charge', amount_cents: -40 },
        { kind: 'refund', amount_cents: 40 },
      ]);
    }
    // The slowest ends within the analysis' 30 s lifetime (plus the poll's reaction time).
    assert.ok(Date.now() - started < 33_000, `took ${Date.now() - started} ms`);
  });

  void test('an SVG logo with external entities and script is refused unread; the next candidates are tried', async () => {
    // Every logo the home page offers answers the hostile SVG; the other host name makes this a cold analysis.
    const logoPaths = [
      '/assets/northwind-logo.png',
      '/assets/northwind-logo.svg',
      '/assets/apple-touch-icon.png',
      '/assets/og-card.webp',
    ];
    for (const path of logoPaths) site.route(path, 'svg_entity_script');
    try {
      const requestsBefore = site.requests.length;
      const receipt = await analyze(site.localhostOrigin);
      assert.equal(receipt.status, 202, receipt.text);
      const brand = await waitForBrand(receipt.body.data.brand_id);
      assert.equal(brand.status, 'ready', JSON.stringify(brand));
      // A profile without a logo is still the site's profile: delivered and charged, its logo_url null.
      assert.equal(brand.profile.logo_url, null);
      assert.equal(brand.profile.name, BRAND_SITE_DECLARED.name);
      assert.equal(brand.logo, null);
      assert.ok(brand.logo_candidates.length >= 3, JSON.stringify(brand.logo_candidates));
      for (const candidate of brand.logo_candidates) {
        assert.equal(candidate.outcome, 'refused');
        assert.equal(candidate.code, 'LOGO_UNREADABLE');
        assert.match(candidate.reason, /DOCTYPE|entit/i);
      }
      const fetched = site.requests.slice(requestsBefore).map((r) => r.path);
      assert.ok(!fetched.some((p) => p.includes('-target')), JSON.stringify(fetched));
      assert.ok(!JSON.stringify(brand).includes('root:'), 'no file contents leak into the analysis');
    } finally {
      site.reset();
    }
  });
});

/** An OpenAI-compatible chat endpoint: answers a fixed refinement, or hangs. */
async function startFakeLlm(): Promise<{
  url: string;
  mode: 'answer' | 'hang';
  bodies: any[];
  close(): Promise<void>;
}> {
  const state = { mode: 'answer' as 'answer' | 'hang', bodies: [] as any[] };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      state.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (state.mode === 'hang') return;
      const content = JSON.stringify(LLM_REFINEMENT);
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const LLM_REFINEMENT = {
  industry: 'b2b_saas',
  audience: ['bookkeepers at accounting firms', 'owners of small shops'],
  tone: ['innovative', 'calm'],
  topic_pool: [
    'Closing the books without overtime',
    'Reconciling bank feeds every morning',
    'Chasing late invoices politely',
    'Reading a profit and loss statement',
    'Preparing for quarterly sales tax',
    'Tracking food costs across locations',
    'Payroll exports your accountant accepts',
    'Capturing receipts on the go',
    'Forecasting cash for the next quarter',
    'Choosing between cash and accrual accounting',
    'Separating personal and business spending',
    'Getting paid by card and ACH',
    'Building a month-end checklist',
    'Working with an outside bookkeeper',
    'Understanding balance sheet basics',
    'Budgeting for seasonal businesses',
    'Spotting duplicate vendor bills',
    'Keeping audit trails tidy',
    'Setting payment terms that stick',
    'Planning for year-end filings',
    'Measuring gross margin by product',
    'Handling refunds in your ledger',
  ],
};

void describe('brand analysis with an LLM refiner (LLM_BASE_URL)', () => {
  let llm: Awaited<ReturnType<typeof startFakeLlm>>;
  let llmService: TestService;
  let llmSite: BrandSiteServer;
  let llmHooks: HookReceiver;

  before(async () => {
    llm = await startFakeLlm();
    llmSite = await BrandSiteServer.start();
    llmHooks = await startHookReceiver();
    llmService = await startTestService({
      modes: productModes,
      env: { LLM_BASE_URL: llm.url, LLM_API_KEY: 'test-key', LLM_MODEL: 'test-model' },
    });
  });

  after(async () => {
    await llmService?.stop();
    await llmHooks?.close();
    await llmSite?.close();
    await llm?.close();
  });

  void test('the LLM refines industry, audience, tone and topics from the crawled text', async () => {
    const receipt = await llmService.call('POST', '/api/v1/brand/analyze', {
      body: { url: llmSite.origin },
      headers: { 'idempotency-key': `brand-${randomUUID()}` },
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-model'), 'llm:test-model');
    const job = await waitForJob(llmService, receipt.body.data.job_id);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const brand = (await llmService.call('GET', `/api/v1/brand/${receipt.body.data.brand_id}`)).body.data;
    assert.equal(brand.profile.industry, LLM_REFINEMENT.industry);
    assert.deepEqual(brand.profile.audience, LLM_REFINEMENT.audience);
    assert.deepEqual(brand.profile.tone, LLM_REFINEMENT.tone);
    assert.ok(LLM_REFINEMENT.topic_pool.every((t) => brand.profile.topic_pool.includes(t)));
    const asked = llm.bodies.at(-1);
    assert.equal(asked.model, 'test-model');
    assert.ok(JSON.stringify(asked.messages).includes('Bookkeeping that closes itself'));
  });

  void test('an analysis still running after 30 s fails with PROCESS_TIMEOUT, is refunded and says so by webhook', async () => {
    llm.mode = 'hang';
    const started = Date.now();
    const receipt = await llmService.call('POST', '/api/v1/brand/analyze', {
      body: { url: llmSite.localhostOrigin, webhook_url: `${llmHooks.url}/failed` },
      headers: { 'idempotency-key': `brand-${randomUUID()}` },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const { job_id: jobId, brand_id: brandId } = receipt.body.data;
    const analysing = (await llmService.call('GET', `/api/v1/brand/${brandId}`)).body.data;
    assert.deepEqual([analysing.status, analysing.profile], ['analyzing', null]);
    // Overrides may be set while it runs.
    const patched = await llmService.call('PATCH', `/api/v1/brand/${brandId}`, {
      body: { fonts: { body: 'Lato' } },
    });
    assert.deepEqual(patched.body.data.overrides, ['fonts.body']);
    const job = await waitForJob(llmService, jobId, { timeoutMs: 45_000 });
    const elapsed = Date.now() - started;
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'PROCESS_TIMEOUT');
    assert.ok(elapsed >= 29_000 && elapsed < 34_000, `ended after ${elapsed} ms`);
    const { rows } = await llmService.runtime.database.pool.query(
      'SELECT kind, amount_cents FROM ledger_entries WHERE job_id = $1 ORDER BY id',
      [jobId],
    );
    assert.deepEqual(rows, [
      { kind: 'charge', amount_cents: -40 },
      { kind: 'refund', amount_cents: 40 },
    ]);
    const brand = (await llmService.call('GET', `/api/v1/brand/${brandId}`)).body.data;
    assert.equal(brand.status, 'failed');
    assert.equal(brand.error.code, 'PROCESS_TIMEOUT');
    const [hook] = await llmHooks.waitFor('/failed', 1);
    assert.equal(hook!.headers['x-service-event-type'], 'brand.analysis_failed');
    const event = JSON.parse(hook!.rawBody);
    assert.deepEqual(
      [event.data.brand_id, event.data.status, event.data.error.code],
      [brandId, 'failed', 'PROCESS_TIMEOUT'],
    );
  });
});
