import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseFeedList, type FeedSpec } from '../signals/sources/feed-list.ts';
import type { S3Settings } from './storage/s3-media-store.ts';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');
const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
/** A URL setting; empty counts as unset. */
const optionalUrl = z.union([z.literal(''), z.url()]).optional();

/** The five publishing platforms by the real service each stands for, as their settings are named. */
export const PUBLISHING_PLATFORM_SETTINGS = {
  shortsite: 'TIKTOK',
  photosite: 'INSTAGRAM',
  vidsite_shorts: 'YOUTUBE',
  facesite_reels: 'FACEBOOK',
  microsite: 'X',
} as const;
type PublishingPlatform = keyof typeof PUBLISHING_PLATFORM_SETTINGS;

/** <SERVICE>_CLIENT_ID, _CLIENT_SECRET (the app that refreshes tokens) and _BASE_URL (tests, proxies) per platform. */
function platformSettings() {
  const shape: Record<string, typeof optionalUrl | z.ZodOptional<z.ZodString>> = {};
  for (const name of Object.values(PUBLISHING_PLATFORM_SETTINGS)) {
    shape[`${name}_CLIENT_ID`] = z.string().optional();
    shape[`${name}_CLIENT_SECRET`] = z.string().optional();
    shape[`${name}_BASE_URL`] = optionalUrl;
  }
  return shape;
}

