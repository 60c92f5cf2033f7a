// Personas (spec 1 §2.6, §3.2, §4.6; docs/presenters.md): POST /avatars charges $2.65 and builds the likeness
// from one photo; the answer is 201 ready when that finishes within `readyWaitMs`, else 202 processing while
// it finishes in the background. A creation that fails after the charge is refunded exactly once: the persona
// leaves `processing` once (a conditional update) and its refund is keyed by the persona id. A persona whose
// process died keeps a lease that lapses; `sweep` (at start and every lease period) fails and refunds it.
// Looks are free: further photos of the same person, checked by descriptor distance to the primary look.
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { faceDistance, SAME_PERSON_DISTANCE } from '../../media/vision/index.ts';
import type { Config } from '../../platform/config.ts';
import type { Db, Tx } from '../../platform/db/database.ts';
import { successBody } from '../../platform/envelope.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';
import { chargeHeaders, errorAnswer, type Answer, type Caller } from '../../platform/generation/submit.ts';
import { validateIdempotencyKey, type Idempotency } from '../../platform/idempotency/idempotency.ts';
import { randomToken } from '../../platform/ids.ts';
import { LINK_TTL_SECONDS } from '../../platform/jobs/job-presenter.ts';
import { newStagingDir } from '../../platform/jobs/work-dirs.ts';
import { balanceOf, charge, refundJob } from '../../platform/ledger/ledger.ts';
import type { Price, RenderEstimate } from '../../platform/modes/mode.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { displayUsd, PRICE_TABLE } from '../../platform/pricing/price-table.ts';
import type { PresenterEngine } from '../../platform/pricing/presenter-price.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import {
  analysePhoto,
  fetchPhoto,
  normalisePhoto,
  PhotoRefusedError,
  storeLikeness,
  type FetchedPhoto,
} from './likeness.ts';
import {
  addLookSchema,
  createPersonaSchema,
  listPersonasQuerySchema,
  type CreatePersonaInput,
} from './persona-input.ts';
import {
  completePersona,
  deletePersona,
  failPersona,
  findLook,
  findPersona,
  insertLook,
  insertPersona,
  lapsedPersonas,
  listLooks,
  listPersonas,
  lockPersonaForLook,
  removeFailedPersona,
  renewLease,
  type LookRecord,
  type PersonaFailure,
  type PersonaRecord,
} from './persona-repo.ts';

/** The local talking-head engine: every persona supports it. */
export const LOCAL_AVATAR_ENGINE = 'avatar_iii' satisfies PresenterEngine;
export type ProviderAvatarEngine = Exclude<PresenterEngine, typeof LOCAL_AVATAR_ENGINE>;

export const AVATARS_PATH = '/api/v1/avatars';
const OPERATION = 'avatar_creation';
const REFUND_REASON = 'avatar_creation failed';
const DEFAULT_READY_WAIT_MS = 15_000;
const DEFAULT_LEASE_SECONDS = 60;
/** Looks a persona keeps, the primary included: each is a stored photo and mask. */
export const MAX_LOOKS = 10;
const SWEEP_BATCH = 20;
/**
 * Measured on two busy cores: face analysis and segmentation take 0.3–0.4 s for an 850–2048 px photo (0.9 s
 * for the first one, which loads the models), a photo with no face up to 1.1 s (a second, finer search);
 * fetching and storing add little. More when other photos queue for the one vision runtime.
 */
const CREATION_ESTIMATE: RenderEstimate = { min: 1, typical: 3, max: 60 };

const INTERRUPTED: Omit<PersonaFailure, 'refunded_usd_cents'> = {
  code: 'AVATAR_CREATION_INTERRUPTED',
  message: 'The service stopped while this persona was being created. It was refunded; create it again.',
};
const INTERNAL: Omit<PersonaFailure, 'refunded_usd_cents'> = {
  code: 'INTERNAL_ERROR',
  message:
    'The likeness could not be built because of an error on our side. It was refunded; create it again.',
};

export interface PersonaServiceDeps {
  db: Db;
  store: MediaStore;
  urlGuard: UrlGuard;
  idempotency: Idempotency;
  config: Pick<Config, 'dataDir'>;
  log: Logger;
  /** Provider talking-head engines with a configured key: new personas list them in supported_engines. */
  providerEngines: readonly ProviderAvatarEngine[];
  /** How long POST /avatars waits for the likeness before answering 202 processing (default 15 s). */
  readyWaitMs?: number;
  /** Lease of a persona being built; renewed every third of it while its process lives (default 60 s). */
  leaseSeconds?: number;
}

