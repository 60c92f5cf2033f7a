// The arguments a tool takes besides its route's own body or query: the Idempotency-Key (an argument, since a
// tool call has no headers), the ids of a path, and the platform fields every Generate body may carry. Those
// last ones are taken out of the body before the mode's schema runs (platform/generation/parse-request.ts, which
// validates them), so a mode's schema does not list them; these schemas only describe them to MCP clients.
import { z } from 'zod';
import type { ModeDefinition } from '../platform/modes/mode.ts';
import { userUrl } from '../platform/net/user-url.ts';

export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotency_key';

/** Sent as the Idempotency-Key header; the route checks its length (spec 1 §8: 8-256 characters). */
export const idempotencyKeyField = z
  .string()
  .min(8)
  .max(256)
  .describe(
    'Sent as the Idempotency-Key header (8-256 characters), unique per intended job: the same key and arguments replay the first answer for 24 h and never charge twice.',
  );

/** An id taken from an earlier answer, placed in the route's path (percent-encoded). */
export const pathIdField = (what: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/,
      'must be an id of 1-128 letters, digits, _ . : - starting with a letter or digit',
    )
    .describe(what);

/** The platform fields a mode's route takes (spec 1 §4.1–4.2), as the mode declares them. */
export function generationFields(mode: ModeDefinition | undefined): Record<string, z.ZodType> {
  return {
    ...(mode === undefined || mode.dryRun
      ? {
          dry_run: z
            .boolean()
            .optional()
            .describe('true: validate and price only; no job, no charge, no idempotency_key needed.'),
        }
      : {}),
    ...(mode === undefined || mode.webhooks
      ? { webhook_url: userUrl.optional().describe('Public https URL for one signed completion callback.') }
      : {}),
    ...(mode === undefined || mode.privateDelivery
      ? {
          delivery: z
            .strictObject({ visibility: z.literal('private') })
            .optional()
            .describe('Private delivery: files reachable only through signed links.'),
        }
      : {}),
    listing: z
      .enum(['private', 'public'])
      .optional()
      .describe('public lists the video on its public page; private (default) does not.'),
    agent_run_id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Your trace id, echoed in the receipt meta and the webhook body.'),
  };
}
