import type pg from 'pg';
import type { Logger } from 'pino';
import type { BrandKitService } from '../brand/kits/brand-kit-service.ts';
import type { KeyAuthenticator } from '../platform/accounts/key-authenticator.ts';
import type { Config } from '../platform/config.ts';
import type { Db } from '../platform/db/database.ts';
import type { Notifications } from '../platform/db/notifications.ts';
import type { BatchService } from '../platform/generation/batch.ts';
import type { Idempotency } from '../platform/idempotency/idempotency.ts';
import type { GenerationService } from '../platform/generation/submit.ts';
import type { JobLifecycle } from '../platform/jobs/job-lifecycle.ts';
import type { JobQueue } from '../platform/jobs/queue.ts';
import type { RateLimiter } from '../platform/limits/rate-limiter.ts';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import type { UrlGuard } from '../platform/net/url-guard.ts';
import type { Metrics } from '../platform/observability/metrics.ts';
import type { Readiness } from '../platform/health/readiness.ts';
import type { MediaStore } from '../platform/storage/media-store.ts';
import type { Publishing } from '../publishing/publishing.ts';
import type { PaidReads } from '../signals/paid-read.ts';
import type { RadarService } from '../signals/radar/radar-service.ts';

/** Everything the HTTP layer needs, wired once by the entry point. */
export interface AppContext {
  config: Config;
  db: Db;
  /** The same database through the raw pool, for named queries on hot paths. */
  pool: pg.Pool;
  log: Logger;
  registry: ModeRegistry;
  generation: GenerationService;
  batch: BatchService;
  idempotency: Idempotency;
  lifecycle: JobLifecycle;
  queue: JobQueue;
  notifications: Notifications;
  rateLimiter: RateLimiter;
  keys: KeyAuthenticator;
  urlGuard: UrlGuard;
  store: MediaStore;
  /** Saved brand kits (spec 2 §2.4): the b2b/brands routes and kit resolution for generation. */
  brandKits: BrandKitService;
  /** Trends from the shared 10-minute source cache (spec 2 §4.1): the paid reads and the other signals features. */
  radar: RadarService;
  /** Charges the paid reads (trends, recommendations): one module for key, charge and stored answer. */
  paidReads: PaidReads;
  metrics: Metrics;
  /** Platform clients and the account connections that feed them tokens (docs/publishing.md). */
  publishing: Publishing;
  streamSecret: string;
  /** GET /api/v1/ready: database, store, ffmpeg and disk, failing first on shutdown. */
  readiness: Readiness;
  /** Extra /capabilities sections contributed by the product's modes. */
  catalogs: Record<string, () => unknown>;
  /** Request-priced modes' price sheets, shown under `pricing` of /tools and /usage. */
  pricingSheets: Record<string, () => unknown>;
}