/** What a POST of /avatars carries besides its body. */
export interface PersonaCall {
  caller: Caller;
  requestId: string;
  idempotencyKey: string | undefined;
  repeatToken: string | undefined;
  body: unknown;
}

type BuildOutcome =
  { kind: 'ready'; persona: PersonaRecord } | { kind: 'refused'; error: ApiError } | { kind: 'failed' };

function parse<T>(schema: z.ZodType<T>, raw: unknown, urlGuard: UrlGuard): T {
  if (!isPlainObject(raw))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const parsed = urlGuard.validating(() => schema.safeParse(raw));
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  return parsed.data;
}

function newAvatarId(): string {
  return `avatar_${randomToken(20)}`;
}

function newLookId(): string {
  return `look_${randomToken(20)}`;
}

function personaPrefix(avatarId: string): string {
  return `personas/${avatarId}`;
}

export function creationPrice(): Price {
  const cents = PRICE_TABLE[OPERATION].usdCents;
  return {
    usdCents: cents,
    breakdown: [{ item: OPERATION, usd_cents: cents, quantity: 1, unit: 'persona' }],
    tool: 'avatars',
    model: 'local_vision',
    tier: 'persona',
    engine: PRICE_TABLE[OPERATION].engine,
  };
}

/** A persona as the API shows it (spec 1 §2.6), with its failure once it failed. */
export function presentPersona(persona: PersonaRecord): Record<string, unknown> {
  const { failure } = persona;
  return {
    avatar_id: persona.id,
    name: persona.name,
    status: persona.status,
    supported_engines: persona.supportedEngines,
    created_at: persona.createdAt.toISOString(),
    ...(persona.status === 'processing' ? { poll_url: `${AVATARS_PATH}/${persona.id}` } : {}),
    ...(failure
      ? {
          error: {
            code: failure.code,
            message: failure.message,
            ...(failure.details !== undefined ? { details: failure.details } : {}),
          },
          refunded_usd_cents: failure.refunded_usd_cents,
        }
      : {}),
  };
}

