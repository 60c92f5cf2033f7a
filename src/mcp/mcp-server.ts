// The MCP server of one HTTP request (stateless Streamable HTTP: nothing lives between requests). It is the
// SDK's protocol Server with tools/list and tools/call handlers of our own rather than McpServer.registerTool:
// McpServer parses arguments with the tool's Zod schema and hands the handler the parsed output (defaults
// filled, transforms applied), and refuses bad input with its own message. Here the raw arguments go to the
// REST route, so a tool validates, prices and refuses exactly as its route does (same error envelope).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { toolInputSchema } from './tool-schema.ts';
import type { McpTool } from './tools.ts';

export const MCP_SERVER_NAME = 'reelsmith';

const INSTRUCTIONS =
  'Reelsmith makes short vertical videos and serves the signals around them. Each tool calls one REST route of ' +
  'this service with your API key, so prices, validation and errors are the same as over HTTP; a refused call is ' +
  'a tool result with isError and the API error envelope. Paid render tools need idempotency_key (unique per ' +
  'intended job) unless dry_run is true; they answer a receipt with a job_id at once: poll get_job_status.';

/** A tool as tools/list shows it, computed once per process. */
export function listedTool(tool: McpTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolInputSchema(tool),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

export function createMcpServer(
  version: string,
  tools: ReadonlyMap<string, { tool: McpTool; listed: Tool }>,
  call: (tool: McpTool, args: Record<string, unknown>) => Promise<CallToolResult>,
): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map(({ listed }) => listed),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = tools.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return call(entry.tool, request.params.arguments ?? {});
  });
  return server;
}
