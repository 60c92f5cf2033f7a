import { z } from 'zod';

// The answers spec 1 names (§2.1 receipt, §2.2 job record, §2.5 dry run, §7 envelopes) as Zod schemas, for the
// OpenAPI document only: the code builds these answers in src/platform/envelope.ts, generation/submit.ts and
// jobs/job-presenter.ts, and test/openapi.test.ts checks live answers against the document. Objects are open:
// a mode may add fields (e.g. requested_clip_count), which the spec allows.

export const metaSchema = z.looseObject({
  request_id: z.string().describe('Also sent as the X-Request-Id header.'),
  replayed: z.boolean().optional().describe('True when this is a stored answer sent again.'),
  replay_reason: z.enum(['idempotency_key', 'identical_request']).optional(),
  original_request_id: z.string().optional(),
});

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string().describe('What went wrong and what to fix.'),
    retryable: z.boolean(),
    details: z
      .unknown()
      .optional()
      .describe('For INPUT_INVALID: { fields: [{ field, message, valid_values? }] }.'),
  }),
  meta: metaSchema,
});

/** The older answers of /api/clip-video (spec 2 §4.9). */
export const legacySuccessSchema = z.looseObject({
  success: z.literal(true),
  message: z.string(),
  taskId: z.string().describe('The job id, pollable at GET /api/v1/jobs/{jobId}.'),
  videoId: z.string(),
});
export const legacyErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.string().describe('The error code.'),
});

const renderSeconds = z.looseObject({ min: z.number(), typical: z.number().optional(), max: z.number() });

export const receiptSchema = z.looseObject({
  job_id: z.string().describe('Also in the X-Job-Id header.'),
  video_id: z.string(),
  status: z.string().describe('queued (completed for a sandbox key).'),
  poll_url: z.string(),
  price_usd_cents: z.number().int().min(0),
  websocket_url: z.string().optional().describe('A progress stream: GET /api/v1/jobs/{jobId}/stream.'),
  estimated_render_seconds: renderSeconds.optional(),
  delivery: z.looseObject({ visibility: z.literal('private'), link_ttl_seconds: z.number() }).optional(),
  job_ids: z.array(z.string()).optional().describe('A `variations` request: every job, in variant order.'),
  sandbox: z.boolean().optional(),
});

export const dryRunSchema = z.looseObject({
  dry_run: z.literal(true),
  valid: z.literal(true),
  mode: z.string(),
  normalized_request: z.record(z.string(), z.unknown()),
  price: z.looseObject({
    usd_cents: z.number().int().min(0),
    display: z.string(),
    breakdown: z.array(z.looseObject({ item: z.string(), usd_cents: z.number() })),
  }),
  estimated_duration_sec: z.number().optional(),
  estimated_render_seconds: renderSeconds,
  warnings: z.array(z.string()),
  charged: z.literal(false),
});

export const jobSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  operation: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  progress: z.array(
    z.looseObject({ at: z.string(), stage: z.string(), message: z.string(), percent: z.number() }),
  ),
  artifacts: z.record(z.string(), z.unknown()),
  error: z
    .looseObject({ code: z.string(), category: z.string(), message: z.string(), retryable: z.boolean() })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const jobAnswerSchema = z.object({ job: jobSchema });
export const cancelledJobSchema = z.object({
  job: jobSchema,
  refunded: z.boolean().describe('Whether the charge was given back.'),
});
