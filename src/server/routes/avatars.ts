// Personas (spec 1 §2.6, §3.2, §4.6; docs/presenters.md): POST /avatars ($2.65, Idempotency-Key required on
// live keys), GET /avatars, GET and DELETE /avatars/{avatar_id}, POST /avatars/{avatar_id}/looks (free).
import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import { AVATARS_PATH, PersonaService, type ProviderAvatarEngine } from '../../presenters/personas/index.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, repeatTokenOf, sendAnswer } from './send-answer.ts';

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

  app.post(AVATARS_PATH, async (request, reply) => {
    const answer = await personas.create({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      repeatToken: repeatTokenOf(request),
      body: request.body,
    });
    return sendAnswer(request, reply, answer);
  });

  app.get(AVATARS_PATH, { config: { rateLimit: 'metadata' } }, async (request) => {
    const caller = callerOf(request);
    return successBody(await personas.list(caller, request.query), { request_id: request.id });
  });

  app.get<{ Params: AvatarParams }>(
    `${AVATARS_PATH}/:avatar_id`,
    { config: { rateLimit: 'job_reads' } },
    async (request) => {
      const caller = callerOf(request);
      return successBody(await personas.get(caller, request.params.avatar_id), { request_id: request.id });
    },
  );

  app.delete<{ Params: AvatarParams }>(`${AVATARS_PATH}/:avatar_id`, async (request) => {
    const caller = callerOf(request);
    return successBody(await personas.remove(caller, request.params.avatar_id), { request_id: request.id });
  });

  app.post<{ Params: AvatarParams }>(`${AVATARS_PATH}/:avatar_id/looks`, async (request, reply) => {
    const answer = await personas.addLook({
      caller: callerOf(request),
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      repeatToken: repeatTokenOf(request),
      body: request.body,
      avatarId: request.params.avatar_id,
    });
    return sendAnswer(request, reply, answer);
  });
}
