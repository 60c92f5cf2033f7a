import { z } from 'zod';

/**
 * The JSON Schema (draft 2020-12) of a Zod schema: what a body may hold ('input', before defaults and
 * transforms) or what an answer holds ('output'). Checks no JSON Schema can say (refinements) are left out.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
}
