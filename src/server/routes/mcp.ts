// The MCP endpoint (spec 2 §4.5; docs/mcp.md): JSON-RPC 2.0 over POST at /api/v1/mcp and at /mcp, with the
// API key of every other route. The server is stateless (no sessions, no server-initiated stream), so GET and
// DELETE answer 405, as the Streamable HTTP transport allows.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { mcpHandler } from '../../mcp/mcp-http.ts';
import { errors } from '../../platform/errors.ts';
import type { AppContext } from '../app-context.ts';
import { SERVICE_VERSION } from './catalogs.ts';

export const MCP_PATHS = ['/api/v1/mcp', '/mcp'] as const;

export function registerMcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const handle = mcpHandler(app, ctx.registry, SERVICE_VERSION);
  for (const path of MCP_PATHS) {
    app.post(
      path,
      {
        config: {
          docs: {
            summary: 'MCP tools over JSON-RPC 2.0',
            description:
              'Model Context Protocol (Streamable HTTP, stateless, JSON answers): initialize, tools/list, tools/call of the 24 tools in docs/mcp.md. Send "Accept: application/json, text/event-stream". The answer is a JSON-RPC response, not the API envelope; each tool result wraps its REST route\'s answer and adds transport { status, ok, via }. A missing or wrong key is the API\'s 401 before any JSON-RPC handling. /mcp and /api/v1/mcp are the same endpoint.',
            tags: ['MCP'],
            body: JSONRPCMessageSchema,
            // A JSON-RPC response (202 without a body for a notification), not the API envelope.
            produces: ['application/json'],
            idempotency: 'none',
          },
        },
      },
      handle,
    );
    app.route({
      method: ['GET', 'DELETE'],
      url: path,
      config: {
        docs: {
          summary: 'Not served: the MCP endpoint is stateless (405)',
          description:
            'No sessions to close and no server-initiated stream to open; send JSON-RPC with POST.',
          tags: ['MCP'],
          errors: ['METHOD_NOT_ALLOWED'],
        },
      },
      handler: async (request) => {
        throw errors.methodNotAllowed(request.method, path, 'POST');
      },
    });
  }
}
