// Brand analyses and the crawls they were made from (migrations/0008_brand_analyses.sql). All SQL of brand
// analysis lives here.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { sql, type ColumnType, type Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';
import type { Executor } from '../../platform/db/database.ts';
import { randomToken } from '../../platform/ids.ts';
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import type { LogoMeasurements } from '../logo/normalized-logo.ts';
import type { BrandProfile } from '../profile/brand-profile.ts';
import type { LogoAttempt } from './first-usable-logo.ts';
import type { ProfileOverrides } from './profile-overrides.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Re-analysing a URL within this many days answers from the stored crawl (spec 2 §4.2). */
export const WARM_CRAWL_DAYS = 7;

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** The logo a crawl yielded, as stored beside it: enough to answer a warm analysis without fetching it again. */
export interface StoredLogo {
  source_url: string | null;
  source: string;
  measurements: LogoMeasurements;
  colors: string[];
}

// Type aliases, not interfaces: Kysely's withTables needs index-compatible table types.
type BrandCrawlsTable = {
  id: string;
  account_id: string;
  url: string;
  /** The SiteCrawl as gzip-compressed JSON: pages are kept whole, and page text may hold NUL characters. */
  crawl: Buffer;
  logo_key: string | null;
  logo: Json<StoredLogo> | null;
  logo_attempts: ColumnType<LogoAttempt[], string, string>;
  crawled_at: Timestamp;
};

