import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import {
  downloadArtifacts,
  DownloadError,
  Reelsmith,
  ReelsmithError,
  verifyWebhook,
  WebhookVerificationError,
  type GenerateBody,
  type JobProgress,
  type StreamError,
} from '../client/src/index.ts';
import type { OpenAPI3 } from 'openapi-typescript';
import { renderTypes } from '../client/scripts/generate-types.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { productModes } from '../src/modes/index.ts';
import { startHookReceiver, type HookReceiver } from './support/hook-receiver.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// The typed client (client/, docs/integrations.md "Client") against the real service with the test mode:
// real HTTP, real jobs with progress events, a real MP4, real signed webhooks.

let service: TestService;
let receiver: HookReceiver;
let client: Reelsmith;
let dir: string;

before(async () => {
  [service, receiver] = await Promise.all([startTestService(), startHookReceiver()]);
  client = new Reelsmith({ baseUrl: service.url, apiKey: service.account.live_key });
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-client-'));
});
after(async () => {
  await Promise.all([service.stop(), receiver.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function balance(): Promise<number> {
  return (await client.usage()).balance_usd_cents;
}

const topic = (label: string) => `${label} ${Math.random().toString(36).slice(2)}`;

/** A body of the test-only mode, whose fields (outcome, sleep_ms) the product's document does not list. */
function testBody(fields: {
  topic: string;
  outcome?: 'succeed' | 'fail' | 'sleep';
  sleep_ms?: number;
}): GenerateBody<'generate-and-post'> {
  return fields;
}

void describe('typed client', () => {
  void test('dryRun prices a body without a job or a charge', async () => {
    const before = await balance();
    const dry = await client.dryRun({ topic: topic('price me'), duration_sec: 20 });
    assert.equal(dry.dry_run, true);
    assert.equal(dry.charged, false);
    assert.equal(dry.mode, 'test_video');
    assert.equal(dry.price.usd_cents, 60);
    assert.equal(dry.price.display, '$0.60');
    assert.equal(dry.normalized_request.duration_sec, 20);
    assert.equal(await balance(), before);
  });

  void test('createVideo sends an Idempotency-Key of its own and retries a lost answer without a second charge', async () => {
    const before = await balance();
    let calls = 0;
    // The first answer is lost after the server made the job (a dropped connection): the retry must replay it.
    const flaky = new Reelsmith({
      baseUrl: service.url,
      apiKey: service.account.live_key,
      fetch: async (request) => {
        calls += 1;
        const response = await fetch(request);
        if (calls === 1) {
          await response.body?.cancel();
          throw new TypeError('fetch failed');
        }
        return response;
      },
    });
    const body = { topic: topic('lost answer') };
    const receipt = await flaky.createVideo(body);
    assert.equal(calls, 2);
    assert.match(receipt.idempotency_key, /^reelsmith-client-[0-9a-f-]{36}$/);
    assert.equal(receipt.replayed, true, 'the second attempt is answered from the stored receipt');
    assert.match(receipt.job_id, /^job_/);
    assert.equal(receipt.price_usd_cents, 60);
    assert.equal(receipt.poll_url, `/api/v1/jobs/${receipt.job_id}`);
    assert.match(
      String(receipt.websocket_url),
      /^ws:\/\/127\.0\.0\.1:\d+\/api\/v1\/jobs\/job_\w+\/stream\?token=/,
    );
    assert.equal(await balance(), before - 60, 'charged once');

    const again = await client.createVideo(body, { idempotencyKey: receipt.idempotency_key });
    assert.equal(again.job_id, receipt.job_id, 'the key answers the first receipt again');
    await assert.rejects(
      () => client.createVideo({ topic: topic('another body') }, { idempotencyKey: receipt.idempotency_key }),
      (error: unknown) =>
        error instanceof ReelsmithError && error.status === 409 && error.code === 'RESOURCE_ALREADY_EXISTS',
    );
    assert.equal(await balance(), before - 60, 'still charged once');
    await client.waitForJob(receipt);
  });

  void test('a refused request is a ReelsmithError with the envelope code, message and field issues', async () => {
    await assert.rejects(
      () => client.createVideo({ topic: topic('too long'), duration_sec: 9999 }),
      (error: unknown) => {
        assert.ok(error instanceof ReelsmithError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 'INPUT_INVALID');
        assert.equal(error.retryable, false);
        assert.match(String(error.requestId), /\w{8,}/);
        const fields = error.details?.fields as { field: string }[];
        assert.ok(
          fields.some((f) => f.field === 'duration_sec'),
          JSON.stringify(fields),
        );
        return true;
      },
    );
    await assert.rejects(
      () => client.getJob('job_doesnotexist'),
      (error: unknown) =>
        error instanceof ReelsmithError && error.code === 'JOB_NOT_FOUND' && error.status === 404,
    );
    const anonymous = new Reelsmith({ baseUrl: service.url });
    await assert.rejects(
      () => anonymous.usage(),
      (error: unknown) => error instanceof ReelsmithError && error.code === 'AUTH_REQUIRED',
    );
  });

  void test('waitForJob follows the progress stream to completion', async () => {
    const receipt = await client.createVideo(
      testBody({ topic: topic('streamed'), outcome: 'sleep', sleep_ms: 800 }),
    );
    const events: JobProgress[] = [];
    const streamErrors: StreamError[] = [];
    const job = await client.waitForJob(receipt, {
      onProgress: (event) => events.push(event),
      onStreamError: (error) => streamErrors.push(error),
    });
    assert.deepEqual(streamErrors, []);
    assert.equal(job.id, receipt.job_id);
    assert.equal(job.status, 'completed');
    assert.ok(events.length >= 4, JSON.stringify(events));
    assert.ok(events.every((e) => e.via === 'stream'));
    const render = events.find((e) => e.stage === 'render');
    assert.deepEqual([render?.percent, render?.message], [50, 'Rendering']);
    assert.equal(events.at(-1)?.status, 'completed');
    assert.equal(events.at(-1)?.percent, 100);
    const percents = events.map((e) => e.percent);
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress only grows',
    );
    assert.match(String(job.artifacts.videoUrl), /^http:\/\/127\.0\.0\.1:\d+\/media\//);
  });

  void test('waitForJob polls from where it was when the stream is refused', async () => {
    const receipt = await client.createVideo(
      testBody({ topic: topic('polled'), outcome: 'sleep', sleep_ms: 1500 }),
    );
    const refused = {
      ...receipt,
      websocket_url: receipt.websocket_url!.replace(/token=[^&]+/, 'token=forged'),
    };
    const events: JobProgress[] = [];
    const streamErrors: StreamError[] = [];
    const job = await client.waitForJob(refused, {
      pollIntervalMs: 200,
      onProgress: (event) => events.push(event),
      onStreamError: (error) => streamErrors.push(error),
    });
    assert.equal(streamErrors.length, 1);
    assert.equal(streamErrors[0]!.closeCode, 4401, streamErrors[0]!.message);
    assert.equal(job.status, 'completed');
    assert.ok(events.length >= 4 && events.every((e) => e.via === 'poll'), JSON.stringify(events));
    assert.deepEqual(
      events.map((e) => e.stage),
      job.progress.map((p) => p.stage),
      'every event once, in order',
    );
    assert.ok(events.some((e) => e.stage === 'render'));
  });

  void test('waitForJob answers a failed job with its error (refunded), and downloadArtifacts refuses it', async () => {
    const before = await balance();
    const receipt = await client.createVideo(testBody({ topic: topic('doomed'), outcome: 'fail' }));
    const job = await client.waitForJob(receipt.job_id, { pollIntervalMs: 200 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'AI_OUTPUT_LOW_QUALITY');
    assert.equal(await balance(), before, 'refunded');
    await assert.rejects(() => downloadArtifacts(job, { dir }), DownloadError);
  });

  void test('downloadArtifacts writes the finished MP4', async () => {
    const receipt = await client.createVideo({ topic: topic('download') });
    const job = await client.waitForJob(receipt);
    const out = join(dir, 'nested', 'video.mp4');
    const files = await downloadArtifacts(job, { out });
    assert.deepEqual(
      files.map((f) => [f.role, f.path, f.contentType]),
      [['video', out, 'video/mp4']],
    );
    const info = await probeMedia(out);
    assert.equal(info.video?.codec, 'h264');
    assert.deepEqual([info.video?.width, info.video?.height], [64, 112]);
    assert.equal(info.sizeBytes, files[0]!.bytes);
    assert.deepEqual(
      (await readdir(join(dir, 'nested'))).filter((name) => name.endsWith('.part')),
      [],
    );
  });

  void test('a sandbox key: a completed placeholder job whose video and poster download with all', async () => {
    const sandbox = new Reelsmith({ baseUrl: service.url, apiKey: service.account.sandbox_key });
    const receipt = await sandbox.createVideo({ topic: topic('sandboxed') });
    assert.match(receipt.job_id, /^sandbox_job_/);
    assert.equal(receipt.status, 'completed');
    const job = await sandbox.waitForJob(receipt);
    assert.equal(job.sandbox, true);
    const files = await downloadArtifacts(job, { dir, all: true });
    assert.deepEqual(
      files.map((f) => [f.role, f.path]),
      [
        ['video', join(dir, `${job.id}.mp4`)],
        ['poster', join(dir, `${job.id}.jpg`)],
      ],
    );
    const info = await probeMedia(files[0]!.path);
    assert.deepEqual([info.video?.width, info.video?.height], [1080, 1920]);
    assert.ok(Math.abs(info.durationSec - 3) < 0.2, String(info.durationSec));
    const poster = await readFile(files[1]!.path);
    assert.deepEqual([...poster.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
  });

  void test('verifyWebhook accepts a real delivery and refuses a changed body, a wrong secret and a stale timestamp', async () => {
    const secretAnswer = await client.api.GET('/api/v1/webhook-secret');
    assert.equal(secretAnswer.response.status, 200);
    const { secret } = (secretAnswer.data as { data: { secret: string } }).data;
    const path = `/hooks/${Math.random().toString(36).slice(2)}`;
    const receipt = await client.createVideo({ topic: topic('hooked'), webhook_url: receiver.url + path });
    const [hook] = await receiver.waitFor(path, 1);
    const header = hook!.headers['x-service-signature'];

    const event = verifyWebhook(hook!.rawBody, header, secret);
    assert.equal(event.event_type, 'video.completed');
    assert.equal(event.data.job_id, receipt.job_id);
    assert.equal(verifyWebhook(Buffer.from(hook!.rawBody), header, secret).event_id, event.event_id);

    const refusal = (body: string, signature: typeof header, key: string, tolerance?: number) => {
      try {
        verifyWebhook(body, signature, key, tolerance);
        return 'accepted';
      } catch (error) {
        assert.ok(error instanceof WebhookVerificationError);
        return error.reason;
      }
    };
    const tampered = hook!.rawBody.replace('"status":"completed"', '"status":"cancelled"');
    assert.notEqual(tampered, hook!.rawBody);
    assert.equal(refusal(tampered, header, secret), 'bad_signature');
    assert.equal(refusal(hook!.rawBody, header, `${secret}x`), 'bad_signature');
    assert.equal(refusal(hook!.rawBody, undefined, secret), 'missing_signature');
    assert.equal(refusal(hook!.rawBody, 'v1=abc', secret), 'malformed_signature');

    await sleep(2_100);
    assert.equal(refusal(hook!.rawBody, header, secret, 1), 'stale_timestamp', 'older than the tolerance');
    assert.equal(refusal(hook!.rawBody, header, secret), 'accepted', 'within the default 5 minutes');
  });

  void test('client/src/openapi.ts is what the generator makes of the document the server answers', async () => {
    const product = await startTestService({ modes: productModes, worker: false });
    try {
      const response = await fetch(`${product.url}/api/v1/openapi.json`);
      assert.equal(response.status, 200);
      const expected = (await renderTypes((await response.json()) as OpenAPI3)).split('\n');
      const committed = (await readFile(new URL('../client/src/openapi.ts', import.meta.url), 'utf8')).split(
        '\n',
      );
      const lines = Math.max(expected.length, committed.length);
      const line = Array.from({ length: lines }, (_, index) => index).find(
        (i) => committed[i] !== expected[i],
      );
      assert.ok(
        line === undefined,
        `client/src/openapi.ts is out of date from line ${line! + 1} (${JSON.stringify(committed[line!])} should be ` +
          `${JSON.stringify(expected[line!])}): start the server and run \`npm run generate -w @reelsmith/client\``,
      );
    } finally {
      await product.stop();
    }
  });
});
