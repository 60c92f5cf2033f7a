import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnChildService } from './support/child-process.ts';
import { readStream, type StreamMessage } from './support/hook-stream.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

async function submit(
  target: TestService,
  body: Record<string, unknown>,
): Promise<{ jobId: string; websocketUrl: string }> {
  const response = await target.call('POST', '/api/v1/generate-and-post', {
    body: { topic: `stream ${Math.random()}`, ...body },
    headers: { 'idempotency-key': `stream-${Math.random()}` },
  });
  assert.equal(response.status, 202, response.text);
  return { jobId: response.body.data.job_id, websocketUrl: response.body.data.websocket_url };
}

function assertWellFormed(messages: StreamMessage[], jobId: string): void {
  assert.ok(messages.length > 0);
  for (const message of messages) {
    assert.equal(message.type, 'progress');
    assert.equal(message.job_id, jobId);
    assert.equal(typeof message.progress, 'number');
    assert.ok(message.progress >= 0 && message.progress <= 100, `progress ${message.progress}`);
    assert.equal(typeof message.status, 'string');
    assert.equal(typeof message.stage, 'string');
    assert.ok(message.url === null || typeof message.url === 'string');
  }
}

/** The last message says completed and links the video, which downloads. */
async function assertCompletedWithVideo(messages: StreamMessage[]): Promise<void> {
  const last = messages.at(-1)!;
  assert.equal(last.status, 'completed');
  assert.equal(last.progress, 100);
  assert.match(last.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
  const video = await fetch(last.url!);
  assert.equal(video.status, 200);
  assert.equal(video.headers.get('content-type'), 'video/mp4');
  assert.ok(messages.slice(0, -1).every((m) => m.status !== 'completed'));
}

const stages = (job: any): string[] => job.progress.map((p: { stage: string }) => p.stage);

void describe('progress stream', () => {
  void test('a subscriber receives progress, status, stage and url messages up to completion', async () => {
    const { jobId, websocketUrl } = await submit(service, { outcome: 'sleep', sleep_ms: 1500 });
    const stream = await readStream(websocketUrl);
    assert.equal(stream.closeCode, 1000);
    assertWellFormed(stream.messages, jobId);
    await assertCompletedWithVideo(stream.messages);

    const job = await waitForJob(service, jobId);
    assert.deepEqual(
      stream.messages.map((m) => m.stage),
      stages(job),
    );
    assert.deepEqual(
      stream.messages.map((m) => m.progress),
      job.progress.map((p: { percent: number }) => p.percent),
    );
    const percents = stream.messages.map((m) => m.progress);
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'progress only grows on a successful job',
    );
    assert.ok(
      stream.messages.some((m) => m.status === 'running' && m.stage === 'render' && m.progress === 50),
    );
  });

  void test('a late subscriber, after completion, receives the whole history', async () => {
    const { jobId, websocketUrl } = await submit(service, { outcome: 'succeed' });
    const job = await waitForJob(service, jobId);
    assert.equal(job.status, 'completed');
    const stream = await readStream(websocketUrl);
    assertWellFormed(stream.messages, jobId);
    assert.deepEqual(
      stream.messages.map((m) => m.stage),
      stages(job),
    );
    assert.deepEqual(
      stream.messages.map((m) => m.stage),
      ['queued', 'leased', 'running', 'script', 'render', 'uploading', 'completed'],
    );
    await assertCompletedWithVideo(stream.messages);
  });

  void test('a failed job ends the stream with status failed and no link', async () => {
    const { jobId, websocketUrl } = await submit(service, { outcome: 'fail' });
    const stream = await readStream(websocketUrl);
    assertWellFormed(stream.messages, jobId);
    const last = stream.messages.at(-1)!;
    assert.equal(last.status, 'failed');
    assert.equal(last.url, null);
  });

  void test('a bad token is refused with close code 4401 and no message', async () => {
    const { jobId, websocketUrl } = await submit(service, { outcome: 'succeed' });
    const other = await submit(service, { outcome: 'succeed' });
    const base = websocketUrl.split('?')[0]!;
    const token = new URL(websocketUrl).searchParams.get('token')!;
    const attempts = [
      `${base}?token=nonsense`,
      base,
      `${base}?token=${token.slice(0, -2)}xx`,
      // A valid token of another job grants nothing here.
      `${base}?${new URL(other.websocketUrl).searchParams.toString()}`,
    ];
    for (const url of attempts) {
      const stream = await readStream(url);
      assert.equal(stream.closeCode, 4401, url);
      assert.deepEqual(stream.messages, [], url);
    }
    await waitForJob(service, jobId);
    await waitForJob(service, other.jobId);
  });

  void test('works when the job runs in another process', async () => {
    const api = await startTestService({ worker: false });
    const worker = await spawnChildService({ ...api.env });
    try {
      const { jobId, websocketUrl } = await submit(api, { outcome: 'sleep', sleep_ms: 1500 });
      const stream = await readStream(websocketUrl);
      assert.equal(stream.closeCode, 1000);
      assertWellFormed(stream.messages, jobId);
      await assertCompletedWithVideo(stream.messages);
      const job = await waitForJob(api, jobId);
      assert.deepEqual(
        stream.messages.map((m) => m.stage),
        stages(job),
      );
      assert.ok(
        stream.messages.some((m) => m.stage === 'render'),
        'progress written by the worker process reached the stream',
      );
    } finally {
      await worker.dispose();
      await api.stop();
    }
  });
});
