import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { errors, JobFailure } from '../../src/platform/errors.ts';
import type { ModeDefinition } from '../../src/platform/modes/mode.ts';
import { PRICE_TABLE, type PriceBook } from '../../src/platform/pricing/price-table.ts';

// A mode that exists only in tests: its body says how its job should end, so tests can drive every outcome
// of the platform (success, failure, retries, crashes, slowness) without rendering real videos.

export const testModeSchema = z.object({
  topic: z.string().min(1).max(500),
  outcome: z.enum(['succeed', 'fail', 'retryable', 'flaky', 'sleep', 'throw']).default('succeed'),
  sleep_ms: z.number().int().min(0).max(600_000).default(0),
  style: z.enum(['plain', 'fancy']).default('plain'),
  duration_sec: z.number().min(1).max(120).default(30),
  validate_ms: z.number().int().min(0).max(30_000).default(0),
});
export type TestRequest = z.infer<typeof testModeSchema>;

function tinyVideo(path: string): void {
  const result = spawnSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=64x112:r=30:d=0.5',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    path,
  ]);
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
}

export function testMode(overrides: Partial<ModeDefinition<TestRequest>> = {}): ModeDefinition<TestRequest> {
  return {
    name: 'test_video',
    endpoint: 'generate-and-post',
    title: 'Test video',
    description: 'Test-only mode whose body chooses the outcome.',
    schema: testModeSchema,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    async validate(request) {
      if (request.validate_ms > 0) await sleep(request.validate_ms);
      if (request.topic === 'explode-during-validation')
        throw new Error('secret internal detail /etc/passwd');
      if (request.topic === 'forbidden topic')
        throw errors.inputInvalid('topic is not allowed', [{ field: 'topic', message: 'is not allowed' }]);
    },
    price: () => ({
      usdCents: 60,
      breakdown: [{ item: 'test video', usd_cents: 60 }],
      tool: 'generate-and-post',
      model: 'test',
      tier: 'standard',
      engine: 'test',
    }),
    estimate: (request) => ({
      renderSeconds: { min: 1, typical: 2, max: 5 },
      durationSec: request.duration_sec,
    }),
    async run(ctx) {
      await ctx.progress('script', 10, 'Writing');
      if (ctx.request.sleep_ms > 0) await sleep(ctx.request.sleep_ms, undefined, { signal: ctx.signal });
      await ctx.progress('render', 50, 'Rendering');
      switch (ctx.request.outcome) {
        case 'fail':
          throw new JobFailure({
            code: 'AI_OUTPUT_LOW_QUALITY',
            category: 'provider',
            message: 'The output did not pass checks.',
            retryable: false,
          });
        case 'retryable':
          throw new JobFailure({
            code: 'PROVIDER_UNAVAILABLE',
            category: 'provider',
            message: 'Provider busy.',
            retryable: true,
          });
        case 'flaky':
          if (ctx.job.attempt < 2)
            throw new JobFailure({
              code: 'PROVIDER_UNAVAILABLE',
              category: 'provider',
              message: 'Provider busy.',
              retryable: true,
            });
          break;
        case 'throw':
          throw new Error('unexpected bug');
        case 'succeed':
        case 'sleep':
          break;
      }
      const video = join(ctx.workDir, 'video.mp4');
      tinyVideo(video);
      return {
        artifacts: {
          title: `About ${ctx.request.topic}`,
          description: 'A test video. #test',
          script: ctx.request.topic,
          durationSec: 0.5,
        },
        files: [{ role: 'video', path: video, contentType: 'video/mp4' }],
      };
    },
    ...overrides,
  };
}

/** The product's price table plus a $0.60 entry for each test-only mode, so the registry accepts them. */
export function testPriceBook(modes: ModeDefinition[]): PriceBook {
  const testEntries = modes
    .filter((mode) => !Object.hasOwn(PRICE_TABLE, mode.name))
    .map(
      (mode) => [mode.name, { usdCents: 60, unit: 'job', engine: 'test', notes: 'Test-only mode.' }] as const,
    );
  return { ...PRICE_TABLE, ...Object.fromEntries(testEntries) };
}
