import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { errorBody, successBody } from '../envelope.ts';
import { ApiError, errors } from '../errors.ts';
import {
  type Claim,
  type Idempotency,
  type StoredAnswer,
  validateIdempotencyKey,
} from '../idempotency/idempotency.ts';
import { newId } from '../ids.ts';
import { LINK_TTL_SECONDS } from '../jobs/job-presenter.ts';
import { addJobEvent, countOpenHeavyJobs, insertJob } from '../jobs/jobs-repo.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { jobLifetimeSeconds } from '../jobs/job-lifetime.ts';
import { websocketUrl } from '../jobs/stream-token.ts';
import { jobWorkDir, newStagingDir } from '../jobs/work-dirs.ts';
import { charge } from '../ledger/ledger.ts';
import type { ModeDefinition, Price, RequestEstimate, ValidationServices } from '../modes/mode.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import { displayUsd } from '../pricing/price-table.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { handOffWorkFolders } from '../storage/work-handoff.ts';
import { acceptOneJob } from './accept-statement.ts';
import { isDryRun, parseGenerateRequest, type ParsedGenerateRequest } from './parse-request.ts';
import { sandboxExampleFiles } from './sandbox-example.ts';

export interface GenerationDeps {
  config: Config;
  db: Db;
  /** The pool behind `db`: the one-job acceptance runs as a named statement on it. */
  pool: pg.Pool;
  queue: JobQueue;
  idempotency: Idempotency;
  urlGuard: UrlGuard;
  store: MediaStore;
  streamSecret: string;
  log: Logger;
}

export interface Caller {
  accountId: string;
  keyId: string;
  sandbox: boolean;
}

export interface SubmitInput {
  caller: Caller;
  mode: ModeDefinition;
  body: unknown;
  requestId: string;
  idempotencyKey: string | undefined;
  repeatToken: string | undefined;
  /** Route the caller used (e.g. "jobs" for POST /jobs): scopes identical-request protection. */
  endpoint: string;
  receiptStatus?: 200 | 201 | 202;
  /** Batch items wait in `queued` for a render slot instead of getting 429. */
  batchId?: string;
  /** Identical-request protection (off for batch items: two identical items are two jobs). */
  identicalProtection?: boolean;
}

/** An HTTP answer of a Generate call: status, envelope body and headers (stored for idempotent replay). */
export interface Answer extends StoredAnswer {
  replay?: 'key' | 'body';
}

export function chargeHeaders(price: Price, estimatedSeconds: number): Record<string, string> {
  return {
    'x-api-credits-cost-usd-cents': String(price.usdCents),
    'x-api-credits-tool': price.tool,
    'x-api-credits-model': price.model,
    'x-api-credits-tier': price.tier,
    'x-api-credits-engine': price.engine,
    'x-api-credits-estimated-seconds': String(estimatedSeconds),
  };
}

/** Removes a request's staging folder; most requests never create one, and a check costs less than a failed rm. */
async function removeStaging(stagingDir: string): Promise<void> {
  if (existsSync(stagingDir)) await rm(stagingDir, { recursive: true, force: true });
}

/** Moves a request's staged files to its job's work folder; false when nothing was staged. */
async function adoptStaged(stagingDir: string, workDir: string): Promise<boolean> {
  if (!existsSync(stagingDir)) return false;
  await mkdir(dirname(workDir), { recursive: true });
  await rename(stagingDir, workDir);
  return true;
}

export function errorAnswer(error: ApiError, requestId: string): Answer {
  return {
    status: error.status,
    body: errorBody(error, { request_id: requestId }),
    headers: { ...error.headers },
    jobIds: [],
  };
}

/** `script_source` and `script_hint` of a narrating mode's dry run and receipt. */
function scriptFields(estimate: RequestEstimate): Record<string, string> {
  if (!estimate.script) return {};
  const { source, hint } = estimate.script;
  return { script_source: source, ...(hint ? { script_hint: hint } : {}) };
}

