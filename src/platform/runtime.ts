import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { BrandKitService } from '../brand/kits/brand-kit-service.ts';
import type { Logger } from 'pino';
import { buildApp } from '../server/app.ts';
import { PaidReads } from '../signals/paid-read.ts';
import { RadarService } from '../signals/radar/radar-service.ts';
import { TrendCache } from '../signals/radar/trend-cache.ts';
import { createTrendSources } from '../signals/sources/trend-sources.ts';
import type { AppContext } from '../server/app-context.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres.ts';
import { migrate } from './db/migrate.ts';
import { Notifications } from './db/notifications.ts';
import { BatchService } from './generation/batch.ts';
import { GenerationService } from './generation/submit.ts';
import { Idempotency } from './idempotency/idempotency.ts';
import { JOB_STOP_CHANNEL, JobLifecycle } from './jobs/job-lifecycle.ts';
import { JOB_EVENTS_CHANNEL } from './jobs/jobs-repo.ts';
import { KEYS_CHANGED_CHANNEL } from './accounts/accounts.ts';
import { KeyAuthenticator } from './accounts/key-authenticator.ts';
import { JobQueue } from './jobs/queue.ts';
import { GenerationWorker } from './jobs/worker.ts';
import { RenderActivity } from './jobs/render-activity.ts';
import { RateLimiter } from './limits/rate-limiter.ts';
import { ModeRegistry, type ModeDefinition } from './modes/mode.ts';
import type { PriceBook } from './pricing/price-table.ts';
import { UrlGuard } from './net/url-guard.ts';
import { Metrics } from './observability/metrics.ts';
import { serverSecret } from './settings.ts';
import { createMediaStore } from './storage/create-media-store.ts';
import type { MediaStore } from './storage/media-store.ts';
import { DiskGuard } from './health/disk-space.ts';
import { Readiness } from './health/readiness.ts';
import { MediaRetention } from './retention/media-retention.ts';
import { WebhookSender } from './webhooks/webhook-sender.ts';
import { sweepStaleStaging } from './jobs/work-dirs.ts';
import { checkTokenKey } from '../publishing/connections/token-key-check.ts';
import { TokenRefresher } from '../publishing/connections/token-refresher.ts';
import { ScheduleTicker } from '../publishing/schedules/schedule-ticker.ts';
import { createPublishing, type Publishing } from '../publishing/publishing.ts';

/** What mode factories get to build their pipelines' dependencies. */
export interface ModeFactoryDeps {
  config: Config;
  db: DatabaseHandle['db'];
  log: Logger;
  /** The trends radar (news from real stories); absent in the render CLI, which renders stock videos only. */
  radar?: RadarService;
  /** The outbound URL guard (hosted model providers' APIs go through it). */
  urlGuard: UrlGuard;
  /** Platform clients and connections, for the publishing modes (POST /post, fan-out jobs). */
  publishing?: Publishing;
  /** Where stored files live; the library copies its files there when other machines read it (S3). */
  store?: MediaStore;
}

export interface ProductSetup {
  modes: ModeDefinition[];
  /** Extra sections of GET /capabilities (e.g. the voice catalogue), computed when asked. */
  catalogs?: Record<string, () => unknown>;
  /** Extra sections of `pricing` in GET /tools and /usage (e.g. `ai_video`), computed when asked. */
  pricing?: Record<string, () => unknown>;
  /** Work nobody waits for: it waits while `renders` has a render running, so renders come first. */
  background?: (signal: AbortSignal, renders: RenderActivity) => Promise<void>;
}

export interface RuntimeOptions {
  config: Config;
  log: Logger;
  /** The modes to serve, or a factory that also returns work to run beside the worker (stopped with it). */
  modes: ModeDefinition[] | ((deps: ModeFactoryDeps) => ProductSetup);
  /** The price table modes are checked against; the product's unless tests mount modes of their own. */
  prices?: PriceBook;
  http: boolean;
  worker: boolean;
}

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  context: AppContext;
  app: FastifyInstance | undefined;
  worker: GenerationWorker | undefined;
  /** Address the HTTP server listens on, when it serves HTTP. */
  url: string | undefined;
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** Validating a request fetches at most a few hundred MB: a staging folder this old belongs to no request. */
const STALE_STAGING_MS = 6 * 3600 * 1000;

