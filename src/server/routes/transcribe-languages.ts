import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import { createRecognizer } from '../../media/speech/create-recognizer.ts';
import { transcribeLanguages } from '../../modes/transcribe/languages.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

/** GET /api/v1/resources/transcribe-languages (spec 2 §4.6): what the configured recognizer transcribes. */
export function registerTranscribeLanguagesRoute(app: FastifyInstance, ctx: AppContext): void {
  const languages = transcribeLanguages(createRecognizer(ctx.config));
  const docs: RouteDocs = {
    summary: 'Transcription languages',
    description: 'The languages the configured speech recognizer transcribes.',
    tags: ['Transcription'],
  };
  app.get(
    '/api/v1/resources/transcribe-languages',
    { config: { rateLimit: 'metadata', docs } },
    async (request) => successBody(languages, { request_id: request.id }),
  );
}
