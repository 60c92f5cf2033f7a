// One tool call = one call of its REST route, in process (Fastify's inject) with the caller's own key: price,
// validation, idempotency, limits and errors are the route's. The tool result is the route's JSON answer plus
// `transport` (spec 2 §4.5); a refused call is a tool result with isError, never a JSON-RPC error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../platform/envelope.ts';
import { type ApiError, errors } from '../platform/errors.ts';
import { isPlainObject } from '../platform/generation/parse-request.ts';
import { IDEMPOTENCY_KEY_ARGUMENT } from './tool-fields.ts';
import type { McpTool } from './tools.ts';

/** The HTTP request a tool call becomes. */
export interface RouteCall {
  method: McpTool['routes'][number]['method'];
  /** Path and query string. */
  url: string;
  /** Path alone: the `via` of the result. */
  path: string;
  idempotencyKey?: string;
  body?: Record<string, unknown>;
}

export interface TransportInfo {
  status: number;
  ok: boolean;
  /** "METHOD /path" of the route called, or "mcp" when the tool refused the arguments before calling one. */
  via: string;
}

/** Headers that carry the caller's key (Authorization: Bearer, or X-API-Key), passed on unchanged. */
export type CallerHeaders = Record<string, string>;

// Header values are bytes of visible ASCII; anything else could not have been sent over HTTP either.
const HEADER_TEXT = /^[\x20-\x7e]*$/;

function queryString(args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Turns a tool's arguments into its route's request, or the refusal of arguments the tool itself owns. */
export function routeCall(tool: McpTool, args: Record<string, unknown>): RouteCall | ApiError {
  const refused = tool.precheck?.(args);
  if (refused) return refused;
  const rest: Record<string, unknown> = { ...args };
  const route = tool.pick?.(args) ?? tool.routes[0];

  let idempotencyKey: string | undefined;
  if (tool.idempotency !== 'none' && IDEMPOTENCY_KEY_ARGUMENT in rest) {
    const key = rest[IDEMPOTENCY_KEY_ARGUMENT];
    delete rest[IDEMPOTENCY_KEY_ARGUMENT];
    if (typeof key !== 'string' || !HEADER_TEXT.test(key))
      return errors.inputInvalid('idempotency_key must be a string of printable ASCII characters.', [
        { field: IDEMPOTENCY_KEY_ARGUMENT, message: 'must be a string of printable ASCII characters' },
      ]);
    idempotencyKey = key;
  }
  if (tool.idempotency === 'required' && idempotencyKey === undefined && args.dry_run !== true)
    return errors.idempotencyArgumentRequired(tool.name);

  let path = route.path;
  for (const [name, schema] of Object.entries(tool.path ?? {})) {
    const parsed = schema.safeParse(rest[name]);
    if (!parsed.success) {
      const message = rest[name] === undefined ? 'is required' : parsed.error.issues[0]!.message;
      return errors.inputInvalid(`Invalid arguments: ${name} ${message}.`, [{ field: name, message }]);
    }
    // The value as sent: the route reads it with its own rules.
    path = path.replace(`{${name}}`, encodeURIComponent(String(rest[name])));
    delete rest[name];
  }

  const withBody = route.method === 'POST' || route.method === 'PATCH';
  return {
    method: route.method,
    url: route.method === 'GET' ? path + queryString(rest) : path,
    path,
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    ...(withBody ? { body: rest } : {}),
  };
}

function toolResult(answer: Record<string, unknown>, transport: TransportInfo): CallToolResult {
  const structured = { ...answer, transport };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(transport.ok ? {} : { isError: true }),
  };
}

/** Runs one tool call through its route with the caller's key. */
export async function dispatchTool(
  app: FastifyInstance,
  tool: McpTool,
  args: Record<string, unknown>,
  context: { caller: CallerHeaders; requestId: string },
): Promise<CallToolResult> {
  const call = routeCall(tool, args);
  if (!('url' in call)) {
    return toolResult(errorBody(call, { request_id: context.requestId }), {
      status: call.status,
      ok: false,
      via: 'mcp',
    });
  }
  const response = await app.inject({
    method: call.method,
    url: call.url,
    headers: {
      ...context.caller,
      ...(call.idempotencyKey !== undefined ? { 'idempotency-key': call.idempotencyKey } : {}),
      ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(call.body !== undefined ? { payload: JSON.stringify(call.body) } : {}),
  });
  let answer: unknown;
  try {
    answer = JSON.parse(response.body);
  } catch {
    answer = undefined;
  }
  return toolResult(isPlainObject(answer) ? answer : { body: response.body }, {
    status: response.statusCode,
    ok: response.statusCode >= 200 && response.statusCode < 300,
    via: `${call.method} ${call.path}`,
  });
}
