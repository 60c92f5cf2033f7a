import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import { PRICE_TABLE, type PriceBook, type PriceEntry } from '../pricing/price-table.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { WebhookEventNames } from '../webhooks/webhook-events.ts';

/** One line of a price breakdown, as shown in dry runs and /tools. */
export interface PriceLine {
  item: string;
  usd_cents: number;
  quantity?: number;
  unit?: string;
}

export interface Price {
  usdCents: number;
  breakdown: PriceLine[];
  /** Values of the X-Api-Credits-* headers. */
  tool: string;
  model: string;
  tier: string;
  engine: string;
}

export interface RenderEstimate {
  min: number;
  typical: number;
  max: number;
}

/** What a mode says about a validated request before anything runs (dry runs show all of it). */
export interface RequestEstimate {
  renderSeconds: RenderEstimate;
  durationSec?: number;
  warnings?: string[];
  /**
   * Where a narrating mode's script will come from (docs/scripts.md), shown as `script_source` (and, for a
   * "template" script, `script_hint`: how to get a real one) by dry runs and receipts.
   */
  script?: { source: 'request' | 'material' | 'llm' | 'template'; hint?: string };
}

/** What the platform hands a pipeline: the job, its request, a work folder, progress reporting and services. */
export interface JobContext<R> {
  /**
   * `deadlineAt`: when the job fails with PROCESS_TIMEOUT, for pipelines that budget their steps by it (absent
   * outside the queue, e.g. the render CLI).
   */
  job: { id: string; accountId: string; videoId: string; attempt: number; deadlineAt?: Date };
  request: R;
  workDir: string;
  signal: AbortSignal;
  log: Logger;
  services: PipelineServices;
  /** Records a progress step (0–100) visible in the job record and on the progress stream. */
  progress(stage: string, percent: number, message: string): Promise<void>;
}

export interface PipelineServices {
  config: Config;
  db: Db;
  urlGuard: UrlGuard;
  store: MediaStore;
  /** The account's saved brand, when it has one (modes that use the account brand read it here). */
  accountBrand(): Promise<Record<string, unknown> | null>;
}

/** What a mode's `validate` gets: the pipeline services, the caller's account and a folder for fetched files. */
export interface ValidationServices extends PipelineServices {
  accountId: string;
  /** The API key making the call; absent outside the API (render CLI). */
  caller?: { keyId: string; sandbox: boolean };
  /**
   * True while a dry run is validated: refuse exactly as the real call would, but create nothing (a brand kit
   * the real call would build from a website is only reported).
   */
  dryRun?: boolean;
  /**
   * A folder for files fetched while validating (e.g. a source whose length sets the price); the mode creates
   * it when it needs it. When the request is accepted it becomes the job's work folder, so the pipeline finds
   * those files in `workDir`; after a dry run or a refusal it is removed. Absent outside the API (render CLI).
   */
  stagingDir?: string;
}

/** A file the pipeline produced; the platform stores it and links it from the artifacts. */
export interface OutputFile {
  /** `manifest`: the video's provenance.json (artifacts.provenance.url links it). */
  role: 'video' | 'thumbnail' | 'clip' | 'clip_thumbnail' | 'subtitle' | 'transcript' | 'audio' | 'manifest';
  path: string;
  contentType: string;
  /** For clips: position in artifacts.clips. */
  index?: number;
  /** File name shown to downloaders, e.g. "captions.srt". */
  name?: string;
}

export interface JobOutput {
  /** Artifact fields that are not file links (title, description, script, durationSec, clips metadata…). */
  artifacts: Record<string, unknown>;
  files: OutputFile[];
  /** For modes that deliver fewer items than were paid for: cents to give back at completion. */
  refundCents?: number;
  refundReason?: string;
}

/**
 * A generation mode, registered once. Routes, /batch, /jobs, dry runs, /tools and /capabilities all read
 * the registry, so adding a mode means adding one folder under src/modes/.
 */