const envSchema = z.object({
  PORT: int(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RUN_WORKER: flag.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().optional(),
  BODY_LIMIT_BYTES: int(1024 * 1024),
  JOB_MAX_LIFETIME_SECONDS: int(45 * 60),
  JOB_LEASE_SECONDS: int(15 * 60),
  JOB_RETRY_LIMIT: int(2),
  JOB_RETRY_DELAY_SECONDS: int(5),
  QUEUE_MAINTENANCE_SECONDS: int(15),
  QUEUE_POLL_SECONDS: z.coerce.number().min(0.5).default(0.5),
  JOB_READS_PER_MINUTE: int(60),
  METADATA_READS_PER_MINUTE: int(120),
  HEAVY_RENDERS_PER_ACCOUNT: int(5),
  WEBHOOK_TIMEOUT_MS: int(10_000),
  WEBHOOK_MAX_ATTEMPTS: int(12),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(16),
  WEBHOOK_DESTINATION_CONCURRENCY: z.coerce.number().int().positive().default(4),
  WEBHOOK_RETRY_DELAY_SCALE: z.coerce.number().positive().default(1),
  PROGRESS_HISTORY_SECONDS: int(3600),
  MEDIA_RETENTION_DAYS: int(30),
  MIN_FREE_DISK_MB: int(1024),
  SHUTDOWN_DRAIN_SECONDS: int(0),
  REELSMITH_ALLOW_LOOPBACK_URLS: flag,
  LIBRARY_DIR: z.string().optional(),
  LIBRARY_SEED: z.enum(['background', 'on_demand']).default('background'),
  LLM_BASE_URL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  SPEECH_BASE_URL: z.string().optional(),
  SPEECH_API_KEY: z.string().optional(),
  SPEECH_MODEL: z.string().optional(),
  TRANSCRIBE_BASE_URL: z.string().optional(),
  TRANSCRIBE_API_KEY: z.string().optional(),
  TRANSCRIBE_MODEL: z.string().optional(),
  RENDER_PRESET: z.string().default('veryfast'),
  PEXELS_API_KEY: z.string().optional(),
  PEXELS_BASE_URL: z.string().optional(),
  YTDLP_PATH: z.string().optional(),
  TRENDS_FEEDS: z.string().optional(),
  TRENDS_HN_BASE_URL: optionalUrl,
  TRENDS_GDELT_BASE_URL: optionalUrl,
  TRENDS_REDDIT_BASE_URL: optionalUrl,
  TRENDS_WIKIMEDIA_BASE_URL: optionalUrl,
  TRENDS_YOUTUBE_BASE_URL: optionalUrl,
  REDDIT_CLIENT_ID: z.string().optional(),
  REDDIT_CLIENT_SECRET: z.string().optional(),
  YOUTUBE_API_KEY: z.string().optional(),
  FAL_KEY: z.string().optional(),
  FAL_BASE_URL: optionalUrl,
  REPLICATE_API_TOKEN: z.string().optional(),
  REPLICATE_BASE_URL: optionalUrl,
  VIDEO_MODEL_MAPPING_FILE: z.string().optional(),
  AI_VIDEO_SHOT_TIMEOUT_SECONDS: int(900),
  AI_VIDEO_POLL_SECONDS: z.coerce.number().min(0.05).default(5),
  HEYGEN_API_KEY: z.string().optional(),
  HEYGEN_BASE_URL: optionalUrl,
  DID_API_KEY: z.string().optional(),
  DID_BASE_URL: optionalUrl,
  AVATAR_POLL_SECONDS: z.coerce.number().min(0.05).default(5),
  AVATAR_TIMEOUT_SECONDS: int(1200),
  AVATAR_READY_WAIT_SECONDS: z.coerce.number().min(0).default(15),
  MODERATION_BASE_URL: optionalUrl,
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().default('omni-moderation-latest'),
  IMAGE_MODEL_API_KEY: z.string().optional(),
  IMAGE_MODEL_BASE_URL: optionalUrl,
  IMAGE_MODEL: z.string().default('gpt-image-1'),
  WORDPRESS_BASE_URL: optionalUrl,
  WORDPRESS_USERNAME: z.string().optional(),
  WORDPRESS_APP_PASSWORD: z.string().optional(),
  DISCORD_WEBHOOK_URL: optionalUrl,
  PLATFORM_TOKEN_KEY: z.string().optional(),
  PLATFORM_REFRESH_SECONDS: int(300),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: optionalUrl,
  S3_PUBLIC_ENDPOINT: optionalUrl,
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,
  S3_PART_SIZE_MB: z.coerce.number().int().min(5).default(8),
  S3_CACHE_MAX_MB: int(4096),
  ...platformSettings(),
});

/** An OpenAI-compatible provider, switched on when all three settings are present. */
export interface ProviderSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

function provider(baseUrl?: string, apiKey?: string, model?: string): ProviderSettings | undefined {
  return baseUrl && apiKey && model ? { baseUrl, apiKey, model } : undefined;
}

export type Env = Record<string, string | undefined>;

/** The trend radar's sources (src/signals/sources/): which feeds, where each API lives, and the optional keys. */
export interface TrendSourceSettings {
  /** TRENDS_FEEDS, read and checked at start-up; undefined means the default list (default-feeds.ts). */
  feeds: FeedSpec[] | undefined;
  /** Overrides of each API's base URL, for tests and air-gapped mirrors; undefined means the public API. */
  baseUrls: { hackerNews?: string; gdelt?: string; reddit?: string; wikimedia?: string; youtube?: string };
  /** Reddit is read only with app credentials (both set). */
  reddit: { clientId: string; clientSecret: string } | undefined;
  /** YouTube's most-popular chart is read only with a Data API key. */
  youtubeApiKey: string | undefined;
}

/** The service's settings, read once at start-up from the environment and passed down explicitly. */
export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  mediaDir: string;
  databaseUrl: string | undefined;
  /** Unset: a new embedded cluster picks a free port and keeps it; joining processes read it from the cluster. */
  embeddedPgPort: number | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  runWorker: boolean;
  workerConcurrency: number;
  bodyLimitBytes: number;
  jobs: {
    maxLifetimeSeconds: number;
    leaseSeconds: number;
    retryLimit: number;
    retryDelaySeconds: number;
    maintenanceSeconds: number;
    pollSeconds: number;
  };
  limits: {
    jobReadsPerMinute: number;
    metadataReadsPerMinute: number;
    heavyRendersPerAccount: number;
  };
  webhooks: {
    timeoutMs: number;
    /** Attempts per delivery along the retry schedule (webhooks/retry-schedule.ts). */
    maxAttempts: number;
    /** Deliveries one process sends at once. */
    concurrency: number;
    /** Attempts in flight per destination (URL origin) across every process. */
    destinationConcurrency: number;
    /** Multiplies the retry schedule's delays; below 1 only to run the schedule in tests. */
    retryDelayScale: number;
  };
  progressHistorySeconds: number;
  /** Finished jobs' files and work folders are deleted this many days after the job ended; 0 keeps them. */
  mediaRetentionDays: number;
  /** Heavy jobs wait while DATA_DIR has less free space than this (MB); readiness fails below it too. */
  minFreeDiskMb: number;
  /** On SIGTERM, readiness answers 503 this long before the HTTP server stops accepting (load balancers notice). */
  shutdownDrainSeconds: number;
  allowLoopbackUrls: boolean;
  /** Generated and uploaded stock footage and music beds. */
  libraryDir: string;
  /** 'background': generate the whole catalogue after start; 'on_demand': only what a render needs. */
  librarySeed: 'background' | 'on_demand';
  llm: ProviderSettings | undefined;
  speech: ProviderSettings | undefined;
  /**
   * An OpenAI-compatible transcription service, switched on by its base URL alone: self-hosted servers often
   * need no key, and the model defaults to whisper-1. Without it, speech is recognized locally.
   */
  transcription: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  /** Stock footage from Pexels' video API, imported per scene when a key is set. */
  pexels: { apiKey: string; baseUrl?: string } | undefined;
  /** Hosted video-model providers for AI video (each on when its key is set) and how shots are followed. */
  videoModels: {
    fal: { apiKey: string; baseUrl?: string } | undefined;
    replicate: { apiToken: string; baseUrl?: string } | undefined;
    /** An operator's mapping of neutral model ids to provider models; the shipped default when unset. */
    mappingFile: string | undefined;
    shotTimeoutSeconds: number;
    pollSeconds: number;
  };
  /** Hosted talking-photo engines for presenters (avatar_iv: HeyGen, avatar_v: D-ID), each on when its key is set. */
  avatars: {
    heygen: { apiKey: string; baseUrl?: string } | undefined;
    did: { apiKey: string; baseUrl?: string } | undefined;
    pollSeconds: number;
    timeoutSeconds: number;
    /** How long POST /avatars waits for the likeness before answering 202 processing. */
    readyWaitSeconds: number;
  };
  /** A moderation API (OpenAI's /v1/moderations) checked after the local content policy, when its key is set. */
  moderation: { baseUrl: string; apiKey: string; model: string } | undefined;
  /** An OpenAI Images API (POST {baseUrl}/v1/images/generations) for generated B-roll stills, when its key is set. */
  imageModel: { baseUrl: string; apiKey: string; model: string } | undefined;
  /** Posting to the five platforms (docs/publishing.md). */
  publishing: {
    /** Seals platform tokens at rest; without it no connection can be made, and a database holding some refuses to start. */
    tokenKey: string | undefined;
    /** How often a worker refreshes tokens that expire within the next hour. */
    refreshSeconds: number;
    platforms: Record<
      PublishingPlatform,
      { baseUrl?: string; app?: { clientId: string; clientSecret: string } }
    >;
  };
  /** Where POST /articles publishes (autoPublish) and notifies (notifyDiscord), each on when configured. */
  articles: {
    /** A WordPress site's REST API, signed in with an application password. */
    wordpress: { baseUrl: string; username: string; appPassword: string } | undefined;
    discordWebhookUrl: string | undefined;
  };
  renderPreset: string;
  /** yt-dlp binary for video-site sources (clip mode); looked up on PATH when unset. */
  ytdlpPath: string | undefined;
  trends: TrendSourceSettings;
  /** An S3-compatible bucket holding every stored file (docs/deploy.md "Object store"); unset: files stay under DATA_DIR/media. */
  s3: S3Settings | undefined;
}

