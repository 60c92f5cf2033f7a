import { z } from 'zod';
import { SHARED_ALIASES } from '../../platform/generation/parse-request.ts';
import type { ModeDefinition } from '../../platform/modes/mode.ts';
import type { JsonSchema, SchemaComponents } from './json-schema.ts';

// The body of a Generate route as a client sends it: the mode's schema, plus the platform fields that
// parseGenerateRequest (src/platform/generation/parse-request.ts) takes out before the mode's schema runs,
// plus the deprecated aliases it folds into their canonical names.

/** The platform fields of parseGenerateRequest, offered where the mode supports them. */
function platformFields(mode: ModeDefinition) {
  return z.object({
    ...(mode.dryRun
      ? {
          dry_run: z
            .boolean()
            .describe('Validate and price only: no job, no charge, no Idempotency-Key needed.'),
        }
      : {}),
    ...(mode.privateDelivery
      ? {
          delivery: z
            .object({ visibility: z.literal('private') })
            .describe('Private delivery: links expire after 24 h and the webhook carries none.'),
        }
      : {}),
    ...(mode.webhooks
      ? { webhook_url: z.url().describe('A public https URL: one signed callback when the job ends.') }
      : {}),
    agent_run_id: z.string().min(1).max(200).describe('A trace id echoed in the receipt meta and webhook.'),
    listing: z
      .enum(['private', 'public'])
      .describe('Whether the video is listed publicly (default private).'),
  });
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

export class GenerationBodies {
  private readonly refs = new Map<ModeDefinition, JsonSchema>();
  private readonly bodies = new Map<ModeDefinition, JsonSchema>();

  constructor(private readonly components: SchemaComponents) {}

  /** A reference to the mode's body, kept once in `components.schemas` (e.g. GenerateAndPostRequest). */
  ref(mode: ModeDefinition): JsonSchema {
    let ref = this.refs.get(mode);
    if (!ref) {
      // Named by route, which is unique: the earlier-format clip route serves the clip mode with its own body.
      ref = this.components.add(`${pascal(mode.endpoint)}Request`, this.body(mode));
      this.refs.set(mode, ref);
    }
    return ref;
  }

  /**
   * The mode's body with one more field that chooses the mode (POST /jobs `operation`), required unless the
   * mode is the default one.
   */
  withSelector(mode: ModeDefinition, field: string, isDefault: boolean): JsonSchema {
    const selector = selectorSchema(mode, field, isDefault);
    // A closed body must list the field among its own properties; an open one is combined with it.
    if (this.body(mode).additionalProperties !== false) return { allOf: [this.ref(mode), selector] };
    const body = structuredClone(this.body(mode));
    Object.assign(body.properties as JsonSchema, selector.properties);
    if (!isDefault) body.required = [...((body.required as string[] | undefined) ?? []), field];
    return body;
  }

  private body(mode: ModeDefinition): JsonSchema {
    const known = this.bodies.get(mode);
    if (known) return known;
    const schema = this.components.convert(mode.schema, 'input');
    const body = isObjectSchema(schema) ? this.extend(mode, schema) : schema;
    this.bodies.set(mode, body);
    return body;
  }

  private extend(mode: ModeDefinition, schema: JsonSchema): JsonSchema {
    const platform = this.components.convert(platformFields(mode), 'input');
    const properties: Record<string, JsonSchema> = {
      ...(schema.properties as Record<string, JsonSchema>),
      ...(platform.properties as Record<string, JsonSchema>),
    };
    const keep = new Set(mode.keepFields ?? []);
    for (const [alias, canonical] of Object.entries({ ...SHARED_ALIASES, ...mode.aliases })) {
      const target = properties[canonical];
      if (keep.has(alias) || alias in properties || !target) continue;
      properties[alias] = {
        ...target,
        deprecated: true,
        description: `Deprecated alias of ${canonical} (${canonical} wins when both are sent).`,
      };
    }
    return { ...schema, properties };
  }
}

function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === 'object' && typeof schema.properties === 'object';
}

function selectorSchema(mode: ModeDefinition, field: string, isDefault: boolean): JsonSchema {
  return {
    type: 'object',
    properties: { [field]: { const: mode.name, description: `Runs the ${mode.name} mode.` } },
    ...(isDefault ? {} : { required: [field] }),
  };
}
