import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startChatServer, type FakeChatServer } from './support/openai-chat-server.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Where a video's script comes from, said plainly (docs/scripts.md): the dry run, the receipt and the job
// record carry `script_source`, and a script the built-in writer made from the topic alone says how to get a
// real one. With an OpenAI-compatible server configured (here a local one), the LLM writes it.

let local: TestService;
let withLlm: TestService;
let llm: FakeChatServer;

const LLM_SCRIPT =
  'Cats purr at a low frequency when they feel safe.\nMother cats purr to guide their kittens.\nSome cats purr when hurt, which may help them heal.';

before(async () => {
  llm = await startChatServer(() =>
    JSON.stringify({
      script: LLM_SCRIPT,
      title: 'Why cats purr',
      description: 'What a purr means.',
      hashtags: ['Cats', 'CatFacts', 'Pets'],
    }),
  );
  [local, withLlm] = await Promise.all([
    startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } }),
    startTestService({
      modes: productModes,
      env: {
        RENDER_PRESET: 'ultrafast',
        LLM_BASE_URL: llm.baseUrl,
        LLM_API_KEY: 'sk-local-test',
        LLM_MODEL: 'local-model',
      },
    }),
  ]);
});

after(async () => {
  await Promise.all([local?.stop(), withLlm?.stop()]);
  await llm?.close();
});

const post = (service: TestService, path: string, body: Record<string, unknown>) =>
  service.call('POST', path, { body, headers: { 'idempotency-key': `script-source-${Math.random()}` } });

function assertTemplateHint(hint: unknown): void {
  assert.equal(typeof hint, 'string');
  assert.match(hint as string, /`script`/);
  assert.match(hint as string, /LLM_BASE_URL/);
  assert.match(hint as string, /OpenAI-compatible/);
}

describe('script_source', () => {
  test('dry runs say where the script will come from, and how to get a real one', async () => {
    const topic = await post(local, '/api/v1/generate-and-post', {
      topic: 'Three tips for better sleep',
      dry_run: true,
    });
    assert.equal(topic.status, 200, topic.text);
    assert.equal(topic.body.data.script_source, 'template');
    assertTemplateHint(topic.body.data.script_hint);

    const sent = await post(local, '/api/v1/generate-and-post', {
      script: 'Dim the lights an hour before bed.',
      dry_run: true,
    });
    assert.equal(sent.body.data.script_source, 'request');
    assert.equal('script_hint' in sent.body.data, false);

    const article = await post(local, '/api/v1/blog-to-video', {
      article_title: 'Reef sharks sleep in caves',
      article_text: 'Reef sharks rest in caves during the day. The caves hold water with more oxygen.',
      dry_run: true,
    });
    assert.equal(article.status, 200, article.text);
    assert.equal(article.body.data.script_source, 'material');
    assert.equal('script_hint' in article.body.data, false);

    const quote = await post(local, '/api/v1/videos/motivational', { dry_run: true });
    assert.equal(quote.status, 200, quote.text);
    assert.equal(quote.body.data.script_source, 'template');
    assert.match(quote.body.data.script_hint, /`quote`/);

    const byLlm = await post(withLlm, '/api/v1/generate-and-post', { topic: 'Why cats purr', dry_run: true });
    assert.equal(byLlm.body.data.script_source, 'llm');
    assert.equal('script_hint' in byLlm.body.data, false);
  });

  test('a bare topic without an LLM: the receipt and the job say "template", and the script invents nothing', async () => {
    const receipt = await post(local, '/api/v1/generate-and-post', {
      topic: 'Three tips for better sleep',
      duration_sec: 20,
      clip_type: 'abstract',
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.body.data.script_source, 'template');
    assertTemplateHint(receipt.body.data.script_hint);

    const job = await waitForJob(local, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const a = job.artifacts;
    assert.equal(a.script_source, 'template');
    assertTemplateHint(a.script_hint);
    assert.match(a.script, /better sleep/i);
    assert.doesNotMatch(a.script, /\d|\b(three|first|second|finally)\b/i, a.script);
    assert.doesNotMatch(a.title, /\d|three|tips/i, a.title);
    // The video lasts what was asked and paid for, though the honest script is shorter.
    assert.ok(Math.abs(a.durationSec - 20) < 0.5, `duration ${a.durationSec}`);
  });

  test('with an LLM configured, the LLM writes the script and the job says "llm"', async () => {
    const before = llm.requests.length;
    const receipt = await post(withLlm, '/api/v1/generate-and-post', {
      topic: 'Why cats purr',
      duration_sec: 15,
      clip_type: 'abstract',
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.equal(receipt.body.data.script_source, 'llm');

    const job = await waitForJob(withLlm, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.artifacts.script_source, 'llm');
    assert.equal('script_hint' in job.artifacts, false);
    assert.match(job.artifacts.script, /Cats purr at a low frequency when they feel safe\./);

    const asked = llm.requests.slice(before);
    assert.ok(asked.length >= 1);
    assert.equal(asked[0]!.path, '/v1/chat/completions');
    assert.equal(asked[0]!.authorization, 'Bearer sk-local-test');
    assert.equal(asked[0]!.body.model, 'local-model');
    assert.match(asked[0]!.body.messages.map((m) => m.content).join('\n'), /cats purr/i);
  });
});