export function loadConfig(env: Env = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const trends = trendSourceSettings(e);
  const dataDir = resolve(e.DATA_DIR);
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    mediaDir: resolve(dataDir, 'media'),
    databaseUrl: e.DATABASE_URL || undefined,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    logLevel: e.LOG_LEVEL,
    runWorker: e.RUN_WORKER,
    workerConcurrency: e.WORKER_CONCURRENCY ?? Math.max(1, availableParallelism()),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    jobs: {
      maxLifetimeSeconds: e.JOB_MAX_LIFETIME_SECONDS,
      leaseSeconds: e.JOB_LEASE_SECONDS,
      retryLimit: e.JOB_RETRY_LIMIT,
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS,
      maintenanceSeconds: Math.max(1, e.QUEUE_MAINTENANCE_SECONDS),
      pollSeconds: e.QUEUE_POLL_SECONDS,
    },
    limits: {
      jobReadsPerMinute: e.JOB_READS_PER_MINUTE,
      metadataReadsPerMinute: e.METADATA_READS_PER_MINUTE,
      heavyRendersPerAccount: e.HEAVY_RENDERS_PER_ACCOUNT,
    },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      destinationConcurrency: e.WEBHOOK_DESTINATION_CONCURRENCY,
      retryDelayScale: e.WEBHOOK_RETRY_DELAY_SCALE,
    },
    progressHistorySeconds: e.PROGRESS_HISTORY_SECONDS,
    mediaRetentionDays: e.MEDIA_RETENTION_DAYS,
    minFreeDiskMb: e.MIN_FREE_DISK_MB,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    allowLoopbackUrls: e.REELSMITH_ALLOW_LOOPBACK_URLS,
    libraryDir: resolve(e.LIBRARY_DIR ?? resolve(dataDir, 'library')),
    librarySeed: e.LIBRARY_SEED,
    llm: provider(e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL),
    speech: provider(e.SPEECH_BASE_URL, e.SPEECH_API_KEY, e.SPEECH_MODEL),
    transcription: e.TRANSCRIBE_BASE_URL
      ? {
          baseUrl: e.TRANSCRIBE_BASE_URL,
          apiKey: e.TRANSCRIBE_API_KEY || undefined,
          model: e.TRANSCRIBE_MODEL || 'whisper-1',
        }
      : undefined,
    renderPreset: e.RENDER_PRESET,
    ytdlpPath: e.YTDLP_PATH || undefined,
    videoModels: {
      fal: e.FAL_KEY
        ? { apiKey: e.FAL_KEY, ...(e.FAL_BASE_URL ? { baseUrl: e.FAL_BASE_URL } : {}) }
        : undefined,
      replicate: e.REPLICATE_API_TOKEN
        ? {
            apiToken: e.REPLICATE_API_TOKEN,
            ...(e.REPLICATE_BASE_URL ? { baseUrl: e.REPLICATE_BASE_URL } : {}),
          }
        : undefined,
      mappingFile: e.VIDEO_MODEL_MAPPING_FILE,
      shotTimeoutSeconds: e.AI_VIDEO_SHOT_TIMEOUT_SECONDS,
      pollSeconds: e.AI_VIDEO_POLL_SECONDS,
    },
    avatars: {
      heygen: e.HEYGEN_API_KEY
        ? {
            apiKey: e.HEYGEN_API_KEY,
            ...(e.HEYGEN_BASE_URL ? { baseUrl: e.HEYGEN_BASE_URL } : {}),
          }
        : undefined,
      did: e.DID_API_KEY
        ? { apiKey: e.DID_API_KEY, ...(e.DID_BASE_URL ? { baseUrl: e.DID_BASE_URL } : {}) }
        : undefined,
      pollSeconds: e.AVATAR_POLL_SECONDS,
      timeoutSeconds: e.AVATAR_TIMEOUT_SECONDS,
      readyWaitSeconds: e.AVATAR_READY_WAIT_SECONDS,
    },
    moderation: e.MODERATION_API_KEY
      ? {
          baseUrl: e.MODERATION_BASE_URL ?? 'https://api.openai.com/v1',
          apiKey: e.MODERATION_API_KEY,
          model: e.MODERATION_MODEL,
        }
      : undefined,
    imageModel: e.IMAGE_MODEL_API_KEY
      ? {
          baseUrl: e.IMAGE_MODEL_BASE_URL || 'https://api.openai.com',
          apiKey: e.IMAGE_MODEL_API_KEY,
          model: e.IMAGE_MODEL,
        }
      : undefined,
    publishing: {
      tokenKey: e.PLATFORM_TOKEN_KEY || undefined,
      refreshSeconds: e.PLATFORM_REFRESH_SECONDS,
      platforms: publishingPlatforms(e),
    },
    articles: {
      wordpress: wordpressSettings(e),
      discordWebhookUrl: e.DISCORD_WEBHOOK_URL || undefined,
    },
    pexels: e.PEXELS_API_KEY
      ? { apiKey: e.PEXELS_API_KEY, ...(e.PEXELS_BASE_URL ? { baseUrl: e.PEXELS_BASE_URL } : {}) }
      : undefined,
    trends,
    s3: s3Settings(e),
  };
}

