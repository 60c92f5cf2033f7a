// The brand_kits table: every SQL statement about kits is here.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { BrandKitsTable } from '../../platform/db/schema.ts';
import type {
  AutoValues,
  KitAuthorization,
  KitAutogenReport,
  KitDesign,
  KitFields,
  StoredLogo,
} from './brand-kit.ts';

/** A stored kit with its JSON columns typed. */
export interface KitRecord {
  id: string;
  account_id: string;
  brand_id: string;
  customer_id: string | null;
  website_url: string | null;
  domain: string | null;
  fields: KitFields;
  auto: AutoValues | null;
  caller_logo: StoredLogo | null;
  site_logo: StoredLogo | null;
  design: KitDesign;
  autogen: KitAutogenReport | null;
  crawled_at: Date | null;
  authorized_by: KitAuthorization;
  authorized_at: Date;
  revision: number;
  created_at: Date;
  updated_at: Date;
}

/** What a write sets: everything but the timestamps and the revision, which the database keeps. */
export type KitWrite = Omit<KitRecord, 'revision' | 'created_at' | 'updated_at'>;

/** PostgreSQL's unique_violation: another kit of the account already has this brand_id. */
export class BrandIdTakenError extends Error {
  constructor(readonly brandId: string) {
    super(`brand_id ${brandId} is taken`);
  }
}

function record(row: Selectable<BrandKitsTable>): KitRecord {
  return row as unknown as KitRecord;
}

function jsonColumns(kit: KitWrite) {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return {
    fields: JSON.stringify(kit.fields),
    auto: json(kit.auto),
    caller_logo: json(kit.caller_logo),
    site_logo: json(kit.site_logo),
    design: JSON.stringify(kit.design),
    autogen: json(kit.autogen),
    authorized_by: JSON.stringify(kit.authorized_by),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

export class KitRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Runs `body` in a transaction that holds the lock of one account's kits for one site and customer scope, so
   * "is there a kit for this site? if not, insert one" happens once when two requests build the same site.
   */
  async withSiteLock<T>(
    accountId: string,
    domain: string,
    customerId: string | null,
    body: (repo: KitRepository) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (tx) => {
      const lock = `brand-kit-site\n${accountId}\n${domain}\n${customerId ?? ''}`;
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))`.execute(tx);
      return body(new KitRepository(tx));
    });
  }

  async find(accountId: string, brandId: string): Promise<KitRecord | undefined> {
    const row = await this.db
      .selectFrom('brand_kits')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('brand_id', '=', brandId)
      .executeTakeFirst();
    return row && record(row);
  }

  /** The newest kit made from this domain for this customer scope (null: kits without a customer). */
  async findByDomain(
    accountId: string,
    domain: string,
    customerId: string | null,
  ): Promise<KitRecord | undefined> {
    const row = await this.db
      .selectFrom('brand_kits')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('domain', '=', domain)
      .where((eb) =>
        customerId === null ? eb('customer_id', 'is', null) : eb('customer_id', '=', customerId),
      )
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && record(row);
  }

  /** Newest first; `before` is the id of the last kit of the previous page. */
  async list(
    accountId: string,
    options: { limit: number; before?: string; customerId?: string },
  ): Promise<KitRecord[]> {
    let query = this.db.selectFrom('brand_kits').selectAll().where('account_id', '=', accountId);
    if (options.before !== undefined) query = query.where('id', '<', options.before);
    if (options.customerId !== undefined) query = query.where('customer_id', '=', options.customerId);
    const rows = await query.orderBy('id', 'desc').limit(options.limit).execute();
    return rows.map(record);
  }

  /** brand_ids of the account equal to `base` or starting with `base-`, to pick a free one. */
  async brandIdsLike(accountId: string, base: string): Promise<Set<string>> {
    const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`;
    const rows = await this.db
      .selectFrom('brand_kits')
      .select('brand_id')
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('brand_id', '=', base), eb('brand_id', 'like', pattern)]))
      .execute();
    return new Set(rows.map((row) => row.brand_id));
  }

  async insert(kit: KitWrite): Promise<KitRecord> {
    try {
      const row = await this.db
        .insertInto('brand_kits')
        .values({
          id: kit.id,
          account_id: kit.account_id,
          brand_id: kit.brand_id,
          customer_id: kit.customer_id,
          website_url: kit.website_url,
          domain: kit.domain,
          crawled_at: kit.crawled_at,
          authorized_at: kit.authorized_at,
          ...jsonColumns(kit),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return record(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new BrandIdTakenError(kit.brand_id);
      throw error;
    }
  }

  /** Saves a changed kit if nobody changed it since `revision` was read; undefined when somebody did. */
  async update(kit: KitWrite, revision: number): Promise<KitRecord | undefined> {
    const row = await this.db
      .updateTable('brand_kits')
      .set({
        customer_id: kit.customer_id,
        website_url: kit.website_url,
        domain: kit.domain,
        crawled_at: kit.crawled_at,
        authorized_at: kit.authorized_at,
        ...jsonColumns(kit),
        revision: sql<number>`revision + 1`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', kit.id)
      .where('account_id', '=', kit.account_id)
      .where('revision', '=', revision)
      .returningAll()
      .executeTakeFirst();
    return row && record(row);
  }

  async delete(accountId: string, brandId: string): Promise<KitRecord | undefined> {
    const row = await this.db
      .deleteFrom('brand_kits')
      .where('account_id', '=', accountId)
      .where('brand_id', '=', brandId)
      .returningAll()
      .executeTakeFirst();
    return row && record(row);
  }
}
