import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiLlmWriter, ProviderError, trimToWords, withCtaLast } from './openai-llm.ts';
import { scriptBrandContext } from '../media/script/brand-context.ts';
import { countWords } from '../media/script/budget.ts';
import { findFigures } from '../media/script/figures.ts';
import { ScriptPolicyError } from '../media/script/script-rules.ts';

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

function completion(content: string, model = 'test-model'): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
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

function ok(answer: unknown): Reply {
  return { status: 200, body: completion(typeof answer === 'string' ? answer : JSON.stringify(answer)) };
}

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

function writer(extra: { timeoutMs?: number } = {}): OpenAiLlmWriter {
  return new OpenAiLlmWriter({
    baseUrl,
    apiKey: 'sk-test-123',
    model: 'test-model',
    maxRetries: 0,
    ...extra,
  });
}

const GOOD = {
  script:
    'Compound interest grows savings.\nIt pays interest on interest you already earned.\nStart early and give it time.',
  title: 'HOW Compound Interest Grows Your Savings',
  description: 'A short explainer on compound interest. #money',
  hashtags: ['CompoundInterest', '#Savings', 'personal finance'],
};

describe('OpenAiLlmWriter', () => {
  test('sends model, key and the brief; returns the script with the cta as its exact last line', async () => {
    replies = [ok({ ...GOOD, script: `${GOOD.script} Follow for more money tips.` })];
    seen = [];
    const r = await writer().write({
      prompt: 'how compound interest grows savings',
      contentPurpose: 'education',
      contentStyle: 'calm',
      durationSec: 15,
      includeHook: true,
      cta: 'Follow for more money tips.',
      brand: { name: 'Brightside', websiteUrl: 'https://brightside.example' },
      language: 'es',
    });
    assert.equal(seen.length, 1);
    const req = seen[0]!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.auth, 'Bearer sk-test-123');
    assert.equal(req.body.model, 'test-model');
    assert.deepEqual(req.body.response_format, { type: 'json_object' });
    assert.equal(req.body.messages[0].role, 'system');
    const prompt: string = req.body.messages[1].content;
    assert.match(prompt, /how compound interest grows savings/);
    assert.match(prompt, /education/);
    assert.match(prompt, /calm/);
    assert.match(prompt, /about 20 words \(between 18 and 22\)/);
    assert.match(prompt, /Spanish \(es\)/);
    assert.match(prompt, /Open with this hook as the first line, translated naturally into Spanish/);
    assert.match(prompt, /"Follow for more money tips\."/);
    assert.match(prompt, /Brightside/);

    const lines = r.script.split('\n');
    assert.equal(lines.at(-1), 'Follow for more money tips.');
    assert.equal(lines.filter((l) => l === 'Follow for more money tips.').length, 1);
    assert.equal(r.ctaUsed, 'Follow for more money tips.');
    assert.equal(r.hookUsed, 'Compound interest grows savings.');
    assert.equal(r.writer, 'llm');
    assert.equal(r.title, 'HOW Compound Interest Grows Your Savings');
    assert.deepEqual(r.hashtags.slice(0, 3), ['#CompoundInterest', '#Savings', '#PersonalFinance']);
    assert.match(r.description, /^A short explainer on compound interest\.\n\n#CompoundInterest/);
    assert.equal(r.wordCount, countWords(r.script));
  });

  test('a reply that is not JSON is asked for again, then used', async () => {
    replies = [ok('Sure! Here is your script: Compound interest grows savings.'), ok(GOOD)];
    seen = [];
    const r = await writer().write({ prompt: 'how compound interest grows savings', durationSec: 15 });
    assert.equal(seen.length, 2);
    const retry = seen[1]!.body.messages;
    assert.equal(retry.at(-2).role, 'assistant');
    assert.match(retry.at(-1).content, /not valid JSON/);
    assert.match(r.script, /^Compound interest grows savings\./);
  });

  test('two unusable replies become a retryable ProviderError', async () => {
    replies = [ok({ title: 'no script here' })];
    seen = [];
    await assert.rejects(
      writer().write({ prompt: 'how compound interest grows savings' }),
      (err: unknown) => {
        assert.ok(err instanceof ProviderError);
        assert.equal(err.code, 'invalid_response');
        assert.equal(err.retryable, true);
        return true;
      },
    );
    assert.equal(seen.length, 2);
  });

  test('a 500 is a retryable ProviderError', async () => {
    replies = [{ status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } }];
    await assert.rejects(writer().write({ prompt: 'why sleep matters for athletes' }), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.status, 500);
      assert.equal(err.code, 'server_error');
      assert.equal(err.retryable, true);
      return true;
    });
  });

  test('a 429 is retryable, a 401 and a 400 are not', async () => {
    for (const [status, retryable, code] of [
      [429, true, 'rate_limited'],
      [401, false, 'unauthorized'],
      [400, false, 'request_rejected'],
    ] as const) {
      replies = [{ status, body: { error: { message: 'no', type: 'x' } } }];
      await assert.rejects(writer().write({ prompt: 'why sleep matters for athletes' }), (err: unknown) => {
        assert.ok(err instanceof ProviderError);
        assert.equal(err.retryable, retryable, String(status));
        assert.equal(err.code, code);
        return true;
      });
    }
  });

  test('a timeout is a retryable ProviderError', async () => {
    replies = [{ delayMs: 1500 }];
    await assert.rejects(
      writer({ timeoutMs: 200 }).write({ prompt: 'why sleep matters for athletes' }),
      (err: unknown) => {
        assert.ok(err instanceof ProviderError);
        assert.equal(err.code, 'timeout');
        assert.equal(err.retryable, true);
        return true;
      },
    );
  });

  test('a script far over budget is sent back once, then cut at sentence boundaries', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i + 1} says something useful.`).join(
      '\n',
    );
    replies = [ok({ ...GOOD, script: long })];
    seen = [];
    const r = await writer().write({
      prompt: 'how compound interest grows savings',
      durationSec: 15,
      voiceSpeed: 1,
      cta: 'Save this.',
    });
    assert.equal(seen.length, 2);
    assert.match(seen[1]!.body.messages.at(-1).content, /has 180 words; it must have about 23/);
    assert.ok(r.wordCount <= Math.floor(25 * 1.1) + 2, `${r.wordCount} words`);
    assert.match(r.script, /^Sentence number 1 says something useful\./);
    assert.equal(r.script.split('\n').at(-1), 'Save this.');
    for (const s of r.sentences) assert.match(s, /\.$/);
  });

  test('without a cta the script closes on the brand website', async () => {
    replies = [ok({ ...GOOD, script: 'Sleep matters for athletes.\nRecovery happens at night.' })];
    const r = await writer().write({
      prompt: 'why sleep matters for athletes',
      durationSec: 15,
      brand: { websiteUrl: 'https://www.sleepwell.example/' },
    });
    assert.equal(r.script.split('\n').at(-1), 'Learn more at sleepwell.example.');
  });

  test('a sent script is kept word for word; only title, description and hashtags are asked for', async () => {
    replies = [
      ok({
        title: 'Schlaf und Leistung',
        description: 'Warum Sportler Schlaf brauchen.',
        hashtags: ['Schlaf', 'Sport', 'Regeneration'],
      }),
    ];
    seen = [];
    const script = 'Schlaf ist für Sportler entscheidend. Wer gut schläft, trainiert besser.';
    const r = await writer().write({ script, language: 'de', cta: 'ignored' });
    assert.equal(r.script, script);
    assert.equal(r.ctaUsed, null);
    assert.equal(r.title, 'Schlaf und Leistung');
    assert.deepEqual(r.hashtags, ['#Schlaf', '#Sport', '#Regeneration']);
    assert.match(seen[0]!.body.messages[1].content, /German \(de\)/);
  });
});

describe('OpenAiLlmWriter under a brand kit', () => {
  const kit = scriptBrandContext({
    industry: 'Fintech',
    icp: {
      roles: ['CFO', 'Head of Finance'],
      company_size: '50-500',
      regions: ['EU'],
      pains: ['slow month-end close', 'manual reconciliation'],
    },
    offer: 'Payroll that closes the books by itself',
    tone: 'provocative',
    proof_points: [
      { claim: 'Month-end close is 3x faster', source_url: 'https://ledgerly.example/case' },
      { claim: 'Customers cut reconciliation work by 40%' },
    ],
    banned_topics: ['layoffs', 'crypto'],
    cta: { text: 'Book a demo at ledgerly.example.', url: 'https://ledgerly.example/demo' },
    languages: ['en'],
    topic_pool: ['month-end close', 'audit readiness'],
  });
  const clean = {
    ...GOOD,
    script:
      'Month-end close should not take two weeks of your life.\nWith Ledgerly it is 3x faster.\nReconciliation work drops by forty percent.',
    title: 'Close the Books Faster',
    description: 'Month-end close without the grind.',
    hashtags: ['MonthEndClose', 'Finance', 'CFO'],
  };

  test("the prompt carries the kit's offer, audience, tone, proof points, banned topics and cta", async () => {
    replies = [ok({ ...clean, script: clean.script.replace('two weeks of your life', 'forever') })];
    seen = [];
    const r = await writer().write({
      prompt: 'why month-end close is so slow',
      durationSec: 30,
      brandContext: kit,
    });
    assert.equal(seen.length, 1);
    const prompt: string = seen[0]!.body.messages[1].content;
    assert.match(prompt, /What the brand offers: Payroll that closes the books by itself/);
    assert.match(
      prompt,
      /Audience \(the brand's ideal customer\): CFO, Head of Finance, at companies of 50-500, in EU\./,
    );
    assert.match(prompt, /Their pains: slow month-end close; manual reconciliation\./);
    assert.match(prompt, /Tone of voice: provocative \(challenge a common assumption/);
    assert.match(prompt, /Style: energetic\./);
    assert.match(prompt, /Proof points, the only facts with figures the script may state/);
    assert.match(prompt, /1\. Month-end close is 3x faster \(source: https:\/\/ledgerly\.example\/case\)/);
    assert.match(prompt, /2\. Customers cut reconciliation work by 40%/);
    assert.match(prompt, /Never mention these topics, not even in passing: "layoffs", "crypto"\./);
    assert.match(
      prompt,
      /this exact line will be added after your script: "Book a demo at ledgerly\.example\." \(it leads to https:\/\/ledgerly\.example\/demo\)/,
    );
    assert.match(prompt, /Topics the brand talks about: month-end close; audit readiness\./);
    assert.match(prompt, /English \(en\)/);
    assert.equal(r.script.split('\n').at(-1), 'Book a demo at ledgerly.example.');
    assert.equal(r.ctaUsed, 'Book a demo at ledgerly.example.');
  });

  test('sentences with figures no proof point holds, or a banned topic, are sent back once to be rewritten', async () => {
    replies = [
      ok({
        ...clean,
        script:
          'Month-end close is broken.\nTeams waste 70% of their week on it.\nSome even blame layoffs.\nWith Ledgerly it is 3x faster.',
      }),
      ok({
        ...clean,
        script:
          'Month-end close is broken.\nWith Ledgerly it is 3x faster.\nAnd reconciliation drops by 40%.',
      }),
    ];
    seen = [];
    const r = await writer().write({
      prompt: 'why month-end close is so slow',
      durationSec: 15,
      brandContext: kit,
    });
    assert.equal(seen.length, 2);
    const complaint: string = seen[1]!.body.messages.at(-1).content;
    assert.match(
      complaint,
      /- "Teams waste 70% of their week on it\.": states "70%", which no proof point holds/,
    );
    assert.match(complaint, /- "Some even blame layoffs\.": mentions the banned topic "layoffs"/);
    assert.doesNotMatch(complaint, /Month-end close is broken/);
    assert.equal(
      r.script,
      'Month-end close is broken.\nWith Ledgerly it is 3x faster.\nAnd reconciliation drops by 40%.\nBook a demo at ledgerly.example.',
    );
  });

  test('what still breaks the rules after the rewrite is dropped; the request cta wins over the kit', async () => {
    const breaking = {
      ...clean,
      script: 'Month-end close is broken.\nIn 2024, 9 in 10 CFOs said so.\nWith Ledgerly it is 3x faster.',
      title: 'Why Crypto CFOs Close Faster',
      description: 'Used by 10,000 finance teams. Month-end close, 3x faster.',
      hashtags: ['CryptoFinance', 'MonthEndClose', 'CFO'],
    };
    replies = [ok(breaking), ok(breaking)];
    seen = [];
    const r = await writer().write({
      prompt: 'why month-end close is so slow',
      durationSec: 15,
      cta: 'Follow for more finance tips.',
      brandContext: kit,
    });
    assert.equal(seen.length, 2);
    assert.equal(
      r.script,
      'Month-end close is broken.\nWith Ledgerly it is 3x faster.\nFollow for more finance tips.',
    );
    assert.deepEqual(
      findFigures(r.script).map((f) => f.text),
      ['3x'],
    );
    assert.doesNotMatch(r.title, /crypto/i);
    assert.match(r.description, /^Month-end close, 3x faster\.\n\n/);
    assert.ok(!r.hashtags.includes('#CryptoFinance'));
    assert.ok(r.hashtags.includes('#MonthEndClose'));
  });

  test('a script with nothing left under the rules is a ScriptPolicyError', async () => {
    replies = [ok({ ...clean, script: 'Crypto is the future.\n97% of CFOs agree.' })];
    seen = [];
    await assert.rejects(
      writer().write({ prompt: 'why month-end close is so slow', durationSec: 15, brandContext: kit }),
      (err: unknown) => {
        assert.ok(err instanceof ScriptPolicyError);
        assert.deepEqual(
          err.dropped.map((d) => d.sentence),
          ['Crypto is the future.', '97% of CFOs agree.'],
        );
        return true;
      },
    );
    assert.equal(seen.length, 2);
  });

  test("a sent script is never changed; its post text keeps the script's own figures and no invented ones", async () => {
    replies = [
      ok({
        title: 'We Grew 300% in 2023',
        description: 'How we grew 300% in 2023. Trusted by 5,000 teams.',
        hashtags: ['Growth', 'Crypto'],
      }),
    ];
    seen = [];
    const script = 'We grew 300% in 2023. Layoffs never came up.';
    const r = await writer().write({ script, brandContext: kit });
    assert.equal(r.script, script);
    assert.equal(r.ctaUsed, null);
    assert.equal(r.title, 'We Grew 300% in 2023');
    assert.match(r.description, /^How we grew 300% in 2023\.\n\n/);
    assert.deepEqual(r.hashtags.slice(0, 1), ['#Growth']);
    assert.ok(!r.hashtags.includes('#Crypto'));
    const prompt: string = seen[0]!.body.messages[1].content;
    assert.match(
      prompt,
      /state no other numbers, percentages, prices, multiples, years or statistics than these and those in the script/,
    );
  });

  test("the kit's first language is the script language when the request sets none", async () => {
    replies = [ok(clean)];
    seen = [];
    await writer().write({
      prompt: 'why month-end close is so slow',
      brandContext: scriptBrandContext({ languages: ['de', 'en'] }),
    });
    assert.match(seen[0]!.body.messages[1].content, /German \(de\)/);
  });
});

test('withCtaLast removes a cta the model already wrote', () => {
  assert.equal(withCtaLast('One.\nTwo. Follow us!', 'Follow us!'), 'One.\nTwo.\nFollow us!');
  assert.equal(withCtaLast('One.\nfollow us', 'Follow us!'), 'One.\nFollow us!');
  assert.equal(withCtaLast('One.', 'Follow us!'), 'One.\nFollow us!');
});

test('trimToWords keeps the first and last sentences', () => {
  assert.equal(trimToWords('A b c. D e f. G h i. J k l.', 7), 'A b c.\nJ k l.');
});