export interface ModeDefinition<R = any> {
  /** Registry key, the job record's `operation` and the key of its price-table entry. */
  name: string;
  /** Route path under /api/v1, without the leading slash. */
  endpoint: string;
  /**
   * True for a mode reached through a route of its own rather than POST /api/v1/<endpoint> (a fan-out job is
   * a POST /jobs body with `platforms`); /capabilities still lists it at its endpoint.
   */
  ownRoute?: boolean;
  title: string;
  description: string;
  /** Request schema applied after aliases are folded and platform fields are taken out. */
  schema: z.ZodType<R>;
  /** alias → canonical field name, in addition to the shared aliases of spec 1 §4.1. */
  aliases?: Record<string, string>;
  /** Folds aliases that are more than a rename (e.g. caption_position → caption_style.position); warns per alias. */
  prepare?(body: Record<string, unknown>, warnings: string[]): void;
  /** Shared aliases that do NOT apply to this mode's camelCase-style body. */
  keepFields?: string[];
  receiptStatus: 200 | 201 | 202;
  /** Paid live calls need an Idempotency-Key ('required'), or merely should send one ('recommended'). */
  idempotencyKey: 'required' | 'recommended';
  heavy: boolean;
  dryRun: boolean;
  webhooks: boolean;
  privateDelivery: boolean;
  /** Identical-body protection of spec 1 §8 (5-minute replay, 10 s wait). */
  identicalRequestProtection: boolean;
  /**
   * Extra validation that needs I/O or cross-field rules; throws ApiError (400) to refuse. It may answer with
   * a refined request (e.g. facts about a fetched source), which is then priced, shown by dry runs, stored
   * with the job and handed to the pipeline instead of the parsed one.
   */
  validate?(request: R, services: ValidationServices): Promise<R | void>;
  /**
   * Runs in the transaction that accepts the job (after its row is written, before the charge), for records
   * that must exist exactly when the job does. Throws ApiError to refuse; everything is then rolled back.
   */
  onAccepted?(tx: Tx, request: R, job: { id: string; accountId: string }): Promise<void>;
  /**
   * When the job may start, for a request that names a later time (a fan-out job's `schedule_at`): it waits
   * in the queue until then, and its lifetime counts from then. Undefined: at once.
   */
  startAt?(request: R): Date | undefined;
  /**
   * Cancelled (POST /jobs/{id}/cancel, as DELETE) only before it starts: a job whose charge is kept once its
   * work has begun (publish jobs, spec 2 §3 and §4.7: refunded only when cancelled before the video starts).
   */
  cancelOnlyBeforeStart?: boolean;
  /**
   * Seconds this request may run when that is longer than JOB_MAX_LIFETIME_SECONDS (e.g. a long source to
   * transcribe); capped by the platform (jobs/job-lifetime.ts).
   */
  lifetimeSeconds?(request: R): number;
  /**
   * The most seconds any job of this mode may live, counted from acceptance, when the spec caps it below
   * JOB_MAX_LIFETIME_SECONDS (brand analysis: 30 s, then PROCESS_TIMEOUT and a refund).
   */
  maxLifetimeSeconds?: number;
  price(request: R): Price;
  estimate(request: R): RequestEstimate;
  /** Event types of the completion callback; video.completed / video.failed / video.cancelled by default. */
  webhookEvents?: WebhookEventNames;
  /**
   * Extra receipt fields (e.g. requested_clip_count); they may replace the receipt's own (a mode whose spec
   * names another `status`). `job` is the job being accepted, for ids derived from it.
   */
  receiptExtras?(request: R, job: { id: string; videoId: string }): Record<string, unknown>;
  /**
   * Spec 1 §4.5 `variations`: one request accepted as several jobs, each its own request (priced, charged and
   * rendered alone), answered with one receipt listing them (`data.job_ids`). Undefined: one job.
   */
  variants?(request: R): R[] | undefined;
  /**
   * Receipt fields of a set of variant jobs that change after acceptance (e.g. `distinctness`), read again each
   * time the receipt is replayed.
   */
  variantSetExtras?(jobIds: string[], db: Db): Promise<Record<string, unknown>>;
  /**
   * Fields of the job record (GET /jobs/{id}) read live from the mode's own tables, e.g. a publish job's
   * per-platform states; they may replace the record's own (`kind`, `status`).
   */
  describeJob?(job: JobRow, db: Db): Promise<Record<string, unknown>>;
  /**
   * Response headers describing the validated request (e.g. X-Brand-Kit-Id of the brand kit it renders with),
   * sent with the receipt and a dry run's answer, and replayed with them.
   */
  answerHeaders?(request: R): Record<string, string>;
  run(ctx: JobContext<R>): Promise<JobOutput>;
}

export class ModeRegistry {
  private readonly byName = new Map<string, ModeDefinition>();
  private readonly byEndpoint = new Map<string, ModeDefinition>();

  /** `prices` is the product's price table; tests that mount their own modes pass one that prices them. */
  constructor(
    modes: ModeDefinition[] = [],
    private readonly prices: PriceBook = PRICE_TABLE,
  ) {
    for (const mode of modes) this.register(mode);
  }

  /**
   * Refuses a second mode with the same name or route, and a mode the price table does not price: start-up
   * fails instead of one silently winning or a catalog showing a null price.
   */
  register(mode: ModeDefinition): void {
    if (this.byName.has(mode.name)) throw new Error(`Mode ${mode.name} is registered twice`);
    if (this.byEndpoint.has(mode.endpoint)) throw new Error(`Route ${mode.endpoint} is served by two modes`);
    if (!Object.hasOwn(this.prices, mode.name))
      throw new Error(
        `Mode ${mode.name} has no entry in the price table (src/platform/pricing/price-table.ts)`,
      );
    this.byName.set(mode.name, mode);
    this.byEndpoint.set(mode.endpoint, mode);
  }

  get(name: string): ModeDefinition | undefined {
    return this.byName.get(name);
  }

  forEndpoint(endpoint: string): ModeDefinition | undefined {
    return this.byEndpoint.get(endpoint.replace(/^\/+/, '').replace(/^api\/v1\//, ''));
  }

  all(): ModeDefinition[] {
    return [...this.byName.values()];
  }

  /** The price-table entry of a registered mode (present for every mode: checked at registration). */
  priceEntry(mode: ModeDefinition): PriceEntry {
    return this.prices[mode.name]!;
  }
}
