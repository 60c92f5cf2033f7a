// Personas and their looks (migrations/0012_personas.sql). All SQL of personas lives here.
import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { Box, Face } from '../../media/vision/index.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type PersonaStatus = 'processing' | 'ready' | 'failed';

/** Why a persona could not be created, as its poll shows it. */
export interface PersonaFailure {
  code: string;
  message: string;
  details?: unknown;
  refunded_usd_cents: number;
}

// Type aliases, not interfaces: Kysely's withTables needs index-compatible table types.
type PersonasTable = {
  id: string;
  account_id: string;
  name: string;
  status: PersonaStatus;
  supported_engines: string[];
  price_cents: number;
  failure: Json<PersonaFailure> | null;
  lease_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
};

type Rotation = { roll: number; yaw: number; pitch: number };

type PersonaLooksTable = {
  id: string;
  persona_id: string;
  name: string | null;
  is_primary: boolean;
  photo_key: string;
  photo_width: number;
  photo_height: number;
  person_mask_key: string | null;
  face_box: Json<Box>;
  face_score: number;
  mouth_box: Json<Box>;
  left_eye_box: Json<Box>;
  right_eye_box: Json<Box>;
  rotation: Json<Rotation> | null;
  landmarks: number[];
  descriptor: number[];
  age: number | null;
  gender: 'female' | 'male' | null;
  gender_score: number | null;
  created_at: Timestamp;
};

type PersonaTables = {
  personas: PersonasTable;
  persona_looks: PersonaLooksTable;
};

function personaDb(db: Executor): Kysely<Database & PersonaTables> {
  // A transaction's withTables is a transaction too; the cast only widens the union for the call.
  return (db as Kysely<Database>).withTables<PersonaTables>();
}

export interface PersonaRecord {
  id: string;
  accountId: string;
  name: string;
  status: PersonaStatus;
  supportedEngines: string[];
  priceCents: number;
  failure: PersonaFailure | null;
  createdAt: Date;
}

export interface LookRecord {
  id: string;
  personaId: string;
  name: string | null;
  primary: boolean;
  photoKey: string;
  photoWidth: number;
  photoHeight: number;
  personMaskKey: string | null;
  face: Face;
  createdAt: Date;
}

/** A look to store: its files' keys and the face found in its photo. */
export interface NewLook {
  id: string;
  personaId: string;
  name: string | null;
  primary: boolean;
  photoKey: string;
  photoWidth: number;
  photoHeight: number;
  personMaskKey: string | null;
  face: Face;
}

const PERSONA_COLUMNS = [
  'id',
  'account_id',
  'name',
  'status',
  'supported_engines',
  'price_cents',
  'failure',
  'created_at',
] as const;

function toPersona(row: {
  id: string;
  account_id: string;
  name: string;
  status: PersonaStatus;
  supported_engines: string[];
  price_cents: number;
  failure: PersonaFailure | null;
  created_at: Date;
}): PersonaRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    status: row.status,
    supportedEngines: row.supported_engines,
    priceCents: row.price_cents,
    failure: row.failure,
    createdAt: row.created_at,
  };
}

const LANDMARK_VALUES = 3;

function toLook(row: Selectable<PersonaLooksTable>): LookRecord {
  const landmarks: [number, number, number][] = [];
  for (let i = 0; i + 2 < row.landmarks.length; i += LANDMARK_VALUES)
    landmarks.push([row.landmarks[i]!, row.landmarks[i + 1]!, row.landmarks[i + 2]!]);
  const face: Face = {
    box: row.face_box,
    score: row.face_score,
    landmarks,
    descriptor: Float32Array.from(row.descriptor),
    mouth: row.mouth_box,
    leftEye: row.left_eye_box,
    rightEye: row.right_eye_box,
    rotation: row.rotation,
    ...(row.age !== null ? { age: row.age } : {}),
    ...(row.gender !== null ? { gender: row.gender, genderScore: row.gender_score ?? 0 } : {}),
  };
  return {
    id: row.id,
    personaId: row.persona_id,
    name: row.name,
    primary: row.is_primary,
    photoKey: row.photo_key,
    photoWidth: row.photo_width,
    photoHeight: row.photo_height,
    personMaskKey: row.person_mask_key,
    face,
    createdAt: row.created_at,
  };
}

