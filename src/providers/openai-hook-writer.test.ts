import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { LENGTH_PROFILES } from '../signals/hooks/hook-platforms.ts';
import type { HookWriterInput } from '../signals/hooks/hook-writer.ts';
import { createHookWriter, OpenAiHookWriter } from './openai-hook-writer.ts';
import { ProviderError } from './openai-llm.ts';

// The hook writer against a local server speaking the chat-completions protocol: what it sends, how it
// reads answers (fences, quotes), its one retry with the problem spelled out, and its failures.

interface Seen {
  path: string;
  auth: string | undefined;
  body: any;
}
type Reply = { status: number; body: unknown; delayMs?: number };

let server: Server;
let baseUrl: string;
let replies: Reply[] = [];
let seen: Seen[] = [];

function completion(content: string): unknown {
  return {
    id: 'chatcmpl-hooks',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'hook-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 },
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
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    }, reply.delayMs ?? 0);
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
beforeEach(() => {
  replies = [];
  seen = [];
});

const writer = () =>
  new OpenAiHookWriter({ baseUrl, apiKey: 'sk-hooks', model: 'hook-model', maxRetries: 0, timeoutMs: 5000 });

const input: HookWriterInput = {
  topic: 'Why sleep matters for athletes',
  keyPhrase: 'why sleep matters for athletes',
  platform: 'proforum',
  length: LENGTH_PROFILES.proforum,
  count: 9,
};

const HOOKS = [
  { text: 'You train hard. Do you sleep like it?', format: 'question' },
  { text: '3 sleep mistakes that cost athletes their edge.', format: 'number' },
];

test('asks the chat-completions endpoint for JSON, with the platform, count and formats in the prompt', async () => {
  replies = [ok({ hooks: HOOKS })];
  const hooks = await writer().propose(input);
  assert.deepEqual(hooks, HOOKS);
  assert.equal(seen.length, 1);
  const [request] = seen;
  assert.equal(request!.path, '/v1/chat/completions');
  assert.equal(request!.auth, 'Bearer sk-hooks');
  assert.equal(request!.body.model, 'hook-model');
  assert.deepEqual(request!.body.response_format, { type: 'json_object' });
  const prompt = request!.body.messages.map((m: { content: string }) => m.content).join('\n');
  assert.match(prompt, /Topic: """Why sleep matters for athletes"""/);
  assert.match(prompt, /Write 9 distinct hooks/);
  assert.match(prompt, /proforum: .*Ideal length 8-18 words, never more than 140 characters/);
  assert.match(prompt, /before_after: /);
  assert.match(prompt, /Never invent facts, statistics/);
});

test('a fenced answer and quoted hooks are read; the writer is named after its model', async () => {
  replies = [
    ok('```json\n{"hooks": [{"text": "\\"Sleep is training too.\\"", "format": "bold_claim"}]}\n```'),
  ];
  const w = writer();
  assert.equal(w.name, 'llm:hook-model');
  assert.deepEqual(await w.propose(input), [{ text: 'Sleep is training too.', format: 'bold_claim' }]);
});

test('a reply that breaks the schema is sent back once with the problem spelled out', async () => {
  replies = [ok({ hooks: [{ text: 'Sleep more.', format: 'listicle' }] }), ok({ hooks: HOOKS })];
  assert.deepEqual(await writer().propose(input), HOOKS);
  assert.equal(seen.length, 2);
  const retry = seen[1]!.body.messages;
  assert.equal(retry.at(-2).role, 'assistant');
  assert.match(
    retry.at(-1).content,
    /could not be used: the JSON did not match the schema: hooks\.0\.format/,
  );
});

test('two unusable replies are a retryable invalid_response', async () => {
  replies = [ok('here are some hooks: sleep more!'), ok({ hooks: [] })];
  await assert.rejects(writer().propose(input), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.equal(error.code, 'invalid_response');
    assert.equal(error.retryable, true);
    return true;
  });
  assert.equal(seen.length, 2);
});

test('HTTP failures become ProviderErrors: 401 is final, 503 retryable', async () => {
  replies = [{ status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } }];
  await assert.rejects(writer().propose(input), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.equal(error.code, 'unauthorized');
    assert.equal(error.retryable, false);
    return true;
  });
  replies = [{ status: 503, body: { error: { message: 'overloaded' } } }];
  await assert.rejects(writer().propose(input), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.equal(error.code, 'server_error');
    assert.equal(error.retryable, true);
    return true;
  });
});

test('a model slower than the timeout is a retryable timeout, not a wait', async () => {
  replies = [{ ...ok({ hooks: HOOKS }), delayMs: 2000 }];
  const slow = new OpenAiHookWriter({ baseUrl, apiKey: 'k', model: 'm', timeoutMs: 200 });
  const started = Date.now();
  await assert.rejects(slow.propose(input), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.equal(error.code, 'timeout');
    return true;
  });
  assert.ok(Date.now() - started < 1500, 'no retry with back-off by default');
  assert.equal(seen.length, 1);
});

test('no writer without all three LLM settings', () => {
  assert.equal(createHookWriter(undefined), undefined);
  assert.ok(createHookWriter({ baseUrl, apiKey: 'k', model: 'm' }) instanceof OpenAiHookWriter);
});
