import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string | T, string | T>;

export interface AccountsTable {
  id: string;
  name: string;
  balance_cents: ColumnType<string, number | undefined, number>;
  webhook_secret: string;
  brand: Json | null;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  key_hash: string;
  sandbox: boolean;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface LedgerEntriesTable {
  id: Generated<string>;
  account_id: string;
  kind: 'top_up' | 'charge' | 'refund';
  amount_cents: ColumnType<string, number, never>;
  balance_after_cents: ColumnType<string, number, never>;
  job_id: string | null;
  reason: string;
  created_at: Timestamp;
}

export interface JobsTable {
  id: string;
  account_id: string;
  api_key_id: string | null;
  sandbox: boolean;
  mode: string;
  operation: string;
  endpoint: string;
  status: string;
  attempts: Generated<number>;
  heavy: boolean;
  request: Json;
  artifacts: ColumnType<Record<string, unknown>, string | undefined, string>;
  error: Json | null;
  price_cents: number;
  video_id: string;
  webhook_url: string | null;
  private_delivery: Generated<boolean>;
  /** 'private' or 'public' (spec 1 §4.2 `listing`; docs/studio.md). */
  listing: Generated<'private' | 'public'>;
  agent_run_id: string | null;
  batch_id: string | null;
  deadline_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  lease_expires_at: Timestamp | null;
  /** When MEDIA_RETENTION_DAYS deleted the job's files (migrations/0018_media_retention.sql). */
  media_deleted_at: Timestamp | null;
}

export interface JobEventsTable {
  id: Generated<string>;
  job_id: string;
  at: Timestamp;
  status: string;
  stage: string;
  message: string;
  percent: number;
  url: string | null;
}

export interface IdempotencyRecordsTable {
  account_id: string;
  key: string;
  endpoint: string;
  request_hash: string;
  state: 'pending' | 'done';
  status_code: number | null;
  response_body: Json | null;
  response_headers: Json<Record<string, string>> | null;
  job_ids: ColumnType<string[], string[] | undefined, string[]>;
  locked_until: Timestamp;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface RequestFingerprintsTable {
  account_id: string;
  fingerprint: string;
  state: 'pending' | 'accepted';
  status_code: number | null;
  response_body: Json | null;
  response_headers: Json<Record<string, string>> | null;
  job_ids: ColumnType<string[], string[] | undefined, string[]>;
  locked_until: Timestamp;
  accepted_at: Timestamp | null;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'superseded';

export interface WebhookDeliveriesTable {
  id: string;
  /** The event's id as the receiver sees it; a redelivery is another row with the same event_id. */
  event_id: string;
  account_id: string;
  job_id: string;
  url: string;
  /** The URL's origin: attempts in flight are capped per destination. */
  destination: string;
  event_type: string;
  payload: Json;
  state: Generated<WebhookDeliveryState>;
  attempts: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  /** Set while an attempt is in flight. */
  lease_expires_at: Timestamp | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  started_at: Timestamp;
  duration_ms: number;
  /** The receiver's HTTP status; null when it gave none (timeout, refused connection, refused URL). */
  status: number | null;
  error: string | null;
}

export interface RateCountersTable {
  bucket: string;
  window_start: Timestamp;
  count: number;
}

export interface StockClipsTable {
  id: string;
  title: string;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  niches: ColumnType<string[], string[] | undefined, string[]>;
  duration_sec: number | null;
  width: number | null;
  height: number | null;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  source: 'generated' | 'uploaded' | 'imported' | 'provider';
  status: 'ready' | 'pending';
  path: string | null;
  origin_url: string | null;
  external_id: string | null;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  /** The external library (or provider) external_id belongs to. */
  external_source: ColumnType<string | null, string | null | undefined, string | null>;
  /** Credit line owed to the footage's author, when the source asks for one. */
  attribution: ColumnType<string | null, string | null | undefined, string | null>;
  /** The operator account that added the clip (null for generated clips). */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why the last attempt to make a pending clip ready failed. */
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  usage_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A video-site video an account has clipped (channel mode skips it while its job holds it). */
export interface ClippedVideosTable {
  account_id: string;
  video_id: string;
  job_id: string;
  /** The channel it was picked from; null when the caller named the video itself. */
  channel_url: string | null;
  title: string | null;
  clipped_at: Timestamp;
}

/** A saved brand kit (spec 2 §2.4); its JSON columns are typed in src/brand/kits/brand-kit.ts. */
export interface BrandKitsTable {
  id: string;
  account_id: string;
  brand_id: string;
  customer_id: string | null;
  website_url: string | null;
  domain: string | null;
  fields: Json;
  auto: Json | null;
  caller_logo: Json | null;
  site_logo: Json | null;
  design: Json;
  autogen: Json | null;
  crawled_at: Timestamp | null;
  authorized_by: Json;
  authorized_at: Timestamp;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  settings: SettingsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  jobs: JobsTable;
  job_events: JobEventsTable;
  idempotency_records: IdempotencyRecordsTable;
  request_fingerprints: RequestFingerprintsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  rate_counters: RateCountersTable;
  stock_clips: StockClipsTable;
  clipped_videos: ClippedVideosTable;
  brand_kits: BrandKitsTable;
}

export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type AccountRow = Selectable<AccountsTable>;