/** Spec 1 §2.5. */
function dryRunAnswer(
  mode: ModeDefinition,
  parsed: ParsedGenerateRequest<unknown>,
  requestId: string,
): Answer {
  const price = mode.price(parsed.request);
  const estimate = mode.estimate(parsed.request);
  const data = {
    dry_run: true,
    valid: true,
    mode: mode.name,
    normalized_request: {
      ...(parsed.request as Record<string, unknown>),
      ...(parsed.options.webhookUrl ? { webhook_url: parsed.options.webhookUrl } : {}),
      ...(parsed.options.privateDelivery ? { delivery: { visibility: 'private' } } : {}),
      ...(parsed.options.agentRunId ? { agent_run_id: parsed.options.agentRunId } : {}),
      listing: parsed.options.listing,
    },
    price: { usd_cents: price.usdCents, display: displayUsd(price.usdCents), breakdown: price.breakdown },
    ...(estimate.durationSec !== undefined ? { estimated_duration_sec: estimate.durationSec } : {}),
    estimated_render_seconds: estimate.renderSeconds,
    ...scriptFields(estimate),
    warnings: [...parsed.warnings, ...(estimate.warnings ?? [])],
    charged: false,
  };
  return {
    status: 200,
    body: successBody(data, { request_id: requestId }),
    headers: { ...mode.answerHeaders?.(parsed.request) },
    jobIds: [],
  };
}

export class GenerationService {
  constructor(private readonly deps: GenerationDeps) {}

  services(accountId: string): ValidationServices {
    const { config, db, urlGuard, store } = this.deps;
    return {
      accountId,
      config,
      db,
      urlGuard,
      store,
      accountBrand: async () => {
        const row = await db
          .selectFrom('accounts')
          .select('brand')
          .where('id', '=', accountId)
          .executeTakeFirst();
        return (row?.brand as Record<string, unknown> | null) ?? null;
      },
    };
  }

  /** Validates and prices without creating anything (works with live and sandbox keys, never cached). */
  async dryRun(mode: ModeDefinition, body: unknown, caller: Caller, requestId: string): Promise<Answer> {
    const stagingDir = newStagingDir(this.deps.config);
    try {
      return dryRunAnswer(mode, await this.validated(mode, body, caller, stagingDir, true), requestId);
    } finally {
      await removeStaging(stagingDir);
    }
  }

  /** Schema, then the mode's own checks; the mode may refine the request (e.g. with a probed source). */
  private async validated(
    mode: ModeDefinition,
    body: unknown,
    caller: Caller,
    stagingDir: string,
    dryRun: boolean,
  ): Promise<ParsedGenerateRequest<unknown>> {
    const parsed = parseGenerateRequest(mode, body, this.deps.urlGuard);
    const refined: unknown = await mode.validate?.(parsed.request, {
      ...this.services(caller.accountId),
      caller: { keyId: caller.keyId, sandbox: caller.sandbox },
      dryRun,
      stagingDir,
    });
    return refined === undefined ? parsed : { ...parsed, request: refined };
  }