function publishingPlatforms(e: Record<string, unknown>): Config['publishing']['platforms'] {
  const out = {} as Config['publishing']['platforms'];
  for (const [platform, name] of Object.entries(PUBLISHING_PLATFORM_SETTINGS)) {
    const read = (suffix: string) => (e[`${name}_${suffix}`] as string | undefined) || undefined;
    const clientId = read('CLIENT_ID');
    const clientSecret = read('CLIENT_SECRET');
    if (Boolean(clientId) !== Boolean(clientSecret))
      throw new Error(
        `Invalid configuration: ${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`,
      );
    const baseUrl = read('BASE_URL');
    out[platform as PublishingPlatform] = {
      ...(baseUrl ? { baseUrl } : {}),
      ...(clientId && clientSecret ? { app: { clientId, clientSecret } } : {}),
    };
  }
  return out;
}

function s3Settings(e: z.infer<typeof envSchema>): S3Settings | undefined {
  const keyId = e.S3_ACCESS_KEY_ID || undefined;
  const secret = e.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(keyId) !== Boolean(secret))
    throw new Error('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  if (!e.S3_BUCKET) {
    if (e.S3_ENDPOINT || keyId)
      throw new Error('Invalid configuration: S3_BUCKET is required with S3_* settings');
    return undefined;
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT || undefined,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT || undefined,
    region: e.S3_REGION || 'us-east-1',
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    partSizeBytes: e.S3_PART_SIZE_MB * 1024 * 1024,
    cacheMaxBytes: e.S3_CACHE_MAX_MB * 1024 * 1024,
  };
}

