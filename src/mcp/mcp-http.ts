// POST of the MCP endpoint (spec 2 §4.5): one JSON-RPC message (or batch) per request, answered as JSON by the
// SDK's Streamable HTTP transport in stateless mode. The key was checked by the app's auth hook before this
// runs; each tool call passes the same key on to its route. The transport's web-standard form is used so its
// answer goes out through Fastify like any other (request id header, the one log line, metrics).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import { type CallerHeaders, dispatchTool } from './dispatch.ts';
import { createMcpServer, listedTool } from './mcp-server.ts';
import { type McpTool, mcpTools } from './tools.ts';

const KEY_HEADERS = ['authorization', 'x-api-key'] as const;

function callerHeaders(request: FastifyRequest): CallerHeaders {
  const headers: CallerHeaders = {};
  for (const name of KEY_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** The request as the transport reads it: its headers (Accept, Content-Type, MCP-Protocol-Version); the body is already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}

export function mcpHandler(
  app: FastifyInstance,
  registry: ModeRegistry,
  version: string,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  const tools = new Map(mcpTools(registry).map((tool) => [tool.name, { tool, listed: listedTool(tool) }]));

  return async (request, reply) => {
    const caller = callerHeaders(request);
    const call = (tool: McpTool, args: Record<string, unknown>): Promise<CallToolResult> =>
      dispatchTool(app, tool, args, { caller, requestId: request.id });
    const server = createMcpServer(version, tools, call);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      const text = await response.text();
      response.headers.forEach((value, name) => void reply.header(name, value));
      return reply.status(response.status).send(text === '' ? undefined : text);
    } finally {
      await server.close();
    }
  };
}
