import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { successBody } from '../../platform/envelope.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { listAccountDeliveries } from '../../platform/webhooks/webhook-deliveries-repo.ts';
import { presentDelivery } from '../../platform/webhooks/webhook-delivery-presenter.ts';
import { redeliver } from '../../platform/webhooks/webhook-events.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

// An account's webhook deliveries with every attempt, and redelivery of one (docs/webhooks.md).

const listQuery = z
  .object({
    job_id: z.string().min(1).max(100).optional(),
    state: z.enum(['pending', 'delivered', 'failed', 'superseded']).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

const DOCS = {
  list: {
    summary: 'List webhook deliveries',
    description: "This account's recent webhook deliveries, each with its attempts.",
    tags: ['Webhooks'],
    query: listQuery,
  },
  redeliver: {
    summary: 'Send a webhook again',
    description: 'Queues one more delivery of a webhook event.',
    tags: ['Webhooks'],
    successStatus: 202,
    errors: ['NOT_FOUND'],
  },
} satisfies Record<string, RouteDocs>;

export function registerWebhookDeliveryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/v1/webhook-deliveries',
    { config: { rateLimit: 'metadata', docs: DOCS.list } },
    async (request) => {
      const query = listQuery.safeParse(request.query);
      if (!query.success) throw invalidInputError(fieldIssues(query.error));
      const { job_id: jobId, state, limit } = query.data;
      const deliveries = await listAccountDeliveries(ctx.db, callerOf(request).accountId, {
        jobId,
        state,
        limit,
      });
      return successBody({ deliveries: deliveries.map(presentDelivery) }, { request_id: request.id });
    },
  );

  app.post<{ Params: { deliveryId: string } }>(
    '/api/v1/webhook-deliveries/:deliveryId/redeliver',
    { config: { docs: DOCS.redeliver } },
    async (request, reply) => {
      const { deliveryId } = request.params;
      const delivery = await redeliver(ctx.db, ctx.queue, callerOf(request).accountId, deliveryId);
      if (!delivery) throw errors.notFound(`Webhook delivery ${deliveryId}`);
      return reply
        .status(202)
        .send(successBody({ delivery: presentDelivery(delivery) }, { request_id: request.id }));
    },
  );
}
