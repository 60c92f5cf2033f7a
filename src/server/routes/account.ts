// An account's own records for its key holder (docs/studio.md): GET /jobs (newest first), GET /ledger, and
// the API keys (GET, POST, DELETE /keys). The Studio page uses only these and the other public routes.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addKey,
  latestProgress,
  listAccountJobs,
  listKeys,
  listLedger,
  revokeKey,
} from '../../platform/accounts/account-records.ts';
import { successBody } from '../../platform/envelope.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { presentArtifacts } from '../../platform/jobs/job-presenter.ts';
import { isFinal, JOB_STATUSES, type JobStatus } from '../../platform/jobs/job-status.ts';
import { websocketUrl } from '../../platform/jobs/stream-token.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

const jobsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    before: z.string().min(1).max(100).optional().describe('The last job id of the previous page.'),
    status: z.enum(JOB_STATUSES).optional(),
  })
  .strict();

const ledgerQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    before: z.coerce.number().int().min(1).optional().describe('The last entry id of the previous page.'),
  })
  .strict();

const createKeyBody = z
  .object({ sandbox: z.boolean().default(false).describe('A sandbox key (free placeholder jobs).') })
  .strict();

const keySchema = z.object({
  id: z.string(),
  prefix: z.string().describe('The public start of the key.'),
  sandbox: z.boolean(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

const liveKeyRequired = () =>
  new ApiError(403, 'LIVE_KEY_REQUIRED', 'API keys are managed with a live key; a sandbox key cannot.');

const DOCS = {
  jobs: {
    summary: 'List jobs',
    description:
      "This account's jobs, newest first: status, mode, price, latest progress, title and poster; open jobs carry a progress stream websocket_url.",
    tags: ['Jobs'],
    query: jobsQuery,
  },
  ledger: {
    summary: 'Ledger entries',
    description:
      'Charges, refunds and top-ups newest first, each with the balance it left and the mode of its job.',
    tags: ['Catalogs'],
    query: ledgerQuery,
  },
  keys: {
    summary: 'List API keys',
    description: "This account's keys by public prefix; the keys themselves are never shown again.",
    tags: ['Account'],
    response: z.object({ keys: z.array(keySchema) }),
  },
  createKey: {
    summary: 'Create an API key',
    description: 'A new live or sandbox key, shown in this answer only. Needs a live key.',
    tags: ['Account'],
    body: createKeyBody,
    bodyRequired: false,
    successStatus: 201,
    response: z.object({ key: keySchema.extend({ key: z.string().describe('Shown once.') }) }),
    errors: [{ status: 403, code: 'LIVE_KEY_REQUIRED' }],
  },
  revokeKey: {
    summary: 'Revoke an API key',
    description: 'The key stops working at once in every process. Needs a live key.',
    tags: ['Account'],
    response: z.object({ key: keySchema }),
    errors: ['NOT_FOUND', { status: 403, code: 'LIVE_KEY_REQUIRED' }],
  },
} satisfies Record<string, RouteDocs>;

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/v1/jobs', { config: { rateLimit: 'job_reads', docs: DOCS.jobs } }, async (request) => {
    const { accountId } = callerOf(request);
    const query = parse(jobsQuery, request.query);
    const rows = await listAccountJobs(ctx.db, accountId, query);
    const progress = await latestProgress(
      ctx.db,
      rows.map((row) => row.id),
    );
    const jobs = rows.map((row) => {
      const artifacts = presentArtifacts(row, ctx.store);
      const open = !isFinal(row.status as JobStatus);
      return {
        id: row.id,
        operation: row.operation,
        status: row.status,
        price_usd_cents: row.price_cents,
        sandbox: row.sandbox,
        listing: row.listing,
        video_id: row.video_id,
        title: typeof artifacts.title === 'string' ? artifacts.title : null,
        thumbnail_url: (artifacts.thumbnailUrl as string | undefined) ?? null,
        progress: progress.get(row.id) ?? null,
        error: row.error ?? null,
        created_at: new Date(row.created_at).toISOString(),
        finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
        ...(open ? { websocket_url: websocketUrl(ctx.config.publicBaseUrl, ctx.streamSecret, row.id) } : {}),
      };
    });
    const next = rows.length === query.limit ? rows[rows.length - 1]!.id : null;
    return successBody({ jobs, next_before: next }, { request_id: request.id });
  });

  app.get('/api/v1/ledger', { config: { rateLimit: 'metadata', docs: DOCS.ledger } }, async (request) => {
    const query = parse(ledgerQuery, request.query);
    const entries = await listLedger(ctx.db, callerOf(request).accountId, query);
    const next = entries.length === query.limit ? entries[entries.length - 1]!.id : null;
    return successBody({ entries, next_before: next }, { request_id: request.id });
  });

  app.get('/api/v1/keys', { config: { rateLimit: 'metadata', docs: DOCS.keys } }, async (request) =>
    successBody({ keys: await listKeys(ctx.db, callerOf(request).accountId) }, { request_id: request.id }),
  );

  app.post('/api/v1/keys', { config: { docs: DOCS.createKey } }, async (request, reply) => {
    const caller = callerOf(request);
    const body = parse(createKeyBody, request.body);
    if (caller.sandbox) throw liveKeyRequired();
    const key = await addKey(ctx.db, caller.accountId, body.sandbox);
    return reply.status(201).send(successBody({ key }, { request_id: request.id }));
  });

  app.delete<{ Params: { keyId: string } }>(
    '/api/v1/keys/:keyId',
    { config: { docs: DOCS.revokeKey } },
    async (request) => {
      const caller = callerOf(request);
      if (caller.sandbox) throw liveKeyRequired();
      const key = await revokeKey(ctx.db, caller.accountId, request.params.keyId);
      if (!key) throw errors.notFound(`The key ${request.params.keyId}`);
      ctx.keys.clear();
      return successBody({ key }, { request_id: request.id });
    },
  );
}
