// The MCP endpoint (spec 2 §4.5) through the SDK's own client over real HTTP: the 24 tools with their routes'
// input schemas, tool calls priced, validated and refused exactly as their REST routes, paid renders that need
// idempotency_key and answer their receipt at once, and the API's 401 before any JSON-RPC. Every one of the 24
// tools is called at least once and must reach its registered route (the last test checks).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createKitSchema, listKitsQuerySchema, updateKitSchema } from '../src/brand/kits/kit-input.ts';
import { inputJsonSchema } from '../src/mcp/tool-schema.ts';
import { mcpTools } from '../src/mcp/tools.ts';
import { productModes } from '../src/modes/index.ts';
import { PRICE_TABLE } from '../src/platform/pricing/price-table.ts';
import {
  addLookSchema,
  createPersonaSchema,
  listPersonasQuerySchema,
} from '../src/presenters/personas/persona-input.ts';
import { articleRequestSchema } from '../src/publishing/articles/article-request.ts';
import { hookRequestSchema } from '../src/signals/hooks/hook-request.ts';
import { radarSchema } from '../src/signals/radar/radar-query.ts';
import { cutRaw, MAN_AT_TABLE, SAMPLES } from './support/sample-photos.ts';
import { SignalSourcesServer } from './support/signal-sources-server.ts';
import { startTestService, type TestService } from './support/test-service.ts';

const SPEC_TOOLS = [
  'get_usage',
  'generate_video_asset',
  'generate_and_post',
  'blog_to_video',
  'generate_article',
  'generate_ai_video',
  'generate_ai_influencer',
  'create_avatar',
  'create_avatar_look',
  'list_avatars',
  'clip_youtube',
  'get_job_status',
  'get_x_hooks',
  'get_trending',
  'get_api_account',
  'get_generation_contracts',
  'validate_generation_request',
  'list_generated_videos',
  'get_generated_video',
  'create_brand',
  'list_brands',
  'get_brand',
  'update_brand',
  'delete_brand',
];

let service: TestService;
let client: Client;
/** The trend sources get_trending reads, replayed on loopback. */
let sources: SignalSourcesServer;
/** Serves one real photo of one person, for a persona. */
let photos: http.Server;
let photoUrl: string;
/** Every answer of every tool call made by these tests: the last test checks each tool reached its route. */
const answers = new Map<string, { via: string; status: number; code?: string; message?: string }[]>();
/** The live job the paid test made (queued: no worker runs). */
let paidJobId: string;

/** An MCP client of the SDK on `path`, with `key` as its bearer key. */
async function connect(key: string, path = '/api/v1/mcp'): Promise<Client> {
  const mcp = new Client({ name: 'reelsmith-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(service.url + path), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return mcp;
}

interface ToolAnswer {
  isError: boolean;
  body: any;
}

async function callTool(name: string, args: Record<string, unknown>, mcp = client): Promise<ToolAnswer> {
  const result = await mcp.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0]?.type, 'text');
  const body = JSON.parse(content[0].text);
  // The text and the structured content carry the same answer.
  assert.deepEqual(result.structuredContent, body);
  answers.set(name, [
    ...(answers.get(name) ?? []),
    {
      via: body.transport.via,
      status: body.transport.status,
      code: body.error?.code,
      message: body.error?.message,
    },
  ]);
  return { isError: result.isError === true, body };
}

async function balance(): Promise<number> {
  const usage = await callTool('get_usage', {});
  assert.equal(usage.isError, false, JSON.stringify(usage.body));
  return usage.body.data.balance_usd_cents;
}

const key = () => `mcp-test-${randomBytes(6).toString('hex')}`;