/** A new persona, processing under a lease of `leaseSeconds` held by the caller's process. */
export async function insertPersona(
  tx: Executor,
  row: { id: string; accountId: string; name: string; supportedEngines: string[]; priceCents: number },
  leaseSeconds: number,
): Promise<PersonaRecord> {
  const inserted = await personaDb(tx)
    .insertInto('personas')
    .values({
      id: row.id,
      account_id: row.accountId,
      name: row.name,
      status: 'processing',
      supported_engines: row.supportedEngines,
      price_cents: row.priceCents,
      lease_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .returning(PERSONA_COLUMNS)
    .executeTakeFirstOrThrow();
  return toPersona(inserted);
}

/** Extends a processing persona's lease; false once it is no longer processing. */
export async function renewLease(db: Executor, personaId: string, leaseSeconds: number): Promise<boolean> {
  const renewed = await personaDb(db)
    .updateTable('personas')
    .set({ lease_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where('id', '=', personaId)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return renewed !== undefined;
}

export async function insertLook(tx: Executor, look: NewLook): Promise<Date> {
  const { face } = look;
  const row = await personaDb(tx)
    .insertInto('persona_looks')
    .values({
      id: look.id,
      persona_id: look.personaId,
      name: look.name,
      is_primary: look.primary,
      photo_key: look.photoKey,
      photo_width: look.photoWidth,
      photo_height: look.photoHeight,
      person_mask_key: look.personMaskKey,
      face_box: JSON.stringify(face.box),
      face_score: face.score,
      mouth_box: JSON.stringify(face.mouth),
      left_eye_box: JSON.stringify(face.leftEye),
      right_eye_box: JSON.stringify(face.rightEye),
      rotation: face.rotation ? JSON.stringify(face.rotation) : null,
      landmarks: face.landmarks.flat(),
      descriptor: Array.from(face.descriptor),
      age: face.age ?? null,
      gender: face.gender ?? null,
      gender_score: face.gender !== undefined ? (face.genderScore ?? 0) : null,
    })
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return row.created_at;
}

/**
 * Makes a processing persona ready with its primary look. False when it is no longer processing (its lease
 * lapsed and it was failed and refunded) or was deleted meanwhile: then nothing is written.
 */
export async function completePersona(tx: Executor, look: NewLook): Promise<boolean> {
  const updated = await personaDb(tx)
    .updateTable('personas')
    .set({ status: 'ready', lease_until: null, updated_at: new Date() })
    .where('id', '=', look.personaId)
    .where('status', '=', 'processing')
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!updated) return false;
  await insertLook(tx, look);
  return true;
}

/**
 * Fails a processing persona (once: a persona failed already is left alone), its failure recording the refund
 * of its whole charge. Answers whom to refund, or undefined when it was not processing.
 */
export async function failPersona(
  tx: Executor,
  personaId: string,
  failure: Omit<PersonaFailure, 'refunded_usd_cents'>,
): Promise<{ accountId: string; priceCents: number } | undefined> {
  const row = await personaDb(tx)
    .updateTable('personas')
    .set({
      status: 'failed',
      failure: sql<string>`${JSON.stringify(failure)}::jsonb || jsonb_build_object('refunded_usd_cents', price_cents)`,
      lease_until: null,
      updated_at: new Date(),
    })
    .where('id', '=', personaId)
    .where('status', '=', 'processing')
    .returning(['account_id', 'price_cents'])
    .executeTakeFirst();
  return row ? { accountId: row.account_id, priceCents: row.price_cents } : undefined;
}

/** Processing personas whose lease lapsed (their process died), locked for the caller's transaction. */
export async function lapsedPersonas(tx: Executor, limit: number): Promise<string[]> {
  const rows = await personaDb(tx)
    .selectFrom('personas')
    .select('id')
    .where('status', '=', 'processing')
    .where('lease_until', '<', sql<Date>`now()`)
    .orderBy('lease_until')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((r) => r.id);
}

/** Removes a persona whose creation failed while its caller waited: the caller never learnt its id. */
export async function removeFailedPersona(db: Executor, personaId: string): Promise<void> {
  await personaDb(db)
    .deleteFrom('personas')
    .where('id', '=', personaId)
    .where('status', '=', 'failed')
    .execute();
}

export async function findPersona(
  db: Executor,
  accountId: string,
  personaId: string,
): Promise<PersonaRecord | undefined> {
  const row = await personaDb(db)
    .selectFrom('personas')
    .select(PERSONA_COLUMNS)
    .where('id', '=', personaId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toPersona(row) : undefined;
}

/** An account's personas, newest first; `after` is the last persona of the previous page. */
export async function listPersonas(
  db: Executor,
  accountId: string,
  options: { limit: number; after?: string },
): Promise<PersonaRecord[]> {
  let query = personaDb(db)
    .selectFrom('personas as p')
    .select(PERSONA_COLUMNS.map((c) => `p.${c}` as const))
    .where('p.account_id', '=', accountId)
    .where('p.deleted_at', 'is', null);
  if (options.after !== undefined) {
    const after = options.after;
    query = query.where(
      sql<boolean>`(p.created_at, p.id) < (SELECT c.created_at, c.id FROM personas c WHERE c.id = ${after} AND c.account_id = ${accountId})`,
    );
  }
  const rows = await query
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(options.limit)
    .execute();
  return rows.map(toPersona);
}

/** A persona's looks, the primary first, then oldest first. */
export async function listLooks(db: Executor, personaId: string): Promise<LookRecord[]> {
  const rows = await personaDb(db)
    .selectFrom('persona_looks')
    .selectAll()
    .where('persona_id', '=', personaId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toLook);
}

/** One look of a persona: `lookId`, or the primary one. */
export async function findLook(
  db: Executor,
  personaId: string,
  lookId?: string,
): Promise<LookRecord | undefined> {
  let query = personaDb(db).selectFrom('persona_looks').selectAll().where('persona_id', '=', personaId);
  query = lookId === undefined ? query.where('is_primary', '=', true) : query.where('id', '=', lookId);
  const row = await query.executeTakeFirst();
  return row ? toLook(row) : undefined;
}

/** Locks a ready persona of the account for adding a look; answers its look count, or why not. */
export async function lockPersonaForLook(
  tx: Executor,
  accountId: string,
  personaId: string,
): Promise<{ status: PersonaStatus; looks: number } | undefined> {
  const row = await personaDb(tx)
    .selectFrom('personas as p')
    .select([
      'p.status',
      sql<number>`(SELECT count(*) FROM persona_looks l WHERE l.persona_id = p.id)::int`.as('looks'),
    ])
    .where('p.id', '=', personaId)
    .where('p.account_id', '=', accountId)
    .where('p.deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row ? { status: row.status, looks: row.looks } : undefined;
}

/**
 * Marks a persona deleted and removes its looks (the likeness data). Answers its status before, or
 * undefined when the account has no such persona; a processing persona is left as it is.
 */
export async function deletePersona(
  tx: Executor,
  accountId: string,
  personaId: string,
): Promise<PersonaStatus | undefined> {
  const pdb = personaDb(tx);
  const row = await pdb
    .selectFrom('personas')
    .select('status')
    .where('id', '=', personaId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.status === 'processing') return row?.status;
  await pdb.deleteFrom('persona_looks').where('persona_id', '=', personaId).execute();
  await pdb
    .updateTable('personas')
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where('id', '=', personaId)
    .execute();
  return row.status;
}
