// The business preview contract (spec 2 §4.4, §9; docs/library.md): account, contracts and request validation.
// All free; validation creates, fetches and charges nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { previewAccount } from '../../b2b/account.ts';
import { buildContracts } from '../../b2b/contracts.ts';
import {
  previewAccountSchema,
  previewContractsSchema,
  previewValidationSchema,
} from '../../b2b/preview-answers.ts';
import { PREVIEW_LINKS } from '../../b2b/preview-contract.ts';
import { validatePreviewRequest } from '../../b2b/preview-validation.ts';
import { previewValidateSchema } from '../../b2b/validate-request.ts';
import { successBody, type Meta } from '../../platform/envelope.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';

const TAGS = ['Business preview'];

function meta(request: FastifyRequest): Meta {
  return { request_id: request.id, key_mode: callerOf(request).sandbox ? 'sandbox' : 'live' };
}

export function registerBusinessPreviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The registry is fixed once the service runs: the contract is built once.
  const contracts = buildContracts(ctx.registry);

  app.get(
    '/api/v1/b2b/account',
    {
      config: {
        rateLimit: 'metadata',
        docs: {
          summary: 'The calling account, its key mode and the preview contract’s capabilities',
          tags: TAGS,
          response: previewAccountSchema,
        },
      },
    },
    async (request) => successBody(previewAccount(callerOf(request), ctx.registry), meta(request)),
  );

  app.get(
    PREVIEW_LINKS.contracts,
    {
      config: {
        rateLimit: 'metadata',
        docs: {
          summary: 'Request and result JSON Schemas of the preview contract, per library mode',
          tags: TAGS,
          response: previewContractsSchema,
        },
      },
    },
    async (request) => successBody(contracts, meta(request)),
  );

  app.post(
    PREVIEW_LINKS.validate,
    {
      config: {
        rateLimit: 'metadata',
        docs: {
          summary: 'Validate a preview request (stock mode): no job, no fetch, no charge',
          description:
            'Every violation is a 400 INPUT_INVALID naming its field. A valid body answers the normalized request, the price estimate and the equivalent /generate-and-post body.',
          tags: TAGS,
          body: previewValidateSchema,
          response: previewValidationSchema,
          idempotency: 'none',
          errors: ['INPUT_INVALID', 'BRAND_NOT_FOUND'],
        },
      },
    },
    async (request) =>
      successBody(
        await validatePreviewRequest(request.body, callerOf(request), request.id, {
          urlGuard: ctx.urlGuard,
          brandKits: ctx.brandKits,
          registry: ctx.registry,
          generation: ctx.generation,
        }),
        meta(request),
      ),
  );
}
