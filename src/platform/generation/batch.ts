import { z } from 'zod';
import { successBody } from '../envelope.ts';
import { ApiError, errors } from '../errors.ts';
import type { Idempotency } from '../idempotency/idempotency.ts';
import { validateIdempotencyKey } from '../idempotency/idempotency.ts';
import { newId } from '../ids.ts';
import type { ModeRegistry } from '../modes/mode.ts';
import { displayUsd } from '../pricing/price-table.ts';
import { fieldIssues, invalidInputError } from './parse-request.ts';
import { type Answer, type Caller, errorAnswer, type GenerationService } from './submit.ts';

// POST /batch (spec 1 §4.10): each item runs through its endpoint's normal path; one item's refusal never
// touches the others; the whole batch answer is stored under the batch's Idempotency-Key.

/** The endpoints spec 1 §4.10 allows in a batch; a server accepts those of them it serves. */
const BATCHABLE_ENDPOINTS = [
  'generate-and-post',
  'clipper/vidsite',
  'videos/text-to-video',
  'videos/image-to-video',
  'videos/ai-influencer',
];
export const MAX_BATCH_JOBS = 25;

/** The batchable endpoints this server serves (listed by /capabilities, accepted by /batch). */
export function servedBatchEndpoints(registry: ModeRegistry): string[] {
  return BATCHABLE_ENDPOINTS.filter((endpoint) => registry.forEndpoint(endpoint));
}

export const batchSchema = z.object({
  jobs: z
    .array(
      z.object({
        endpoint: z
          .string()
          .transform((e) => e.replace(/^\/+/, '').replace(/^api\/v1\//, ''))
          .pipe(z.enum(BATCHABLE_ENDPOINTS)),
        body: z.record(z.string(), z.unknown()),
        idempotency_key: z.string().min(8).max(256).optional(),
      }),
    )
    .min(1)
    .max(MAX_BATCH_JOBS, `at most ${MAX_BATCH_JOBS} jobs per batch`),
  dry_run: z.boolean().optional(),
});

type BatchItem = z.infer<typeof batchSchema>['jobs'][number];

export class BatchService {
  constructor(
    private readonly generation: GenerationService,
    private readonly idempotency: Idempotency,
    private readonly registry: ModeRegistry,
  ) {}

  private parse(body: unknown): z.infer<typeof batchSchema> {
    const parsed = batchSchema.safeParse(body);
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    const missing = parsed.data.jobs
      .map((job, index) => ({ job, index }))
      .filter(({ job }) => !this.registry.forEndpoint(job.endpoint));
    if (missing.length > 0) {
      const installed = servedBatchEndpoints(this.registry);
      throw invalidInputError(
        missing.map(({ job, index }) => ({
          field: `jobs[${index}].endpoint`,
          message: `${job.endpoint} is not available on this server; available: ${installed.join(', ') || 'none'}`,
          valid_values: installed,
        })),
      );
    }
    return parsed.data;
  }

  async submit(caller: Caller, body: unknown, key: string | undefined, requestId: string): Promise<Answer> {
    const batch = this.parse(body);
    if (batch.dry_run) return this.dryRun(caller, batch.jobs, requestId);
    validateIdempotencyKey(key);
    if (!caller.sandbox && key === undefined) throw errors.idempotencyKeyRequired();
    const claimed = await this.idempotency.claim({
      accountId: caller.accountId,
      endpoint: 'batch',
      key,
      body,
      repeatToken: undefined,
      identical: false,
    });
    if (claimed.kind === 'replay') return { ...claimed.answer, replay: claimed.match };
    try {
      const batchId = newId.batch();
      const results = [];
      for (const [index, item] of batch.jobs.entries()) {
        const answer = await this.runItem(caller, item, index, key, batchId, requestId);
        const data = (answer.body.data ?? {}) as Record<string, unknown>;
        results.push({
          index,
          endpoint: item.endpoint,
          ok: answer.status < 300,
          http_status: answer.status,
          job_id: answer.status < 300 && typeof data.job_id === 'string' ? data.job_id : null,
          response: answer.body,
        });
      }
      const accepted = results.filter((r) => r.ok).length;
      const answer: Answer = {
        status: 200,
        body: successBody(
          { batch_id: batchId, accepted, rejected: results.length - accepted, results },
          { request_id: requestId },
        ),
        headers: {},
        jobIds: results.flatMap((r) => (r.job_id ? [r.job_id] : [])),
      };
      await claimed.claim.record(answer);
      return answer;
    } catch (error) {
      await claimed.claim.release();
      throw error;
    }
  }

  private async runItem(
    caller: Caller,
    item: BatchItem,
    index: number,
    key: string | undefined,
    batchId: string,
    requestId: string,
  ): Promise<Answer> {
    const mode = this.registry.forEndpoint(item.endpoint)!;
    try {
      return await this.generation.submit({
        caller,
        mode,
        body: item.body,
        requestId,
        idempotencyKey: item.idempotency_key ?? (key !== undefined ? `${key}:${index}` : undefined),
        repeatToken: undefined,
        endpoint: mode.endpoint,
        batchId,
        identicalProtection: false,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return errorAnswer(error, requestId);
      throw error;
    }
  }

  private async dryRun(caller: Caller, jobs: BatchItem[], requestId: string): Promise<Answer> {
    const results = [];
    let total = 0;
    for (const [index, item] of jobs.entries()) {
      const mode = this.registry.forEndpoint(item.endpoint)!;
      try {
        const answer = await this.generation.dryRun(mode, { ...item.body, dry_run: true }, caller, requestId);
        const data = answer.body.data as { price: { usd_cents: number } };
        total += data.price.usd_cents;
        results.push({
          index,
          endpoint: item.endpoint,
          ok: true,
          valid: true,
          http_status: 200,
          job_id: null,
          response: answer.body,
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        results.push({
          index,
          endpoint: item.endpoint,
          ok: false,
          valid: false,
          http_status: error.status,
          job_id: null,
          response: errorAnswer(error, requestId).body,
        });
      }
    }
    const valid = results.every((r) => r.valid);
    return {
      status: 200,
      body: successBody(
        {
          dry_run: true,
          valid,
          price: { usd_cents: total, display: displayUsd(total) },
          charged: false,
          results,
        },
        { request_id: requestId },
      ),
      headers: {},
      jobIds: [],
    };
  }
}
