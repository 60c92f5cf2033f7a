// Platform connections (docs/publishing.md): POST /social-accounts connects (or reconnects) one platform with
// tokens its owner obtained; GET lists them, GET /{id} reads one, DELETE /{id} removes it. All free; tokens
// are never returned.
import type { FastifyInstance } from 'fastify';
import { successBody } from '../../platform/envelope.ts';
import { connectSchema, presentConnection } from '../../publishing/connections/connection-service.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

export const SOCIAL_ACCOUNTS_PATH = '/api/v1/social-accounts';

const DOCS = {
  connect: {
    summary: 'Connect a social account',
    description:
      'Connects (or reconnects) one platform with tokens its owner obtained; tokens are sealed at rest and never returned. 201 new, 200 replaced.',
    tags: ['Publishing'],
    body: connectSchema,
    successStatus: 201,
    otherStatuses: { 200: 'An existing connection of this platform account was replaced.' },
    errors: ['PUBLISHING_NOT_CONFIGURED'],
  },
  list: { summary: 'List social accounts', tags: ['Publishing'] },
  get: { summary: 'Read a social account', tags: ['Publishing'], errors: ['CONNECTION_NOT_FOUND'] },
  remove: { summary: 'Remove a social account', tags: ['Publishing'], errors: ['CONNECTION_NOT_FOUND'] },
} satisfies Record<string, RouteDocs>;

interface ConnectionParams {
  connection_id: string;
}

export function registerSocialAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { connections, clients } = ctx.publishing;

  app.post(SOCIAL_ACCOUNTS_PATH, { config: { docs: DOCS.connect } }, async (request, reply) => {
    const { accountId } = callerOf(request);
    const { connection, replaced } = await connections.connect(accountId, request.body);
    return reply
      .status(replaced ? 200 : 201)
      .send(
        successBody(
          { connection: presentConnection(connection, clients), replaced },
          { request_id: request.id },
        ),
      );
  });

  app.get(SOCIAL_ACCOUNTS_PATH, { config: { rateLimit: 'metadata', docs: DOCS.list } }, async (request) => {
    const { accountId } = callerOf(request);
    const list = await connections.list(accountId);
    return successBody(
      { connections: list.map((c) => presentConnection(c, clients)) },
      { request_id: request.id },
    );
  });

  app.get<{ Params: ConnectionParams }>(
    `${SOCIAL_ACCOUNTS_PATH}/:connection_id`,
    { config: { rateLimit: 'metadata', docs: DOCS.get } },
    async (request) => {
      const { accountId } = callerOf(request);
      const connection = await connections.get(accountId, request.params.connection_id);
      return successBody({ connection: presentConnection(connection, clients) }, { request_id: request.id });
    },
  );

  app.delete<{ Params: ConnectionParams }>(
    `${SOCIAL_ACCOUNTS_PATH}/:connection_id`,
    { config: { docs: DOCS.remove } },
    async (request) => {
      const { accountId } = callerOf(request);
      await connections.remove(accountId, request.params.connection_id);
      return successBody(
        { connection_id: request.params.connection_id, deleted: true },
        { request_id: request.id },
      );
    },
  );
}