function wordpressSettings(e: z.infer<typeof envSchema>): Config['articles']['wordpress'] {
  const set = [e.WORDPRESS_BASE_URL, e.WORDPRESS_USERNAME, e.WORDPRESS_APP_PASSWORD].filter(Boolean).length;
  if (set === 0) return undefined;
  if (set < 3)
    throw new Error(
      'Invalid configuration: WORDPRESS_BASE_URL, WORDPRESS_USERNAME and WORDPRESS_APP_PASSWORD must be set together',
    );
  return {
    baseUrl: e.WORDPRESS_BASE_URL!,
    username: e.WORDPRESS_USERNAME!,
    appPassword: e.WORDPRESS_APP_PASSWORD!,
  };
}

function trendSourceSettings(e: z.infer<typeof envSchema>): TrendSourceSettings {
  let feeds: FeedSpec[] | undefined;
  try {
    feeds = e.TRENDS_FEEDS?.trim() ? parseFeedList(e.TRENDS_FEEDS) : undefined;
  } catch (err) {
    throw new Error(`Invalid configuration: ${(err as Error).message}`, { cause: err });
  }
  const clientId = e.REDDIT_CLIENT_ID || undefined;
  const clientSecret = e.REDDIT_CLIENT_SECRET || undefined;
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    throw new Error('Invalid configuration: REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET must be set together');
  }
  const baseUrls: TrendSourceSettings['baseUrls'] = {};
  if (e.TRENDS_HN_BASE_URL) baseUrls.hackerNews = e.TRENDS_HN_BASE_URL;
  if (e.TRENDS_GDELT_BASE_URL) baseUrls.gdelt = e.TRENDS_GDELT_BASE_URL;
  if (e.TRENDS_REDDIT_BASE_URL) baseUrls.reddit = e.TRENDS_REDDIT_BASE_URL;
  if (e.TRENDS_WIKIMEDIA_BASE_URL) baseUrls.wikimedia = e.TRENDS_WIKIMEDIA_BASE_URL;
  if (e.TRENDS_YOUTUBE_BASE_URL) baseUrls.youtube = e.TRENDS_YOUTUBE_BASE_URL;
  return {
    feeds,
    baseUrls,
    reddit: clientId && clientSecret ? { clientId, clientSecret } : undefined,
    youtubeApiKey: e.YOUTUBE_API_KEY || undefined,
  };
}

/** Every environment variable the service reads (README's configuration table documents each one). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);
