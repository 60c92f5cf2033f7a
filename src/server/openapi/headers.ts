import { chargeHeaders } from '../../platform/generation/submit.ts';

// The response headers the document names, as `components.headers`. The charge headers are the ones
// chargeHeaders() sends (spec 1 §2.1), read from it so that a new one is documented too.

const CHARGE_DESCRIPTIONS: Record<string, string> = {
  'x-api-credits-cost-usd-cents': 'What this call charged, in US cents (0 for a sandbox key).',
  'x-api-credits-tool': 'The priced tool.',
  'x-api-credits-model': 'The model that serves the call (an unknown model id falls back to the default).',
  'x-api-credits-tier': 'The quality tier.',
  'x-api-credits-engine': 'The engine that renders it.',
  'x-api-credits-estimated-seconds': 'Typical render time, in seconds.',
};

/** Canonical spelling of a header name, as the spec writes it (X-Api-Credits-Cost-Usd-Cents). */
export function headerName(lowerCase: string): string {
  return lowerCase.replace(
    /(^|-)([a-z])/g,
    (_m, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}

export const CHARGE_HEADERS: readonly string[] = Object.keys(
  chargeHeaders({ usdCents: 0, breakdown: [], tool: '', model: '', tier: '', engine: '' }, 0),
).map(headerName);

const text = { type: 'string' };
const integer = { type: 'integer' };

export function headerComponents(): Record<string, Record<string, unknown>> {
  return {
    'X-Request-Id': {
      description:
        'The request id, also in meta.request_id; a caller-sent X-Request-Id of 8-128 safe characters is reused.',
      schema: text,
    },
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: integer },
    'X-Job-Id': { description: 'The id of the job this call made.', schema: text },
    'X-Idempotent-Replay': {
      description: 'true when this is a stored answer sent again (same Idempotency-Key, or identical body).',
      schema: { type: 'string', enum: ['true'] },
    },
    'X-Idempotent-Replay-Match': {
      description: 'What matched the stored answer: the Idempotency-Key, or an identical body.',
      schema: { type: 'string', enum: ['key', 'body'] },
    },
    ...Object.fromEntries(
      CHARGE_HEADERS.map((name) => [
        name,
        {
          description: CHARGE_DESCRIPTIONS[name.toLowerCase()] ?? 'A charge header (spec 1 §2.1).',
          schema: text,
        },
      ]),
    ),
  };
}

export function headerRef(name: string): Record<string, string> {
  return { $ref: `#/components/headers/${name}` };
}
