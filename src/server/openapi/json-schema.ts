import { z } from 'zod';

// Zod schemas → JSON Schema 2020-12, the dialect of OpenAPI 3.1 schema objects. A schema's own `$defs` (a
// recursive schema, or one with a registered id) move to `components.schemas`: inside an OpenAPI document a
// `#/…` reference points at the document, not at the schema it was written in.

export type JsonSchema = Record<string, unknown>;

export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Adds a schema under `name` (made unique) and answers a reference to it. */
  add(name: string, schema: JsonSchema): JsonSchema {
    const unique = this.reserve(name);
    this.schemas[unique] = schema;
    return { $ref: refTo(unique) };
  }

  /** The JSON Schema of a Zod schema, as the client sends it (`input`) or receives it (`output`). */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema;
    delete converted.$schema;
    return this.hoist(converted);
  }

  /** Like `convert`, but kept in `components.schemas` under `name` and answered as a reference. */
  component(name: string, schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    return this.add(name, this.convert(schema, io));
  }

  private hoist(schema: JsonSchema): JsonSchema {
    const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
    delete schema.$defs;
    const selfReferencing = JSON.stringify(schema).includes('"$ref":"#"');
    if (Object.keys(defs).length === 0 && !selfReferencing) return schema;
    const base = `Schema${Object.keys(this.schemas).length + 1}`;
    const names = new Map(
      Object.keys(defs).map((def) => [def, this.reserve(`${base}_${def.replace(/^_+/, '')}`)]),
    );
    const rootName = selfReferencing ? this.reserve(base) : undefined;
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (typeof node !== 'object' || node === null) return node;
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => {
          if (key !== '$ref' || typeof value !== 'string') return [key, rewrite(value)];
          if (value === '#' && rootName) return [key, refTo(rootName)];
          const def = value.startsWith('#/$defs/') ? names.get(value.slice('#/$defs/'.length)) : undefined;
          return [key, def ? refTo(def) : value];
        }),
      );
    };
    for (const [def, name] of names) this.schemas[name] = rewrite(defs[def]) as JsonSchema;
    const root = rewrite(schema) as JsonSchema;
    if (!rootName) return root;
    this.schemas[rootName] = root;
    return { $ref: refTo(rootName) };
  }

  /** A free name in `components.schemas`, taken at once. */
  private reserve(name: string): string {
    const clean = name.replace(/[^A-Za-z0-9._-]/g, '_');
    let unique = clean;
    for (let n = 2; unique in this.schemas; n++) unique = `${clean}${n}`;
    this.schemas[unique] = {};
    return unique;
  }
}

function refTo(name: string): string {
  return `#/components/schemas/${name}`;
}
