import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrandTextInput } from '../brand/profile/brand-text-refiner.ts';
import { crawlOfPages } from '../brand/profile/crawl-of-pages.ts';
import { extractProfile } from '../brand/profile/extract-profile.ts';
import { INDUSTRIES } from '../brand/profile/industries.ts';
import { TONES } from '../brand/profile/tones.ts';
import { createBrandRefiner, OpenAiBrandRefiner } from './openai-brand-refiner.ts';
import { ProviderError } from './openai-llm.ts';

interface Seen {
  path: string;
  auth: string | undefined;
  body: any;
}

/** What the fake server does with the next requests, in order; the last entry repeats. */
type Reply = { status: number; body: unknown } | { delayMs: number };

let server: Server;
let baseUrl: string;
let replies: Reply[] = [];
let seen: Seen[] = [];

function completion(content: string): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
  };
}

const ok = (answer: unknown): Reply => ({
  status: 200,
  body: completion(typeof answer === 'string' ? answer : JSON.stringify(answer)),
});

function handle(req: IncomingMessage, res: ServerResponse): void {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    seen.push({
      path: req.url ?? '',
      auth: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined,
    });
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    const send = (status: number, body: unknown): void => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if ('delayMs' in reply) setTimeout(() => send(200, completion('{}')), reply.delayMs);
    else send(reply.status, reply.body);
  });
}

before(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function refiner(extra: { timeoutMs?: number } = {}): OpenAiBrandRefiner {
  return new OpenAiBrandRefiner({
    baseUrl,
    apiKey: 'sk-test-123',
    model: 'test-model',
    maxRetries: 0,
    ...extra,
  });
}

const TOPICS = Array.from({ length: 22 }, (_, i) => `Month-end close tip number ${i + 1}`);
const GOOD = {
  industry: 'accounting',
  audience: ['small business owners', 'bookkeepers'],
  tone: ['Trustworthy', 'friendly'],
  topic_pool: TOPICS,
};

const INPUT: BrandTextInput = {
  name: 'Northwind Ledger',
  url: 'https://northwind.test/',
  tagline: 'Bookkeeping that closes itself',
  language: 'en',
  excerpt: '# Bookkeeping that closes itself\nAutomatic bank reconciliation for small businesses.',
  industries: INDUSTRIES.map(({ id, label }) => ({ id, label })),
  tones: TONES,
  draft: {
    industry: 'accounting',
    audience: ['small business owners'],
    tone: ['trustworthy'],
    topic_pool: [],
  },
};

describe('OpenAiBrandRefiner', () => {
  test('sends the model, key, JSON format, the industry ids and the site text; returns the validated answer', async () => {
    replies = [ok(GOOD)];
    seen = [];
    const answer = await refiner().refine(INPUT);
    assert.deepEqual(answer, { ...GOOD, tone: ['trustworthy', 'friendly'] });
    assert.equal(seen.length, 1);
    const req = seen[0]!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.auth, 'Bearer sk-test-123');
    assert.equal(req.body.model, 'test-model');
    assert.deepEqual(req.body.response_format, { type: 'json_object' });
    const prompt: string = req.body.messages[1].content;
    assert.match(prompt, /Automatic bank reconciliation for small businesses/);
    assert.match(prompt, /accounting: Accounting and bookkeeping/);
    assert.match(prompt, /cybersecurity: Cybersecurity/);
    assert.match(prompt, /authoritative, friendly, provocative, technical, playful/);
    assert.match(prompt, /English \(en\)/);
    assert.match(prompt, /Never invent facts/);
  });

  test('an answer outside the rules is asked again once, with the problem spelled out', async () => {
    replies = [
      ok({ ...GOOD, industry: 'bookkeeping', tone: ['zen', 'calm'] }),
      ok(`\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``),
    ];
    seen = [];
    const answer = await refiner().refine(INPUT);
    assert.equal(answer.industry, 'accounting');
    assert.equal(seen.length, 2);
    const retry = seen[1]!.body.messages;
    assert.equal(retry.at(-2).role, 'assistant');
    assert.match(retry.at(-1).content, /industry: must be one of the listed industry ids/);
    assert.match(retry.at(-1).content, /tone\.0: must be one of the listed tones/);
  });

  test('two unusable answers fail as a retryable ProviderError', async () => {
    replies = [ok('not json at all'), ok({ ...GOOD, topic_pool: ['only one'] })];
    seen = [];
    await assert.rejects(refiner().refine(INPUT), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.code, 'invalid_response');
      assert.equal(err.retryable, true);
      assert.match(err.message, /topic_pool/);
      return true;
    });
    assert.equal(seen.length, 2);
  });

  test('HTTP failures map as the LLM client does: 5xx and 429 retryable, 401 not', async () => {
    replies = [{ status: 500, body: { error: { message: 'boom' } } }];
    await assert.rejects(refiner().refine(INPUT), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.code, 'server_error');
      assert.equal(err.retryable, true);
      assert.equal(err.status, 500);
      return true;
    });
    replies = [{ status: 429, body: { error: { message: 'slow down' } } }];
    await assert.rejects(
      refiner().refine(INPUT),
      (err: unknown) => err instanceof ProviderError && err.code === 'rate_limited' && err.retryable,
    );
    replies = [{ status: 401, body: { error: { message: 'bad key' } } }];
    await assert.rejects(
      refiner().refine(INPUT),
      (err: unknown) => err instanceof ProviderError && err.code === 'unauthorized' && !err.retryable,
    );
  });

  test('a timeout is retryable; an abort is not', async () => {
    replies = [{ delayMs: 1_000 }];
    await assert.rejects(
      refiner({ timeoutMs: 150 }).refine(INPUT),
      (err: unknown) => err instanceof ProviderError && err.code === 'timeout' && err.retryable,
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      refiner().refine(INPUT, controller.signal),
      (err: unknown) => err instanceof ProviderError && err.code === 'aborted' && !err.retryable,
    );
  });

  test('created from the LLM settings only when they are present; refines a real extraction end to end', async () => {
    assert.equal(createBrandRefiner(undefined), undefined);
    const configured = createBrandRefiner(
      { baseUrl, apiKey: 'sk-test-123', model: 'test-model' },
      { maxRetries: 0 },
    );
    assert.ok(configured instanceof OpenAiBrandRefiner);

    replies = [ok({ ...GOOD, industry: 'tax_services', tone: ['authoritative', 'calm'] })];
    seen = [];
    const crawl = crawlOfPages([
      {
        url: 'https://northwind.test/',
        html: '<html lang="en"><head><title>Northwind Ledger</title></head><body><h1>Bookkeeping that closes itself</h1><p>Automatic bank reconciliation and invoicing for small businesses.</p></body></html>',
      },
    ]);
    const profile = await extractProfile(crawl, { logoColors: [], logoUrl: null, refiner: configured });
    assert.equal(profile.industry, 'tax_services');
    assert.deepEqual(profile.tone, ['authoritative', 'calm']);
    assert.equal(profile.topic_pool[0], TOPICS[0]);
    assert.ok(profile.topic_pool.length >= 20 && profile.topic_pool.length <= 40);
    const draft = JSON.parse(/first analysis[^\n]*\n(.*)\n/.exec(seen[0]!.body.messages[1].content)![1]!);
    assert.equal(draft.industry, 'accounting');
  });
});