/** Opens the database (embedded or DATABASE_URL), migrates it, and starts the HTTP server and/or the worker. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, log } = options;
  let embedded: EmbeddedDatabase | undefined;
  let connectionString = config.databaseUrl;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
    connectionString = embedded.connectionString;
  }
  const database = openDatabase(connectionString);
  const { db } = database;
  const applied = await migrate(database.pool);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  try {
    await checkTokenKey(config, db);
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }

  const store = createMediaStore(config, await serverSecret(db, 'media_signing_secret'));
  const streamSecret = await serverSecret(db, 'stream_token_secret');
  const disk = new DiskGuard(config);
  const readiness = new Readiness({ config, db, store, disk });
  const urlGuard = new UrlGuard({ allowLoopback: config.allowLoopbackUrls });
  const queue = await JobQueue.start(connectionString, config, log);
  const notifications = await Notifications.start(
    connectionString,
    [JOB_EVENTS_CHANNEL, JOB_STOP_CHANNEL, KEYS_CHANGED_CHANNEL],
    log,
  );
  const idempotency = new Idempotency(database.ephemeral);
  // Paid reads charge in sessions with synchronous_commit off: a charge lost in a crash is lost with its stored
  // answer, so that read was simply free.
  const paidReads = new PaidReads({ db: database.ephemeral, idempotency });
  const radar = new RadarService({
    paidReads,
    cache: new TrendCache({ pool: database.pool, sources: createTrendSources(config, urlGuard), log }),
  });
  const publishing = createPublishing(config, db, log);
  const modeDeps: ModeFactoryDeps = { config, db, log, radar, urlGuard, publishing, store };
  const setup: ProductSetup =
    typeof options.modes === 'function' ? options.modes(modeDeps) : { modes: options.modes };
  const registry = new ModeRegistry(setup.modes, options.prices);
  const lifecycle = new JobLifecycle({ db, queue, store, registry, log });
  const generation = new GenerationService({
    config,
    db,
    pool: database.pool,
    queue,
    idempotency,
    urlGuard,
    store,
    streamSecret,
    log,
  });
  const context: AppContext = {
    config,
    db,
    pool: database.pool,
    log,
    registry,
    generation,
    batch: new BatchService(generation, idempotency, registry),
    idempotency,
    lifecycle,
    queue,
    notifications,
    rateLimiter: new RateLimiter(database.ephemeralPool),
    keys: new KeyAuthenticator(db, notifications),
    urlGuard,
    store,
    brandKits: new BrandKitService({ db, store, urlGuard }),
    radar,
    paidReads,
    metrics: new Metrics(db, queue),
    publishing,
    streamSecret,
    readiness,
    catalogs: setup.catalogs ?? {},
    pricingSheets: setup.pricing ?? {},
  };

  let worker: GenerationWorker | undefined;
  let webhooks: WebhookSender | undefined;
  let tokenRefresher: TokenRefresher | undefined;
  let schedules: ScheduleTicker | undefined;
  let retention: MediaRetention | undefined;
  // Shared through marker files by every worker process of this data directory.
  const renders = new RenderActivity(join(config.dataDir, 'run', 'renders'));
  if (options.worker) {
    worker = new GenerationWorker({
      config,
      db,
      queue,
      registry,
      store,
      lifecycle,
      notifications,
      urlGuard,
      log,
      renders,
      disk,
    });
    await worker.start();
    const swept = await sweepStaleStaging(config, STALE_STAGING_MS);
    if (swept > 0) log.info({ swept }, 'removed staging folders left by interrupted requests');
    webhooks = new WebhookSender({ db, queue, urlGuard, config, log });
    await webhooks.start();
    tokenRefresher = new TokenRefresher(
      context.publishing.connections,
      config.publishing.refreshSeconds,
      log,
    );
    tokenRefresher.start();
    schedules = new ScheduleTicker({ db, generation, registry, log });
    schedules.start();
    retention = new MediaRetention({ config, db, store, log });
    retention.start();
  }
  const background = new AbortController();
  const backgroundWork =
    options.worker && setup.background
      ? setup.background(background.signal, renders).catch((error: unknown) => {
          if (!background.signal.aborted) log.error({ err: error }, 'background work failed');
        })
      : Promise.resolve();

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (options.http) {
    app = await buildApp(context);
    url = await app.listen({ port: config.port, host: config.host });
  }

  let stopping: Promise<void> | undefined;
  const stop = (stopOptions: { graceMs?: number } = {}) =>
    (stopping ??= (async () => {
      // Readiness fails first, so a load balancer stops sending before the server stops accepting.
      readiness.drain();
      if (app && config.shutdownDrainSeconds > 0) await sleep(config.shutdownDrainSeconds * 1000);
      // Stops accepting; requests in flight are answered first.
      await app?.close();
      background.abort();
      await backgroundWork;
      await worker?.stop(stopOptions.graceMs);
      // Before the queue: each tick enqueues a job.
      await schedules?.stop();
      await webhooks?.stop();
      await tokenRefresher?.stop();
      await retention?.stop();
      await queue.stop();
      await notifications.stop();
      await urlGuard.close();
      store.close?.();
      await database.close();
      await embedded?.stop();
    })());

  return { config, database, context, app, worker, url, stop };
}
