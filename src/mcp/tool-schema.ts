// A tool's input schema, as tools/list shows it: the JSON Schema (input side) of its route's Zod schema, with
// the tool's own arguments (path ids, idempotency_key, platform fields) added beside the route's fields.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpTool } from './tools.ts';

type JsonSchema = Record<string, unknown>;

/** The JSON Schema a client sends against: the input side of `schema` (before defaults and transforms). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
}

function objectParts(name: string, json: JsonSchema) {
  if (json.type !== 'object')
    throw new Error(`MCP tool ${name}: its route's schema is not an object, so it cannot be tool arguments`);
  return {
    properties: (json.properties ?? {}) as Record<string, object>,
    required: (json.required ?? []) as string[],
    additionalProperties: json.additionalProperties,
    defs: (json.$defs ?? {}) as Record<string, unknown>,
  };
}

/**
 * A tool fronting several routes (generate_ai_video) takes the fields of all of them; a field is required only
 * when every route requires it. Route fields win over the tool's own arguments of the same name.
 */
export function toolInputSchema(tool: McpTool): Tool['inputSchema'] {
  const routes = tool.routes.flatMap((route) =>
    route.schema ? [objectParts(tool.name, inputJsonSchema(route.schema))] : [],
  );
  const own = objectParts(tool.name, inputJsonSchema(z.object({ ...tool.path, ...tool.extra })));
  const properties: Record<string, object> = {};
  const defs: Record<string, unknown> = {};
  for (const route of routes) {
    Object.assign(properties, route.properties);
    Object.assign(defs, route.defs);
  }
  for (const [field, schema] of Object.entries(own.properties)) properties[field] ??= schema;
  const routeRequired =
    routes.length === 0
      ? []
      : routes[0]!.required.filter((field) => routes.every((r) => r.required.includes(field)));
  const required = [...new Set([...own.required, ...routeRequired])];
  // Strict routes refuse unknown fields, loose ones (a fan-out body) pass them on: the tool says the same.
  const additional = routes.map((route) => JSON.stringify(route.additionalProperties));
  const sameAdditional = routes.length > 0 && additional.every((value) => value === additional[0]);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(sameAdditional && routes[0]!.additionalProperties !== undefined
      ? { additionalProperties: routes[0]!.additionalProperties }
      : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