  /** The one path of a paid Generate request: spec 1 §3 of DESIGN — idempotency, validation, price, one transaction. */
  async submit(input: SubmitInput): Promise<Answer> {
    const { mode, caller, requestId } = input;
    if (isDryRun(input.body)) {
      if (!mode.dryRun) throw errors.dryRunNotSupported(`/${mode.endpoint}`);
      return this.dryRun(mode, input.body, caller, requestId);
    }
    validateIdempotencyKey(input.idempotencyKey);
    if (!caller.sandbox && input.idempotencyKey === undefined && mode.idempotencyKey === 'required') {
      throw errors.idempotencyKeyRequired();
    }
    const claimed = await this.deps.idempotency.claim({
      accountId: caller.accountId,
      endpoint: input.endpoint,
      key: input.idempotencyKey,
      body: input.body,
      repeatToken: input.repeatToken,
      identical: mode.identicalRequestProtection && !caller.sandbox && input.identicalProtection !== false,
    });
    if (claimed.kind === 'replay') return this.replayed(mode, claimed.answer, claimed.match);
    const { claim } = claimed;
    const stagingDir = newStagingDir(this.deps.config);
    try {
      if (caller.sandbox) {
        const answer = await this.sandboxJob(input);
        await claim.record(answer);
        return answer;
      }
      const parsed = await this.validated(mode, input.body, caller, stagingDir, false);
      return await this.accept(input, parsed, stagingDir, claim);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.code !== 'REQUEST_IN_PROGRESS') {
        const answer = errorAnswer(error, requestId);
        await claim.record(answer);
        return answer;
      }
      await claim.release();
      throw error;
    } finally {
      // An accepted request took its staged files along; anything left here belongs to no job.
      await removeStaging(stagingDir);
    }
  }

  private async accept(
    input: SubmitInput,
    parsed: ParsedGenerateRequest<unknown>,
    stagingDir: string,
    claim: Claim,
  ): Promise<Answer> {
    const { mode, caller, requestId } = input;
    const { config, db, queue, streamSecret } = this.deps;
    // Usually one job; a request with variations is several, each its own request, price and charge.
    const jobs = (mode.variants?.(parsed.request) ?? [parsed.request]).map((request) => ({
      request,
      price: mode.price(request),
      estimate: mode.estimate(request),
      id: newId.job(),
      videoId: newId.video(),
      startAt: mode.startAt?.(request),
    }));
    const first = jobs[0]!;
    const variantSet = mode.variants?.(parsed.request) !== undefined;
    const totalCents = jobs.reduce((sum, job) => sum + job.price.usdCents, 0);
    const jobId = first.id;
    const videoId = first.videoId;
    const options = parsed.options;

    const data: Record<string, unknown> = {
      job_id: jobId,
      video_id: videoId,
      status: 'queued',
      poll_url: `/api/v1/jobs/${jobId}`,
      price_usd_cents: totalCents,
      websocket_url: websocketUrl(config.publicBaseUrl, streamSecret, jobId),
      estimated_render_seconds: first.estimate.renderSeconds,
      ...scriptFields(first.estimate),
      ...(options.privateDelivery
        ? { delivery: { visibility: 'private', link_ttl_seconds: LINK_TTL_SECONDS } }
        : {}),
      ...(mode.receiptExtras?.(parsed.request, { id: jobId, videoId }) ?? {}),
      ...(variantSet
        ? {
            job_ids: jobs.map((job) => job.id),
            ...(await mode.variantSetExtras?.(
              jobs.map((job) => job.id),
              db,
            )),
          }
        : {}),
    };
    const meta = {
      request_id: requestId,
      ...(options.agentRunId ? { agent_run_id: options.agentRunId } : {}),
    };
    const answer: Answer = {
      status: input.receiptStatus ?? mode.receiptStatus,
      body: {},
      headers: {
        'x-job-id': jobId,
        ...chargeHeaders({ ...first.price, usdCents: totalCents }, first.estimate.renderSeconds.typical),
        ...mode.answerHeaders?.(parsed.request),
      },
      jobIds: jobs.map((job) => job.id),
    };

    // Before the job exists for any worker, files fetched while validating become its work folder (each
    // variant gets its own copy).
    const workDirs = jobs.map((job) => jobWorkDir(config, job.id));
    const staged = await adoptStaged(stagingDir, workDirs[0]!);
    try {
      if (staged) {
        for (const workDir of workDirs.slice(1)) await cp(workDirs[0]!, workDir, { recursive: true });
        await handOffWorkFolders(
          this.deps.store,
          jobs.map((job, i) => ({ jobId: job.id, workDir: workDirs[i]! })),
        );
      }
      const renderSlotCheck = mode.heavy && !input.batchId && !variantSet && !first.startAt;
      // The usual request, one paid job with nothing to check under the account's lock, is one statement.
      if (
        jobs.length === 1 &&
        !variantSet &&
        !renderSlotCheck &&
        !mode.onAccepted &&
        first.price.usdCents > 0
      ) {
        const balance = await acceptOneJob(this.deps.pool, {
          accountId: caller.accountId,
          apiKeyId: caller.keyId,
          cents: first.price.usdCents,
          reason: `${mode.name} job`,
          job: {
            id: jobId,
            mode: mode.name,
            endpoint: input.endpoint,
            heavy: mode.heavy,
            request: first.request,
            videoId,
            webhookUrl: options.webhookUrl ?? null,
            privateDelivery: options.privateDelivery,
            listing: options.listing,
            agentRunId: options.agentRunId ?? null,
            batchId: input.batchId ?? null,
            deadlineAt: this.deadline(mode, first),
          },
          key: claim.key,
          fingerprint: claim.fingerprint,
          // credits_remaining is filled in by the statement with the balance its charge left.
          answer: {
            status: answer.status,
            body: successBody(
              data,
              { ...meta, credits_used: totalCents, credits_remaining: 0 },
              { jobId, videoId },
            ),
            headers: answer.headers,
          },
          message: await queue.generationMessage(jobId, this.startAfter(first.startAt)),
        });
        if (balance !== undefined) {
          answer.body = successBody(
            data,
            { ...meta, credits_used: totalCents, credits_remaining: balance },
            { jobId, videoId },
          );
          return answer;
        }
        // Not covered (nothing was written): the transaction below refuses with the balance it holds locked,
        // or charges after all if a top-up landed meanwhile.
      }
      await db.transaction().execute(async (tx) => {
        for (const job of jobs) {
          await insertJob(tx, {
            id: job.id,
            account_id: caller.accountId,
            api_key_id: caller.keyId,
            sandbox: false,
            mode: mode.name,
            operation: mode.name,
            endpoint: input.endpoint,
            status: 'queued',
            heavy: mode.heavy,
            request: JSON.stringify(job.request),
            price_cents: job.price.usdCents,
            video_id: job.videoId,
            webhook_url: options.webhookUrl,
            private_delivery: options.privateDelivery,
            listing: options.listing,
            agent_run_id: options.agentRunId,
            batch_id: input.batchId ?? null,
            deadline_at: this.deadline(mode, job),
          });
          await mode.onAccepted?.(tx, job.request, { id: job.id, accountId: caller.accountId });
          // Nobody can be subscribed to a job that does not exist yet, so this event needs no notification.
          await addJobEvent(
            tx,
            job.id,
            { status: 'queued', stage: 'queued', message: 'Accepted; waiting for a worker.', percent: 0 },
            { notify: false },
          );
          await queue.enqueueGeneration(tx, job.id, this.startAfter(job.startAt));
        }
        // The account row is locked only from here to the commit: the render-slot count, the charge and the
        // answer (which reports the balance the charge left) come last, so concurrent acceptances of one
        // account wait on each other as briefly as possible. A refusal here (429, 402) rolls back everything.
        // Batch items, variants and jobs scheduled for later wait in the queue for a render slot instead.
        if (renderSlotCheck) {
          await tx
            .selectFrom('accounts')
            .select('id')
            .where('id', '=', caller.accountId)
            .forNoKeyUpdate()
            .execute();
          if ((await countOpenHeavyJobs(tx, caller.accountId)) > config.limits.heavyRendersPerAccount) {
            throw errors.renderConcurrency(config.limits.heavyRendersPerAccount);
          }
        }
        let balance = 0;
        for (const job of jobs)
          balance = await charge(tx, caller.accountId, job.price.usdCents, job.id, `${mode.name} job`);
        answer.body = successBody(
          data,
          { ...meta, credits_used: totalCents, credits_remaining: balance },
          { jobId, videoId },
        );
        // Spec 1 §4.5: each variant's receipt is kept under `<key>:v<index>` too.
        const items = variantSet
          ? jobs.map((job, index) => ({
              suffix: `:v${index}`,
              answer: {
                status: answer.status,
                body: successBody(
                  {
                    ...Object.fromEntries(
                      Object.entries(data).filter(([field]) => !['job_ids', 'distinctness'].includes(field)),
                    ),
                    job_id: job.id,
                    video_id: job.videoId,
                    poll_url: `/api/v1/jobs/${job.id}`,
                    price_usd_cents: job.price.usdCents,
                    websocket_url: websocketUrl(config.publicBaseUrl, streamSecret, job.id),
                    variant: { index, count: jobs.length },
                  },
                  meta,
                  { jobId: job.id, videoId: job.videoId },
                ),
                headers: {
                  ...answer.headers,
                  'x-job-id': job.id,
                  ...chargeHeaders(job.price, job.estimate.renderSeconds.typical),
                },
                jobIds: [job.id],
              },
            }))
          : [];
        await claim.accept(tx, answer, items);
      });
    } catch (error) {
      if (staged) for (const workDir of workDirs) await rm(workDir, { recursive: true, force: true });
      throw error;
    }
    return answer;
  }

  private deadline(mode: ModeDefinition, job: { request: unknown; startAt?: Date }): Date {
    const lifetime = jobLifetimeSeconds(this.deps.config, mode, job.request);
    return new Date((job.startAt?.getTime() ?? Date.now()) + lifetime * 1000);
  }

  /** Seconds until a job scheduled for later may start; undefined for a job to start now. */
  private startAfter(startAt: Date | undefined): number | undefined {
    return startAt ? Math.max(0, Math.ceil((startAt.getTime() - Date.now()) / 1000)) : undefined;
  }

  /** A stored answer sent again; a variant set's changing fields (its distinctness verdict) are read anew. */
  private async replayed(mode: ModeDefinition, answer: StoredAnswer, match: 'key' | 'body'): Promise<Answer> {
    const body = answer.body as { data?: Record<string, unknown> };
    if (!mode.variantSetExtras || !body.data?.job_ids) return { ...answer, replay: match };
    const extras = await mode.variantSetExtras(answer.jobIds, this.deps.db);
    return { ...answer, body: { ...body, data: { ...body.data, ...extras } }, replay: match };
  }

  /** Spec 1 §5.3: sandbox keys get a completed placeholder job with example artifacts, free and unvalidated. */
  private async sandboxJob(input: SubmitInput): Promise<Answer> {
    const { mode, caller, requestId } = input;
    const { db, store, config } = this.deps;
    const files = await sandboxExampleFiles(store, join(config.dataDir, 'work', 'sandbox'));
    const jobId = newId.sandboxJob();
    const videoId = newId.video();
    const artifacts = {
      files,
      title: `Sandbox example for ${mode.title}`,
      description: 'A placeholder result from a sandbox key: nothing was rendered or charged. #sandbox',
      script: '',
      durationSec: 3,
    };
    await db.transaction().execute(async (tx) => {
      await insertJob(tx, {
        id: jobId,
        account_id: caller.accountId,
        api_key_id: caller.keyId,
        sandbox: true,
        mode: mode.name,
        operation: mode.name,
        endpoint: input.endpoint,
        status: 'completed',
        heavy: false,
        request: JSON.stringify(input.body ?? null),
        artifacts: JSON.stringify(artifacts),
        price_cents: 0,
        video_id: videoId,
        deadline_at: new Date(),
        finished_at: new Date(),
      });
      await addJobEvent(tx, jobId, {
        status: 'completed',
        stage: 'completed',
        message: 'Sandbox placeholder job; nothing was rendered.',
        percent: 100,
      });
    });
    const data = {
      job_id: jobId,
      video_id: videoId,
      status: 'completed',
      poll_url: `/api/v1/jobs/${jobId}`,
      price_usd_cents: 0,
      sandbox: true,
    };
    return {
      status: input.receiptStatus ?? mode.receiptStatus,
      body: successBody(data, { request_id: requestId }, { jobId, videoId }),
      headers: { 'x-job-id': jobId, 'x-api-credits-cost-usd-cents': '0' },
      jobIds: [jobId],
    };
  }
}
