import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { measureLoudness } from '../src/media/ffmpeg/measure.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { productModes } from '../src/modes/index.ts';
import { startFalQueueServer, type FalQueueServer } from './support/fal-queue-server.ts';
import { downloadTo } from './support/media-files.ts';
import { makeShotClip } from './support/shot-clip.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// AI video on a hosted model provider, through the whole API: a local server speaking fal's queue protocol makes
// the shots. Each outcome a provider can have is followed to what the caller sees: the video, or a failed job
// with its charge refunded.

let service: TestService;
let fal: FalQueueServer;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ai-video-hosted-'));
  fal = await startFalQueueServer({ clipPath: await makeShotClip(dir) });
  service = await startTestService({
    modes: productModes,
    env: {
      RENDER_PRESET: 'ultrafast',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.baseUrl,
      AI_VIDEO_POLL_SECONDS: '0.05',
      AI_VIDEO_SHOT_TIMEOUT_SECONDS: '3',
    },
  });
});

after(async () => {
  await service.stop();
  await fal.close();
});

const t2v = (body: Record<string, unknown>) =>
  service.call('POST', '/api/v1/videos/text-to-video', {
    body,
    headers: { 'idempotency-key': `t2v-${Math.random()}` },
  });

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

const submitsFor = (prompt: string) =>
  fal.requests.filter(
    (r) => r.method === 'POST' && (r.body as { prompt?: string } | null)?.prompt?.startsWith(prompt),
  );

void describe('AI video on a hosted provider (fal queue protocol)', () => {
  void test('a 30 s video is assembled from the model shots, each one a recorded, priced shot', async () => {
    const dry = await t2v({ prompt: 'A lighthouse at dawn', dry_run: true });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.price.usd_cents, 1170);
    assert.equal(dry.body.data.normalized_request.engine, 'fal');

    const start = await balance();
    const receipt = await t2v({ prompt: 'A lighthouse at dawn; waves on the rocks; gulls over the sea' });
    assert.equal(receipt.status, 200, receipt.text);
    assert.equal(receipt.headers.get('x-api-credits-model'), 'maker-c/flow-2.0');
    assert.equal(receipt.headers.get('x-api-credits-tier'), 'xhigh');
    assert.equal(receipt.headers.get('x-api-credits-cost-usd-cents'), '1170');
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(await balance(), start - 1170);

    const shots = job.artifacts.shots;
    assert.equal(shots.length, 3);
    for (const shot of shots) {
      assert.equal(shot.provider, 'fal');
      assert.ok(shot.provider_request_id, 'provider request id recorded');
      assert.equal(shot.seconds, 10);
      assert.equal(shot.cost_usd_cents, 390);
    }
    assert.equal(submitsFor('waves on the rocks.').length, 1);
    // The API calls carry the key; the result download (a file URL) goes without it.
    for (const request of fal.requests)
      assert.equal(request.authorization, request.path.startsWith('/files/') ? undefined : `Key ${fal.key}`);

    const video = await downloadTo(job.artifacts.videoUrl, join(dir, 'hosted.mp4'));
    const info = await probeMedia(video);
    assert.equal(info.video?.width, 1080);
    assert.equal(info.video?.height, 1920);
    assert.ok(Math.abs(info.durationSec - 30) <= 0.5, `duration ${info.durationSec}`);
    // The model's own sound (a tone) and the ducked music bed, normalized.
    const loudness = await measureLoudness(video);
    assert.ok(Math.abs(loudness.integratedLufs + 14) <= 1.5, `loudness ${loudness.integratedLufs}`);
  });

  void test('a content refusal fails the job without a retry, and the charge is refunded', async () => {
    fal.script('A refused scene', { outcome: 'refused' });
    const start = await balance();
    const receipt = await t2v({ prompt: 'A refused scene', duration_sec: 5 });
    assert.equal(receipt.status, 200, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'CONTENT_REFUSED');
    assert.equal(job.error.retryable, false);
    assert.equal(await balance(), start);
    assert.equal(submitsFor('A refused scene').length, 1);
  });

  void test('a model failure mid-way is retried, then dead-lettered with a refund; finished shots are never paid twice', async () => {
    fal.script('a fish swims. A fox runs; a bird flies; a fish swims', { outcome: 'model-error' });
    const start = await balance();
    const receipt = await t2v({ prompt: 'A fox runs; a bird flies; a fish swims' });
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'dead_lettered', JSON.stringify(job));
    assert.equal(job.error.code, 'AI_PROVIDER_FAILED');
    assert.equal(await balance(), start);
    // Three attempts resubmit the failed shot; the two finished shots were submitted once.
    assert.equal(submitsFor('A fox runs. A fox runs').length, 1);
    assert.equal(submitsFor('a bird flies. A fox runs').length, 1);
    assert.equal(submitsFor('a fish swims. A fox runs').length, 3);
  });

  void test('a provider that never finishes is cancelled after the shot time limit, and refunded', async () => {
    fal.script('A scene that never ends', { outcome: 'never' });
    const start = await balance();
    const receipt = await t2v({ prompt: 'A scene that never ends', duration_sec: 5 });
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'AI_PROVIDER_TIMEOUT');
    assert.equal(await balance(), start);
    assert.ok(fal.requests.some((r) => r.method === 'PUT' && r.path.endsWith('/cancel')));
  });

  void test('a result URL at a private address is refused, and refunded', async () => {
    fal.script('A scene hosted privately', { outcome: 'video', videoUrl: 'https://10.1.2.3/shot.mp4' });
    const start = await balance();
    const receipt = await t2v({ prompt: 'A scene hosted privately', duration_sec: 5 });
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'AI_PROVIDER_RESULT_REFUSED');
    assert.equal(await balance(), start);
  });

  void test('/tools prices every tier and model for the engine that serves it', async () => {
    const tools = await service.call('GET', '/api/v1/tools', { key: null });
    const sheet = tools.body.data.pricing.ai_video;
    assert.equal(sheet.tiers.xhigh.model, 'maker-c/flow-2.0');
    assert.equal(sheet.tiers.xhigh.engine, 'fal');
    assert.equal(sheet.tiers.xhigh.prices['30'], 1170);
    assert.equal(sheet.tiers.xhigh.prices['60'], 2340);
    // wave-3.0 has no hosted mapping: it renders locally and says so.
    assert.equal(sheet.tiers.low.engine, 'local');
    assert.ok(
      sheet.models['ridge-3.0-pro'].prices_native_audio['30'] > sheet.models['ridge-3.0-pro'].prices['30'],
    );
    assert.ok(
      sheet.models['host-x/lt-2.3'].prices_narrated['30'] >= sheet.models['host-x/lt-2.3'].prices['30'],
    );
  });
});