type BrandAnalysesTable = {
  id: string;
  account_id: string;
  job_id: string;
  url: string;
  previous_brand_id: string | null;
  crawl_id: string | null;
  warm: ColumnType<boolean, boolean | undefined, boolean>;
  profile: Json<BrandProfile> | null;
  overrides: ColumnType<ProfileOverrides, string | undefined, string>;
  analyzed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

type BrandTables = {
  brand_crawls: BrandCrawlsTable;
  brand_analyses: BrandAnalysesTable;
};

function brandDb(db: Executor): Kysely<Database & BrandTables> {
  // A transaction's withTables is a transaction too; the cast only widens the union for the call.
  return (db as Kysely<Database>).withTables<BrandTables>();
}

/** One analysis as the routes show it: its row, its job's status and error, and the crawl it was made from. */
export interface AnalysisRecord {
  id: string;
  accountId: string;
  jobId: string;
  url: string;
  previousBrandId: string | null;
  warm: boolean;
  profile: BrandProfile | null;
  overrides: ProfileOverrides;
  analyzedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  jobStatus: string;
  jobError: unknown;
  crawledAt: Date | null;
  logoKey: string | null;
  logo: StoredLogo | null;
  logoAttempts: LogoAttempt[];
}

/**
 * Writes the analysis row of a job being accepted, carrying the overrides of the analysis it follows: fields
 * the caller set by hand are never reverted by re-analysis.
 */
export async function insertAnalysis(
  tx: Executor,
  row: { id: string; accountId: string; jobId: string; url: string; previousBrandId: string | null },
): Promise<void> {
  const overrides = sql<string>`coalesce((
    SELECT p.overrides FROM brand_analyses p WHERE p.id = ${row.previousBrandId} AND p.account_id = ${row.accountId}
  ), '{}'::jsonb)`;
  await brandDb(tx)
    .insertInto('brand_analyses')
    .values({
      id: row.id,
      account_id: row.accountId,
      job_id: row.jobId,
      url: row.url,
      previous_brand_id: row.previousBrandId,
      overrides,
    })
    .execute();
}

/** The account's latest analysis of `url` that ended ready, and whether its crawl is fresh enough to reuse. */
export async function findPreviousAnalysis(
  db: Executor,
  accountId: string,
  url: string,
): Promise<{ id: string; crawlId: string | null; warm: boolean } | undefined> {
  const row = await brandDb(db)
    .selectFrom('brand_analyses as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('brand_crawls as c', 'c.id', 'a.crawl_id')
    .select([
      'a.id',
      'a.crawl_id',
      sql<boolean>`coalesce(c.crawled_at > now() - make_interval(days => ${WARM_CRAWL_DAYS}), false)`.as(
        'fresh',
      ),
    ])
    .where('a.account_id', '=', accountId)
    .where('a.url', '=', url)
    .where('j.status', '=', 'completed')
    .orderBy('a.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { id: row.id, crawlId: row.crawl_id, warm: row.fresh && row.crawl_id !== null };
}

/** A stored crawl of this account, while it is fresh enough to answer a warm analysis. */
export async function findFreshCrawl(
  db: Executor,
  accountId: string,
  crawlId: string,
): Promise<{ id: string; crawl: SiteCrawl; logoKey: string | null; logo: StoredLogo | null } | undefined> {
  const row = await brandDb(db)
    .selectFrom('brand_crawls')
    .select(['id', 'crawl', 'logo_key', 'logo'])
    .where('id', '=', crawlId)
    .where('account_id', '=', accountId)
    .where(sql<boolean>`crawled_at > now() - make_interval(days => ${WARM_CRAWL_DAYS})`)
    .executeTakeFirst();
  if (!row) return undefined;
  const crawl = JSON.parse((await gunzipAsync(row.crawl)).toString('utf8')) as SiteCrawl;
  return { id: row.id, crawl, logoKey: row.logo_key, logo: row.logo };
}

export async function insertCrawl(
  db: Executor,
  row: {
    accountId: string;
    url: string;
    crawl: SiteCrawl;
    logoKey: string | null;
    logo: StoredLogo | null;
    logoAttempts: LogoAttempt[];
  },
): Promise<string> {
  const id = `crawl_${randomToken(20)}`;
  await brandDb(db)
    .insertInto('brand_crawls')
    .values({
      id,
      account_id: row.accountId,
      url: row.url,
      crawl: await gzipAsync(JSON.stringify(row.crawl)),
      logo_key: row.logoKey,
      logo: row.logo === null ? null : JSON.stringify(row.logo),
      logo_attempts: JSON.stringify(row.logoAttempts),
    })
    .execute();
  return id;
}

/** Records what the analysis found; shown once its job has completed. Answers the overrides in force. */
export async function saveAnalysisResult(
  db: Executor,
  brandId: string,
  result: { crawlId: string; warm: boolean; profile: BrandProfile },
): Promise<ProfileOverrides> {
  const row = await brandDb(db)
    .updateTable('brand_analyses')
    .set({
      crawl_id: result.crawlId,
      warm: result.warm,
      profile: JSON.stringify(result.profile),
      analyzed_at: new Date(),
      updated_at: new Date(),
    })
    .where('id', '=', brandId)
    .returning('overrides')
    .executeTakeFirstOrThrow();
  return row.overrides;
}

export async function findAnalysis(
  db: Executor,
  accountId: string,
  brandId: string,
): Promise<AnalysisRecord | undefined> {
  const row = await brandDb(db)
    .selectFrom('brand_analyses as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .leftJoin('brand_crawls as c', 'c.id', 'a.crawl_id')
    .select([
      'a.id',
      'a.account_id',
      'a.job_id',
      'a.url',
      'a.previous_brand_id',
      'a.warm',
      'a.profile',
      'a.overrides',
      'a.analyzed_at',
      'a.created_at',
      'a.updated_at',
      'j.status as job_status',
      'j.error as job_error',
      'c.crawled_at',
      'c.logo_key',
      'c.logo',
      'c.logo_attempts',
    ])
    .where('a.id', '=', brandId)
    .where('a.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.account_id,
    jobId: row.job_id,
    url: row.url,
    previousBrandId: row.previous_brand_id,
    warm: row.warm,
    profile: row.profile,
    overrides: row.overrides,
    analyzedAt: row.analyzed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    jobStatus: row.job_status,
    jobError: row.job_error,
    crawledAt: row.crawled_at,
    logoKey: row.logo_key,
    logo: row.logo,
    logoAttempts: row.logo_attempts ?? [],
  };
}

/**
 * Changes an analysis' overrides under a row lock, so two PATCHes of one brand both land. `change` gets the
 * current overrides and answers the new ones. Answers false when the brand is not this account's.
 */
export async function updateOverrides(
  db: Kysely<Database>,
  accountId: string,
  brandId: string,
  change: (current: ProfileOverrides) => ProfileOverrides,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const bdb = brandDb(tx);
    const row = await bdb
      .selectFrom('brand_analyses')
      .select('overrides')
      .where('id', '=', brandId)
      .where('account_id', '=', accountId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!row) return false;
    await bdb
      .updateTable('brand_analyses')
      .set({ overrides: JSON.stringify(change(row.overrides)), updated_at: new Date() })
      .where('id', '=', brandId)
      .execute();
    return true;
  });
}