/** Settles as `work` does, or with undefined after `ms`, whichever comes first. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      work,
      sleep(ms, undefined, { signal: timer.signal }).then(
        () => undefined,
        () => undefined,
      ),
    ]);
  } finally {
    timer.abort();
  }
}

export class PersonaService {
  private readonly readyWaitMs: number;
  private readonly leaseSeconds: number;
  private readonly building = new Map<string, { done: Promise<BuildOutcome>; abort: AbortController }>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: PersonaServiceDeps) {
    this.readyWaitMs = deps.readyWaitMs ?? DEFAULT_READY_WAIT_MS;
    this.leaseSeconds = deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  /** avatar_iii always; a provider engine when its key is configured. */
  supportedEngines(): PresenterEngine[] {
    return [LOCAL_AVATAR_ENGINE, ...this.deps.providerEngines];
  }

  /** Fails and refunds what dead processes left processing, now and every lease period. */
  async start(): Promise<void> {
    await this.sweep();
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => this.deps.log.error({ err: error }, 'persona sweep failed'));
    }, this.leaseSeconds * 1000);
    this.sweeper.unref();
  }

  /** Stops the sweep; creations still building are failed and refunded (nobody would finish them). */
  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    for (const build of this.building.values()) build.abort.abort();
    await Promise.all([...this.building.values()].map((build) => build.done));
  }

  /** Fails and refunds every persona whose lease lapsed; answers how many. */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const batch = await this.deps.db.transaction().execute(async (tx) => {
        const ids = await lapsedPersonas(tx, SWEEP_BATCH);
        for (const id of ids) await this.failInside(tx, id, INTERRUPTED);
        return ids;
      });
      for (const id of batch) await this.deps.store.remove(personaPrefix(id));
      swept += batch.length;
      if (batch.length < SWEEP_BATCH) break;
    }
    if (swept > 0)
      this.deps.log.warn({ swept }, 'failed and refunded personas left processing by a stopped process');
    return swept;
  }

  /** POST /avatars. */
  async create(call: PersonaCall): Promise<Answer> {
    const { caller, requestId, body } = call;
    const input = parse(createPersonaSchema, body, this.deps.urlGuard);
    if (input.dry_run === true) return this.dryRun(input, requestId);
    validateIdempotencyKey(call.idempotencyKey);
    if (!caller.sandbox && call.idempotencyKey === undefined) throw errors.idempotencyKeyRequired();
    return this.once(call, 'avatars', async () => {
      if (caller.sandbox) return { answer: this.sandboxAnswer(input, requestId), accepted: false };
      return this.createLive(caller, input, requestId);
    });
  }

  /** GET /avatars: newest first; a sandbox key sees no saved personas. */
  async list(caller: Caller, rawQuery: unknown): Promise<Record<string, unknown>> {
    const parsed = listPersonasQuerySchema.safeParse(rawQuery ?? {});
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    const { limit, cursor } = parsed.data;
    const rows = caller.sandbox
      ? []
      : await listPersonas(this.deps.db, caller.accountId, {
          limit: limit + 1,
          ...(cursor !== undefined ? { after: cursor } : {}),
        });
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return {
      avatars: page.map(presentPersona),
      next_cursor: more ? page[page.length - 1]!.id : null,
      has_more: more,
    };
  }

  /** GET /avatars/{avatar_id}: the persona and its looks. */
  async get(caller: Caller, avatarId: string): Promise<Record<string, unknown>> {
    const persona = await this.visible(caller, avatarId);
    const looks = persona.status === 'ready' ? await listLooks(this.deps.db, avatarId) : [];
    return { ...presentPersona(persona), looks: looks.map((look) => this.presentLook(look)) };
  }

  /** DELETE /avatars/{avatar_id}: the persona, its looks and their files. */
  async remove(caller: Caller, avatarId: string): Promise<Record<string, unknown>> {
    const status = caller.sandbox
      ? undefined
      : await this.deps.db.transaction().execute((tx) => deletePersona(tx, caller.accountId, avatarId));
    if (status === undefined) throw errors.avatarNotFound(avatarId);
    if (status === 'processing') throw errors.avatarNotReady(avatarId, 'processing');
    await this.deps.store.remove(personaPrefix(avatarId));
    return { avatar_id: avatarId, deleted: true };
  }

  /** POST /avatars/{avatar_id}/looks: another photo of the same person (free). */
  async addLook(call: PersonaCall & { avatarId: string }): Promise<Answer> {
    const { caller, avatarId } = call;
    const input = parse(addLookSchema, call.body, this.deps.urlGuard);
    validateIdempotencyKey(call.idempotencyKey);
    const persona = await this.visible(caller, avatarId);
    if (persona.status !== 'ready') throw errors.avatarNotReady(avatarId, persona.status);
    if ((await listLooks(this.deps.db, avatarId)).length >= MAX_LOOKS)
      throw errors.lookLimitReached(avatarId, MAX_LOOKS);
    return this.once(call, `avatars/${avatarId}/looks`, async () => {
      const { db, store, urlGuard, config } = this.deps;
      const staging = newStagingDir(config);
      try {
        const photo = await fetchPhoto(urlGuard, input.image_url, staging);
        const primary = await findLook(db, avatarId);
        if (!primary) throw errors.avatarNotFound(avatarId);
        const analysed = await this.analyse(photo);
        const distance = faceDistance(primary.face.descriptor, analysed.face.descriptor);
        if (distance > SAME_PERSON_DISTANCE) throw errors.lookNotSamePerson(distance, SAME_PERSON_DISTANCE);
        const lookId = newLookId();
        const prefix = `${personaPrefix(avatarId)}/${lookId}`;
        const stored = await storeLikeness(store, prefix, analysed, staging);
        let createdAt: Date;
        try {
          createdAt = await db.transaction().execute(async (tx) => {
            const locked = await lockPersonaForLook(tx, caller.accountId, avatarId);
            if (!locked) throw errors.avatarNotFound(avatarId);
            if (locked.looks >= MAX_LOOKS) throw errors.lookLimitReached(avatarId, MAX_LOOKS);
            return insertLook(tx, {
              id: lookId,
              personaId: avatarId,
              name: input.name ?? null,
              primary: false,
              photoKey: stored.photoKey,
              photoWidth: analysed.photo.width,
              photoHeight: analysed.photo.height,
              personMaskKey: stored.maskKey,
              face: analysed.face,
            });
          });
        } catch (error) {
          await store.remove(prefix);
          throw error;
        }
        const data = {
          look_id: lookId,
          avatar_id: avatarId,
          name: input.name ?? null,
          primary: false,
          created_at: createdAt.toISOString(),
          image_url: store.sign(stored.photoKey, LINK_TTL_SECONDS).url,
          same_person: { distance: Number(distance.toFixed(4)), max_distance: SAME_PERSON_DISTANCE },
        };
        return {
          answer: {
            status: 201,
            body: successBody(data, { request_id: call.requestId }),
            headers: {},
            jobIds: [],
          },
          accepted: true,
        };
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    });
  }

  private async visible(caller: Caller, avatarId: string): Promise<PersonaRecord> {
    const persona = caller.sandbox ? undefined : await findPersona(this.deps.db, caller.accountId, avatarId);
    if (!persona) throw errors.avatarNotFound(avatarId);
    return persona;
  }

  private presentLook(look: LookRecord): Record<string, unknown> {
    return {
      look_id: look.id,
      name: look.name,
      primary: look.primary,
      created_at: look.createdAt.toISOString(),
      image_url: this.deps.store.sign(look.photoKey, LINK_TTL_SECONDS).url,
      width: look.photoWidth,
      height: look.photoHeight,
    };
  }

  /**
   * Runs a POST once per Idempotency-Key and, for live keys, once per identical body within the identical-
   * request window (spec 1 §8). `run` answers whether its answer accepted something (stored for replay) or
   * refused (stored under the key only); a refusal thrown as a 4xx ApiError is stored too; a server error
   * forgets the claim so that a retry runs again.
   */
  private async once(
    call: PersonaCall,
    endpoint: string,
    run: () => Promise<{ answer: Answer; accepted: boolean }>,
  ): Promise<Answer> {
    const { caller } = call;
    const claimed = await this.deps.idempotency.claim({
      accountId: caller.accountId,
      endpoint,
      key: call.idempotencyKey,
      body: call.body,
      repeatToken: call.repeatToken,
      identical: !caller.sandbox,
    });
    if (claimed.kind === 'replay') return { ...claimed.answer, replay: claimed.match };
    const { claim } = claimed;
    try {
      const { answer, accepted } = await run();
      if (accepted) await claim.accept(this.deps.db, answer);
      else await claim.record(answer);
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.code !== 'REQUEST_IN_PROGRESS') {
        const answer = errorAnswer(error, call.requestId);
        await claim.record(answer);
        return answer;
      }
      await claim.release();
      throw error;
    }
  }

  /** Spec 1 §2.5: the photo is fetched and checked as a real call would (a free 400 when unusable). */
  private async dryRun(input: CreatePersonaInput, requestId: string): Promise<Answer> {
    const staging = newStagingDir(this.deps.config);
    try {
      await fetchPhoto(this.deps.urlGuard, input.image_url, staging);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    const price = creationPrice();
    const data = {
      dry_run: true,
      valid: true,
      mode: OPERATION,
      normalized_request: {
        image_url: input.image_url,
        ...(input.name !== undefined ? { name: input.name } : {}),
      },
      price: { usd_cents: price.usdCents, display: displayUsd(price.usdCents), breakdown: price.breakdown },
      estimated_render_seconds: CREATION_ESTIMATE,
      warnings: [],
      charged: false,
    };
    return { status: 200, body: successBody(data, { request_id: requestId }), headers: {}, jobIds: [] };
  }

  /** Spec 1 §5.3: a sandbox key gets the persona it would make, neither fetched nor saved, free. */
  private sandboxAnswer(input: CreatePersonaInput, requestId: string): Answer {
    const data = {
      avatar_id: `sandbox_avatar_${randomToken(20)}`,
      name: input.name ?? 'Sandbox persona',
      status: 'ready',
      supported_engines: this.supportedEngines(),
      sandbox: true,
    };
    return {
      status: 201,
      body: successBody(data, { request_id: requestId, sandbox: true }),
      headers: { 'x-api-credits-cost-usd-cents': '0' },
      jobIds: [],
    };
  }

  private async createLive(
    caller: Caller,
    input: CreatePersonaInput,
    requestId: string,
  ): Promise<{ answer: Answer; accepted: boolean }> {
    const { db, config } = this.deps;
    const price = creationPrice();
    // 402 before fetching anything; the charge itself is what guards the balance.
    const available = await balanceOf(db, caller.accountId);
    if (available < price.usdCents) throw errors.insufficientCredits(price.usdCents, available);
    const staging = newStagingDir(config);
    let building = false;
    try {
      const photo = await fetchPhoto(this.deps.urlGuard, input.image_url, staging);
      const id = newAvatarId();
      const { persona, balance } = await db.transaction().execute(async (tx) => {
        const inserted = await insertPersona(
          tx,
          {
            id,
            accountId: caller.accountId,
            name: input.name ?? `Persona ${id.slice(-6)}`,
            supportedEngines: this.supportedEngines(),
            priceCents: price.usdCents,
          },
          this.leaseSeconds,
        );
        return {
          persona: inserted,
          balance: await charge(tx, caller.accountId, price.usdCents, id, OPERATION),
        };
      });
      building = true;
      const outcome = await within(this.track(persona, photo, staging), this.readyWaitMs);
      const accepted = (status: number, shown: PersonaRecord): { answer: Answer; accepted: boolean } => ({
        answer: {
          status,
          body: successBody(presentPersona(shown), {
            request_id: requestId,
            credits_used: price.usdCents,
            credits_remaining: balance,
          }),
          headers: chargeHeaders(price, CREATION_ESTIMATE.typical),
          jobIds: [],
        },
        accepted: true,
      });
      if (outcome === undefined) return accepted(202, persona);
      if (outcome.kind === 'ready') return accepted(201, outcome.persona);
      // The caller never learns this persona's id: it goes, its charge and refund stay in the ledger.
      await removeFailedPersona(db, id);
      if (outcome.kind === 'refused') throw outcome.error;
      throw errors.internal();
    } finally {
      if (!building) await rm(staging, { recursive: true, force: true });
    }
  }

  private track(persona: PersonaRecord, photo: FetchedPhoto, staging: string): Promise<BuildOutcome> {
    const abort = new AbortController();
    const done = this.build(persona, photo, staging, abort.signal).finally(() =>
      this.building.delete(persona.id),
    );
    this.building.set(persona.id, { done, abort });
    return done;
  }

  private async analyse(photo: FetchedPhoto) {
    try {
      return await analysePhoto(await normalisePhoto(photo.path));
    } catch (error) {
      throw error instanceof PhotoRefusedError ? error.error : error;
    }
  }

  /** Builds a persona's primary look; never rejects: a failure fails the persona and refunds it. */
  private async build(
    persona: PersonaRecord,
    photo: FetchedPhoto,
    staging: string,
    signal: AbortSignal,
  ): Promise<BuildOutcome> {
    const { db, store, log } = this.deps;
    const heartbeat = setInterval(
      () => {
        renewLease(db, persona.id, this.leaseSeconds).catch((error: unknown) =>
          log.warn({ err: error, avatarId: persona.id }, 'persona lease renewal failed'),
        );
      },
      (this.leaseSeconds * 1000) / 3,
    );
    heartbeat.unref();
    const started = performance.now();
    try {
      const analysed = await this.analyse(photo);
      signal.throwIfAborted();
      const lookId = newLookId();
      const stored = await storeLikeness(store, `${personaPrefix(persona.id)}/${lookId}`, analysed, staging);
      const completed = await db.transaction().execute((tx) =>
        completePersona(tx, {
          id: lookId,
          personaId: persona.id,
          name: null,
          primary: true,
          photoKey: stored.photoKey,
          photoWidth: analysed.photo.width,
          photoHeight: analysed.photo.height,
          personMaskKey: stored.maskKey,
          face: analysed.face,
        }),
      );
      if (!completed) {
        // Its lease lapsed meanwhile and a sweep failed and refunded it: the likeness belongs to nothing.
        await store.remove(personaPrefix(persona.id));
        return { kind: 'failed' };
      }
      log.info(
        {
          avatarId: persona.id,
          facesMs: Math.round(analysed.timings.facesMs),
          segmentMs: Math.round(analysed.timings.segmentMs),
          totalMs: Math.round(performance.now() - started),
          photo: `${analysed.photo.width}x${analysed.photo.height}`,
        },
        'persona ready',
      );
      return { kind: 'ready', persona: { ...persona, status: 'ready' } };
    } catch (error) {
      const refusal = error instanceof ApiError && error.status < 500 ? error : undefined;
      if (!refusal && !signal.aborted)
        log.error({ err: error, avatarId: persona.id }, 'persona creation failed');
      const failure = refusal
        ? { code: refusal.code, message: refusal.message, details: refusal.details }
        : signal.aborted
          ? INTERRUPTED
          : INTERNAL;
      try {
        const refunded = await db.transaction().execute((tx) => this.failInside(tx, persona.id, failure));
        await store.remove(personaPrefix(persona.id));
        if (!refusal) return { kind: 'failed' };
        const details = { ...(refusal.details as Record<string, unknown>), refunded_usd_cents: refunded };
        return {
          kind: 'refused',
          error: new ApiError(refusal.status, refusal.code, refusal.message, { details }),
        };
      } catch (failError) {
        // The lease lapses and a sweep fails and refunds the persona.
        log.error({ err: failError, avatarId: persona.id }, 'could not fail a persona; the sweep will');
        return { kind: 'failed' };
      }
    } finally {
      clearInterval(heartbeat);
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Fails a processing persona and refunds its charge, in the caller's transaction; answers the cents refunded. */
  private async failInside(
    tx: Tx,
    personaId: string,
    failure: Omit<PersonaFailure, 'refunded_usd_cents'>,
  ): Promise<number> {
    const failed = await failPersona(tx, personaId, failure);
    if (!failed) return 0;
    return refundJob(tx, failed.accountId, personaId, REFUND_REASON);
  }
}