before(async () => {
  sources = await SignalSourcesServer.start();
  const man = await cutRaw(SAMPLES, MAN_AT_TABLE, { width: 844 });
  const photo = await sharp(man.data, { raw: { width: man.width, height: man.height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  photos = http.createServer((req, res) => {
    if (req.url !== '/man.jpg') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
  });
  await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
  photoUrl = `http://127.0.0.1:${(photos.address() as AddressInfo).port}/man.jpg`;
  // No worker: paid renders are accepted and stay queued, so the tests show receipts without rendering.
  service = await startTestService({
    modes: productModes,
    worker: false,
    env: {
      PLATFORM_TOKEN_KEY: randomBytes(32).toString('base64'),
      TRENDS_FEEDS: JSON.stringify(sources.feeds()),
      TRENDS_HN_BASE_URL: sources.baseUrls.hackerNews,
      TRENDS_GDELT_BASE_URL: sources.baseUrls.gdelt,
      TRENDS_WIKIMEDIA_BASE_URL: sources.baseUrls.wikimedia,
    },
  });
  client = await connect(service.account.live_key);
});

after(async () => {
  await client.close();
  await service.stop();
  await sources.close();
  await new Promise((resolve) => photos.close(resolve));
});

void describe('MCP endpoint', () => {
  void test('initialize names the server; tools/list has exactly the 24 tools, each with an object input schema', async () => {
    assert.equal(client.getServerVersion()?.name, 'reelsmith');
    assert.ok(client.getInstructions()?.includes('idempotency_key'));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...SPEC_TOOLS].sort());
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description && tool.description.length > 40, tool.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get('get_job_status')!.inputSchema.required, ['job_id']);
    assert.ok(byName.get('generate_video_asset')!.inputSchema.properties!.idempotency_key);
    assert.ok(byName.get('generate_video_asset')!.inputSchema.properties!.dry_run);
    // Image-to-video needs image_url, text-to-video does not: the combined tool requires only the prompt.
    assert.deepEqual(byName.get('generate_ai_video')!.inputSchema.required, ['prompt']);
    assert.ok(byName.get('generate_ai_video')!.inputSchema.properties!.image_url);
  });

  void test('every tool input schema is its route schema (the same Zod schema, as JSON Schema)', async () => {
    const { registry } = service.runtime.context;
    const { tools } = await client.listTools();
    const listed = new Map<string, Tool>(tools.map((t) => [t.name, t]));
    const mode = (endpoint: string) => registry.forEndpoint(endpoint)!.schema;
    const expected: Record<string, unknown[]> = {
      generate_video_asset: [mode('generate-and-post')],
      generate_and_post: [registry.get('fanout')!.schema],
      blog_to_video: [mode('blog-to-video')],
      generate_article: [articleRequestSchema],
      generate_ai_video: [mode('videos/text-to-video'), mode('videos/image-to-video')],
      generate_ai_influencer: [mode('videos/ai-influencer')],
      create_avatar: [createPersonaSchema],
      create_avatar_look: [addLookSchema],
      list_avatars: [listPersonasQuerySchema],
      clip_youtube: [mode('clipper/vidsite')],
      get_x_hooks: [hookRequestSchema],
      get_trending: [radarSchema],
      create_brand: [createKitSchema],
      list_brands: [listKitsQuerySchema],
      update_brand: [updateKitSchema],
    };
    for (const tool of mcpTools(registry)) {
      const schemas = tool.routes.flatMap((route) => (route.schema ? [route.schema] : []));
      if (expected[tool.name]) assert.deepEqual(schemas, expected[tool.name], tool.name);
      const properties = listed.get(tool.name)!.inputSchema.properties ?? {};
      for (const schema of schemas) {
        const route = inputJsonSchema(schema) as { properties: Record<string, unknown> };
        for (const [field, fieldSchema] of Object.entries(route.properties))
          assert.deepEqual(properties[field], fieldSchema, `${tool.name}.${field}`);
      }
    }
    // The stock mode's fields are exactly the tool's, besides the tool's own arguments.
    const stock = inputJsonSchema(mode('generate-and-post')) as { properties: Record<string, unknown> };
    const own = ['idempotency_key', 'dry_run', 'webhook_url', 'delivery', 'listing', 'agent_run_id'];
    assert.deepEqual(
      Object.keys(listed.get('generate_video_asset')!.inputSchema.properties!).sort(),
      [...Object.keys(stock.properties), ...own].sort(),
    );
  });

  void test('get_usage wraps GET /usage and adds transport', async () => {
    const usage = await callTool('get_usage', {});
    assert.equal(usage.isError, false);
    assert.equal(usage.body.success, true);
    assert.equal(usage.body.data.account_id, service.account.account_id);
    assert.equal(usage.body.data.key_mode, 'live');
    assert.deepEqual(usage.body.transport, { status: 200, ok: true, via: 'GET /api/v1/usage' });
    const rest = await service.call('GET', '/api/v1/usage');
    assert.equal(usage.body.data.balance_usd_cents, rest.body.data.balance_usd_cents);
  });

  void test('a dry-run generate_and_post validates and prices the fan-out without a key and charges nothing', async () => {
    const connected = await service.call('POST', '/api/v1/social-accounts', {
      body: { platform: 'microsite', external_account_id: '1234567', access_token: 'x-token-for-tests' },
    });
    assert.equal(connected.status, 201, connected.text);
    const start = await balance();
    const dry = await callTool('generate_and_post', {
      topic: 'why walking after lunch helps focus',
      platforms: ['microsite'],
      dry_run: true,
    });
    assert.equal(dry.isError, false, JSON.stringify(dry.body));
    assert.equal(dry.body.data.dry_run, true);
    assert.equal(dry.body.data.charged, false);
    assert.equal(dry.body.data.mode, 'fanout');
    assert.equal(dry.body.data.price.usd_cents, 60 + 5);
    assert.deepEqual(dry.body.transport, { status: 200, ok: true, via: 'POST /api/v1/jobs' });
    assert.equal(await balance(), start);

    const notConnected = await callTool('generate_and_post', {
      topic: 'why walking after lunch helps focus',
      platforms: ['shortsite'],
      dry_run: true,
    });
    assert.equal(notConnected.isError, true);
    assert.equal(notConnected.body.error.code, 'PLATFORM_NOT_CONNECTED');
    assert.equal(notConnected.body.transport.status, 400);
  });

  void test('a paid render without idempotency_key is refused by the tool: no HTTP call, nothing charged', async () => {
    const start = await balance();
    const jobsBefore = await service.runtime.database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const refused = await callTool('generate_video_asset', { topic: 'compound interest in one minute' });
    assert.equal(refused.isError, true);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.match(refused.body.error.message, /idempotency_key/);
    assert.deepEqual(refused.body.transport, { status: 400, ok: false, via: 'mcp' });
    assert.equal(await balance(), start);
    const jobsAfter = await service.runtime.database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(jobsAfter.n, jobsBefore.n);
  });

  void test('with a key the receipt comes at once; the same key replays the same job; get_job_status reads it', async () => {
    const start = await balance();
    const idempotencyKey = key();
    const args = {
      topic: 'compound interest in one minute',
      duration_sec: 30,
      idempotency_key: idempotencyKey,
    };
    const began = Date.now();
    const first = await callTool('generate_video_asset', args);
    assert.ok(Date.now() - began < 30_000, 'the receipt does not wait for a render');
    assert.equal(first.isError, false, JSON.stringify(first.body));
    assert.deepEqual(first.body.transport, { status: 202, ok: true, via: 'POST /api/v1/generate-and-post' });
    const jobId: string = first.body.data.job_id;
    assert.match(jobId, /^job_\w+$/);
    paidJobId = jobId;
    assert.equal(first.body.data.status, 'queued');
    assert.equal(await balance(), start - 60);

    const replay = await callTool('generate_video_asset', args);
    assert.equal(replay.isError, false);
    assert.equal(replay.body.data.job_id, jobId);
    assert.equal(replay.body.meta.replayed, true);
    assert.equal(await balance(), start - 60);

    const status = await callTool('get_job_status', { job_id: jobId });
    assert.equal(status.isError, false, JSON.stringify(status.body));
    assert.equal(status.body.data.job.id, jobId);
    assert.equal(status.body.data.job.status, 'queued');
    assert.ok(Array.isArray(status.body.data.job.progress));
    assert.deepEqual(status.body.transport, { status: 200, ok: true, via: `GET /api/v1/jobs/${jobId}` });

    const missing = await callTool('get_job_status', { job_id: 'job_nosuchjob00000000000' });
    assert.equal(missing.isError, true);
    assert.equal(missing.body.error.code, 'JOB_NOT_FOUND');
    assert.equal(missing.body.transport.status, 404);
    const badId = await callTool('get_job_status', { job_id: '../usage' });
    assert.equal(badId.isError, true);
    assert.equal(badId.body.error.code, 'INPUT_INVALID');
    assert.equal(badId.body.transport.via, 'mcp');
  });

  void test("each call carries the caller's own key: a sandbox key gets a free, completed sandbox job", async () => {
    const start = await balance();
    const sandbox = await connect(service.account.sandbox_key);
    const receipt = await callTool(
      'generate_video_asset',
      { topic: 'a sandboxed video', idempotency_key: key() },
      sandbox,
    );
    assert.equal(receipt.isError, false, JSON.stringify(receipt.body));
    const jobId: string = receipt.body.data.job_id;
    assert.match(jobId, /^sandbox_job_\w+$/);
    const status = await callTool('get_job_status', { job_id: jobId }, sandbox);
    assert.equal(status.body.data.job.status, 'completed');
    assert.equal(status.body.data.job.sandbox, true);
    // Another account's key does not see it, as over REST.
    const stranger = await service.newAccount();
    const foreign = await connect(stranger.live_key);
    const hidden = await callTool('get_job_status', { job_id: jobId }, foreign);
    assert.equal(hidden.isError, true);
    assert.equal(hidden.body.transport.status, 404);
    await sandbox.close();
    await foreign.close();
    assert.equal(await balance(), start);
  });

  void test('a REST validation error is a tool error holding the error envelope and transport.status 400', async () => {
    const start = await balance();
    const invalid = await callTool('generate_video_asset', {
      topic: 'too short to be a video',
      duration_sec: 5,
      idempotency_key: key(),
    });
    assert.equal(invalid.isError, true);
    assert.equal(invalid.body.success, false);
    assert.equal(invalid.body.error.code, 'INPUT_INVALID');
    assert.ok(invalid.body.error.details.fields.some((f: { field: string }) => f.field === 'duration_sec'));
    assert.ok(invalid.body.meta.request_id);
    assert.deepEqual(invalid.body.transport, {
      status: 400,
      ok: false,
      via: 'POST /api/v1/generate-and-post',
    });
    // The route's own answer, field for field.
    const rest = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'too short to be a video', duration_sec: 5 },
      headers: { 'idempotency-key': key() },
    });
    assert.equal(rest.status, 400);
    assert.deepEqual(invalid.body.error, rest.body.error);
    assert.equal(await balance(), start);
  });

  void test('the other tools reach their routes: brands, library, business preview, avatars, hooks, trends', async () => {
    const created = await callTool('create_brand', { name: 'Acme Savings', accent_color: '#22c55e' });
    assert.equal(created.isError, false, JSON.stringify(created.body));
    assert.equal(created.body.transport.via, 'POST /api/v1/b2b/brands');
    const brandId: string = created.body.data.brand_id;
    const listed = await callTool('list_brands', { limit: 5 });
    assert.ok(listed.body.data.items.some((kit: { brand_id: string }) => kit.brand_id === brandId));
    assert.equal(listed.body.transport.via, 'GET /api/v1/b2b/brands');
    const updated = await callTool('update_brand', { brand_id: brandId, primary_color: '#112233' });
    assert.equal(updated.isError, false, JSON.stringify(updated.body));
    assert.equal(updated.body.transport.via, `PATCH /api/v1/b2b/brands/${brandId}`);
    const read = await callTool('get_brand', { brand_id: brandId });
    assert.equal(read.body.data.primary_color, '#112233');
    const deleted = await callTool('delete_brand', { brand_id: brandId });
    assert.deepEqual(deleted.body.data, { brand_id: brandId, deleted: true });
    assert.equal(deleted.body.transport.via, `DELETE /api/v1/b2b/brands/${brandId}`);
    const gone = await callTool('get_brand', { brand_id: brandId });
    assert.equal(gone.isError, true);
    assert.equal(gone.body.error.code, 'BRAND_NOT_FOUND');

    const videos = await callTool('list_generated_videos', { limit: 100 });
    assert.equal(videos.isError, false, JSON.stringify(videos.body));
    const mine = videos.body.data.items.find((item: { job_id: string }) => item.job_id === paidJobId);
    assert.ok(mine, 'the paid job is in the library');
    const video = await callTool('get_generated_video', { video_id: mine.video_id });
    assert.equal(video.body.data.video_id, mine.video_id);
    assert.equal(video.body.transport.via, `GET /api/v1/b2b/library/videos/${mine.video_id}`);

    const account = await callTool('get_api_account', {});
    assert.equal(account.body.data.account_id, service.account.account_id);
    const contracts = await callTool('get_generation_contracts', {});
    assert.equal(contracts.isError, false);
    assert.equal(contracts.body.transport.via, 'GET /api/v1/b2b/contracts');
    const invalidPreview = await callTool('validate_generation_request', { mode: 'stock' });
    assert.equal(invalidPreview.isError, true);
    assert.equal(invalidPreview.body.error.code, 'INPUT_INVALID');
    assert.equal(invalidPreview.body.transport.via, 'POST /api/v1/b2b/validate');

    const avatars = await callTool('list_avatars', {});
    assert.deepEqual(avatars.body.data.avatars, []);
    const hooks = await callTool('get_x_hooks', { topic: 'saving money on groceries', count: 3 });
    assert.equal(hooks.isError, false, JSON.stringify(hooks.body));
    assert.equal(hooks.body.data.hooks.length, 3);
    // Query values go on the URL; the radar's own rules refuse them (free) before any source is read.
    const trending = await callTool('get_trending', { limit: '0' });
    assert.equal(trending.isError, true);
    assert.equal(trending.body.error.details.fields[0].field, 'limit');
    assert.equal(trending.body.transport.via, 'GET /api/v1/trends/radar');

    // generate_ai_video goes to image-to-video when image_url is sent, else to text-to-video.
    const textVideo = await callTool('generate_ai_video', { prompt: '', dry_run: true });
    assert.equal(textVideo.body.transport.via, 'POST /api/v1/videos/text-to-video');
    const imageVideo = await callTool('generate_ai_video', {
      image_url: 'http://[::1]/x.png',
      dry_run: true,
    });
    assert.equal(imageVideo.body.transport.via, 'POST /api/v1/videos/image-to-video');
    assert.equal(imageVideo.body.error.code, 'INPUT_INVALID');

    const blog = await callTool('blog_to_video', {
      article_title: 'Five habits of careful savers',
      article_text: 'Pay yourself first. Automate transfers. Review subscriptions every month.',
      dry_run: true,
    });
    assert.equal(blog.isError, false, JSON.stringify(blog.body));
    assert.equal(blog.body.data.price.usd_cents, 50);

    const notPosting = await callTool('generate_and_post', { topic: 'no platforms', idempotency_key: key() });
    assert.equal(notPosting.isError, true);
    assert.equal(notPosting.body.error.details.fields[0].field, 'platforms');
    assert.equal(notPosting.body.transport.via, 'mcp');
  });

  void test('the article, persona, presenter, AI video, clip, preview and trend tools reach their routes', async () => {
    const start = await balance();
    const articleKey = key();
    const article = await callTool('generate_article', {
      topic: 'how compound interest grows savings',
      contentType: 'evergreen',
      idempotency_key: articleKey,
    });
    assert.equal(article.isError, false, JSON.stringify(article.body));
    assert.deepEqual(article.body.transport, { status: 200, ok: true, via: 'POST /api/v1/articles' });
    assert.match(article.body.data.article_id, /^art_/);
    assert.equal(article.body.data.quality.passed, true);
    assert.ok(article.body.data.markdown.includes('compound interest'));
    const articlePrice = PRICE_TABLE.seo_article.usdCents;
    assert.equal(await balance(), start - articlePrice);
    const articleReplay = await callTool('generate_article', {
      topic: 'how compound interest grows savings',
      contentType: 'evergreen',
      idempotency_key: articleKey,
    });
    assert.equal(articleReplay.body.data.article_id, article.body.data.article_id);
    assert.equal(await balance(), start - articlePrice);
    const articleNoKey = await callTool('generate_article', { topic: 'index funds' });
    assert.equal(articleNoKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.equal(articleNoKey.body.transport.via, 'mcp');
    // Articles have no dry run: the route itself says so, for free.
    const articleDry = await callTool('generate_article', { topic: 'index funds', dry_run: true });
    assert.equal(articleDry.body.error.code, 'DRY_RUN_NOT_SUPPORTED');
    assert.equal(articleDry.body.transport.via, 'POST /api/v1/articles');

    // The route checks the photo before it charges: a body without one is its own free 400.
    const noPhoto = await callTool('create_avatar', { name: 'Sam', idempotency_key: key() });
    assert.equal(noPhoto.isError, true);
    assert.equal(noPhoto.body.error.details.fields[0].field, 'image_url');
    assert.deepEqual(noPhoto.body.transport, { status: 400, ok: false, via: 'POST /api/v1/avatars' });
    const beforePersona = await balance();
    const persona = await callTool('create_avatar', {
      image_url: photoUrl,
      name: 'Sam',
      idempotency_key: key(),
    });
    assert.equal(persona.isError, false, JSON.stringify(persona.body));
    assert.deepEqual(persona.body.transport, { status: 201, ok: true, via: 'POST /api/v1/avatars' });
    assert.equal(persona.body.data.status, 'ready');
    const avatarId: string = persona.body.data.avatar_id;
    assert.equal(await balance(), beforePersona - PRICE_TABLE.avatar_creation.usdCents);
    const listed = await callTool('list_avatars', {});
    assert.deepEqual(
      listed.body.data.avatars.map((avatar: { avatar_id: string }) => avatar.avatar_id),
      [avatarId],
    );

    const look = await callTool('create_avatar_look', { avatar_id: avatarId, image_url: photoUrl });
    assert.equal(look.body.transport.via, `POST /api/v1/avatars/${avatarId}/looks`);
    // The same photo again is a look of the same person, added free.
    assert.equal(look.isError, false, JSON.stringify(look.body));
    assert.equal(look.body.transport.status, 201);
    assert.match(look.body.data.look_id, /^look_/);
    assert.equal(look.body.data.primary, false);
    assert.equal(await balance(), beforePersona - PRICE_TABLE.avatar_creation.usdCents);
    const noLook = await callTool('create_avatar_look', {
      avatar_id: 'avatar_abcdefghij0123456789',
      image_url: photoUrl,
    });
    assert.equal(noLook.body.error.code, 'AVATAR_NOT_FOUND');
    assert.deepEqual(noLook.body.transport, {
      status: 404,
      ok: false,
      via: 'POST /api/v1/avatars/avatar_abcdefghij0123456789/looks',
    });

    const beforePresenter = await balance();
    const presenter = await callTool('generate_ai_influencer', {
      avatar_id: avatarId,
      script: 'Three habits changed how I save money. First, pay yourself before anything else.',
      engine: 'avatar_iii',
      dry_run: true,
    });
    assert.equal(presenter.isError, false, JSON.stringify(presenter.body));
    assert.deepEqual(presenter.body.transport, {
      status: 200,
      ok: true,
      via: 'POST /api/v1/videos/ai-influencer',
    });
    assert.equal(presenter.body.data.dry_run, true);
    assert.ok(presenter.body.data.price.usd_cents > 0);
    const presenterNoKey = await callTool('generate_ai_influencer', {
      avatar_id: avatarId,
      script: 'Pay yourself first.',
    });
    assert.equal(presenterNoKey.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    assert.equal(await balance(), beforePresenter);

    const clips = await callTool('clip_youtube', {
      vidsite_url: 'https://youtu.be/dQw4w9WgXcQ',
      clip_count: 2,
      dry_run: true,
    });
    assert.equal(clips.isError, false, JSON.stringify(clips.body));
    assert.equal(clips.body.transport.via, 'POST /api/v1/clipper/vidsite');
    assert.equal(clips.body.data.mode, 'clip');
    assert.equal(clips.body.data.price.usd_cents, 2 * PRICE_TABLE.clip.usdCents);

    // Both AI-video routes price a valid request (the local motion engine: no provider is configured).
    const textVideo = await callTool('generate_ai_video', {
      prompt: 'A slow aerial shot over a misty pine forest at sunrise',
      duration_sec: 5,
      dry_run: true,
    });
    assert.equal(textVideo.isError, false, JSON.stringify(textVideo.body));
    assert.deepEqual(textVideo.body.transport, {
      status: 200,
      ok: true,
      via: 'POST /api/v1/videos/text-to-video',
    });
    assert.ok(textVideo.body.data.price.usd_cents > 0);
    const imageVideo = await callTool('generate_ai_video', {
      image_url: photoUrl,
      motion_prompt: 'slow zoom in',
      duration_sec: 5,
      dry_run: true,
    });
    assert.equal(imageVideo.isError, false, JSON.stringify(imageVideo.body));
    assert.deepEqual(imageVideo.body.transport, {
      status: 200,
      ok: true,
      via: 'POST /api/v1/videos/image-to-video',
    });

    const preview = await callTool('validate_generation_request', {
      schema_version: '2026-10-06.preview.2',
      external_id: 'crm-creative-0042',
      content_purpose: 'sales',
      customer: { customer_id: 'cust-acme', website_url: 'https://acme.com' },
      campaign: {
        campaign_id: 'spring-26',
        creative_id: 'creative-7',
        objective: 'book_demo',
        audience: 'Operations leads at mid-size manufacturers',
        call_to_action: { text: 'Book a demo', url: 'https://acme.com/demo' },
      },
      output: { aspect_ratio: '9:16', resolution: '1080p', captions: true, language: 'en' },
      delivery: { visibility: 'private', method: 'pull', access: 'authenticated' },
      budget: { currency: 'USD', max_cost_usd_cents: 500 },
      mode: 'stock',
      input: { topic: 'how predictive maintenance cuts downtime', duration_seconds: 30 },
    });
    assert.equal(preview.isError, false, JSON.stringify(preview.body));
    assert.deepEqual(preview.body.transport, { status: 200, ok: true, via: 'POST /api/v1/b2b/validate' });

    const beforeTrends = await balance();
    const trending = await callTool('get_trending', { limit: '5', idempotency_key: key() });
    assert.equal(trending.isError, false, JSON.stringify(trending.body));
    assert.deepEqual(trending.body.transport, { status: 200, ok: true, via: 'GET /api/v1/trends/radar' });
    assert.ok(trending.body.data.trends.length > 0 && trending.body.data.trends.length <= 5);
    assert.equal(await balance(), beforeTrends - PRICE_TABLE.trends_radar.usdCents);
  });

  void test('/mcp is the same endpoint; X-API-Key works as well', async () => {
    const other = await connect(service.account.live_key, '/mcp');
    const { tools } = await other.listTools();
    assert.equal(tools.length, 24);
    await other.close();
    const response = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': service.account.live_key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_usage', arguments: {} },
      }),
    });
    assert.equal(response.status, 200);
    const answer: any = await response.json();
    assert.equal(answer.id, 7);
    assert.equal(answer.result.structuredContent.data.key_mode, 'live');
  });

  void test('a wrong or missing key is the API 401 envelope before any JSON-RPC; GET and DELETE are 405', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const path of ['/api/v1/mcp', '/mcp']) {
      const wrong = await fetch(service.url + path, {
        method: 'POST',
        headers: { ...headers, authorization: 'Bearer svc_not_a_real_key' },
        body: initialize,
      });
      assert.equal(wrong.status, 401);
      const wrongBody: any = await wrong.json();
      assert.equal(wrongBody.success, false);
      assert.equal(wrongBody.error.code, 'AUTH_INVALID_API_KEY');
      assert.equal('jsonrpc' in wrongBody, false);

      const missing = await fetch(service.url + path, { method: 'POST', headers, body: initialize });
      assert.equal(missing.status, 401);
      assert.equal(((await missing.json()) as any).error.code, 'AUTH_REQUIRED');

      for (const method of ['GET', 'DELETE']) {
        const refused = await fetch(service.url + path, {
          method,
          headers: { authorization: `Bearer ${service.account.live_key}` },
        });
        assert.equal(refused.status, 405, `${method} ${path}`);
        assert.equal(refused.headers.get('allow'), 'POST');
        assert.equal(((await refused.json()) as any).error.code, 'METHOD_NOT_ALLOWED');
      }
    }
  });
  void test('every one of the 24 tools reached the registered route it names', async () => {
    const documentation = await service.call('GET', '/api/v1/openapi.json', { key: null });
    // The document holds exactly the registered routes (test/openapi.test.ts); parameters compare by position.
    const normalize = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
    const registered = new Set(
      Object.entries<Record<string, unknown>>(documentation.body.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${normalize(path)}`),
      ),
    );
    const tools = mcpTools(service.runtime.context.registry);
    assert.deepEqual(
      tools.map((tool) => tool.name),
      SPEC_TOOLS,
    );
    for (const tool of tools) {
      const routes = tool.routes.map((route) => `${route.method} ${route.path}`);
      for (const route of tool.routes)
        assert.ok(
          registered.has(`${route.method} ${normalize(route.path)}`),
          `${tool.name}: ${route.method} ${route.path}`,
        );
      const reached = (answers.get(tool.name) ?? []).filter((answer) => answer.via !== 'mcp');
      assert.ok(reached.length > 0, `${tool.name} was never answered by a route`);
      for (const answer of reached) {
        const target = routes.find((route) =>
          new RegExp(`^${route.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(answer.via),
        );
        assert.ok(target, `${tool.name} went to ${answer.via}, not to ${routes.join(' or ')}`);
        // The app's own not-found answer, as a wrong method or path would get.
        assert.ok(!answer.message?.startsWith('No route'), `${tool.name}: ${answer.message}`);
        assert.notEqual(answer.status, 405, tool.name);
        assert.ok(answer.status < 500, `${tool.name}: ${answer.status} ${answer.code}`);
      }
    }
  });
});
