// Personas (spec 1 §2.6, §3.2, §4.6; docs/presenters.md): POST /avatars ($2.65, Idempotency-Key required on
// live keys), GET /avatars, GET and DELETE /avatars/{avatar_id}, POST /avatars/{avatar_id}/looks (free).
import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import { AVATARS_PATH, PersonaService, type ProviderAvatarEngine } from '../../presenters/personas/index.ts';
import {
  addLookSchema,
  createPersonaSchema,
  listPersonasQuerySchema,
} from '../../presenters/personas/persona-input.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';
import { idempotencyKeyOf, repeatTokenOf, sendAnswer } from './send-answer.ts';

const DOCS = {
  create: {
    summary: 'Create a persona',
    description:
      'A reusable presenter from one public https photo of one person: 201 ready, or 202 processing with a poll_url. Refunded if the photo is refused; dry_run validates and prices.',
    tags: ['Personas'],
    body: createPersonaSchema,
    successStatus: 201,
    otherStatuses: {
      200: 'A dry-run result (spec 1 §2.5): validated and priced, nothing created or charged.',
      202: 'The likeness is still being made: poll poll_url until status is ready.',
    },
    paid: true,
    idempotency: 'required',
    errors: ['PHOTO_REJECTED'],
  },
  list: {
    summary: 'List personas',
    description: "This account's personas, newest first.",
    tags: ['Personas'],
    query: listPersonasQuerySchema,
  },
  get: {
    summary: 'Read a persona',
    description: 'One persona; poll it until its status is ready.',
    tags: ['Personas'],
    errors: ['AVATAR_NOT_FOUND'],
  },
  remove: {
    summary: 'Delete a persona',
    description: 'Deletes the persona and its stored likeness.',
    tags: ['Personas'],
    errors: ['AVATAR_NOT_FOUND'],
  },
  look: {
    summary: 'Add a look',
    description: 'Another photo of the same person (free); refused when the face does not match.',
    tags: ['Personas'],
    body: addLookSchema,
    successStatus: 201,
    idempotency: 'recommended',
    errors: [
      'AVATAR_NOT_FOUND',
      'AVATAR_NOT_READY',
      'LOOK_NOT_SAME_PERSON',
      'LOOK_LIMIT_REACHED',
      'PHOTO_REJECTED',
    ],
  },
} satisfies Record<string, RouteDocs>;

interface AvatarParams {
  avatar_id: string;
}

export interface AvatarRouteOptions {
  /** Provider talking-head engines new personas support (default: those whose keys are configured). */
  providerEngines?: readonly ProviderAvatarEngine[];
  /** How long POST /avatars waits for the likeness before answering 202. */
  readyWaitMs?: number;
}

/** The hosted engines whose keys are set (src/providers/avatars): HeyGen runs avatar_iv, D-ID avatar_v. */
function configuredEngines(config: AppContext['config']): ProviderAvatarEngine[] {
  const engines: ProviderAvatarEngine[] = [];
  if (config.avatars.heygen) engines.push('avatar_iv');
  if (config.avatars.did) engines.push('avatar_v');
  return engines;
}

export function registerAvatarRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: AvatarRouteOptions = {},
): void {
  const personas = new PersonaService({
    db: ctx.db,
    store: ctx.store,
    urlGuard: ctx.urlGuard,
    idempotency: ctx.idempotency,
    config: ctx.config,
    log: ctx.log,
    providerEngines: options.providerEngines ?? configuredEngines(ctx.config),
    readyWaitMs: options.readyWaitMs ?? ctx.config.avatars.readyWaitSeconds * 1000,
  });
  // Personas a dead process left processing are failed and refunded once this one serves.
  app.addHook('onReady', () => personas.start());
  app.addHook('onClose', () => personas.stop());

  app.post(AVATARS_PATH, { config: { docs: DOCS.create } }, async (request, reply) => {
    const answer = await personas.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      repeatToken: repeatTokenOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });

  app.get(AVATARS_PATH, { config: { rateLimit: 'metadata', docs: DOCS.list } }, async (request) => {
    const caller = callerOf(request);
    return successBody(await personas.list(caller, request.query), { request_id: request.id });
  });

  app.get<{ Params: AvatarParams }>(
    `${AVATARS_PATH}/:avatar_id`,
    { config: { rateLimit: 'job_reads', docs: DOCS.get } },
    async (request) => {
      const caller = callerOf(request);
      return successBody(await personas.get(caller, request.params.avatar_id), { request_id: request.id });
    },
  );

  app.delete<{ Params: AvatarParams }>(
    `${AVATARS_PATH}/:avatar_id`,
    { config: { docs: DOCS.remove } },
    async (request) => {
      const caller = callerOf(request);
      return successBody(await personas.remove(caller, request.params.avatar_id), { request_id: request.id });
    },
  );

  app.post<{ Params: AvatarParams }>(
    `${AVATARS_PATH}/:avatar_id/looks`,
    { config: { docs: DOCS.look } },
    async (request, reply) => {
      const answer = await personas.addLook({
        caller: callerOf(request),
        requestId: request.id,
        idempotencyKey: idempotencyKeyOf(request),
        repeatToken: repeatTokenOf(request),
        body: request.body,
        avatarId: request.params.avatar_id,
      });
      return sendAnswer(request, reply, answer);
    },
  );
}
