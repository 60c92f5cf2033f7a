import type { FastifyInstance } from 'fastify';
import type { ModeDefinition } from '../../platform/modes/mode.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, repeatTokenOf, sendAnswer } from './send-answer.ts';

/** The reference page's group of a mode's route: Generate, unless its path names another area. */
function tagOf(mode: ModeDefinition): string {
  if (mode.endpoint.startsWith('brand/')) return 'Brand';
  if (mode.endpoint === 'post') return 'Publishing';
  if (mode.endpoint === 'transcribe' || mode.endpoint.startsWith('captions/')) return 'Transcription';
  return 'Generate';
}

/** POST /api/v1/<endpoint> for one registered mode: a schema plus one call into the generation service. */
export function registerGenerateRoute(app: FastifyInstance, ctx: AppContext, mode: ModeDefinition): void {
  const docs = {
    summary: mode.title,
    description: mode.description,
    tags: [tagOf(mode)],
    generation: { modes: [mode] },
  };
  app.post(`/api/v1/${mode.endpoint}`, { config: { docs } }, async (request, reply) => {
    const answer = await ctx.generation.submit({
      caller: callerOf(request),
      mode,
      body: request.body,
      requestId: request.id,
      idempotencyKey: idempotencyKeyOf(request),
      repeatToken: repeatTokenOf(request),
      endpoint: mode.endpoint,
    });
    return sendAnswer(request, reply, answer);
  });
}
