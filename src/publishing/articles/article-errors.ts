// The refusals of POST /articles (docs/publishing.md). Each is free: nothing is charged before an article has
// passed its quality gates.
import { ApiError, errors } from '../../platform/errors.ts';
import type { GateResult } from './quality-gates.ts';

export const articleErrors = {
  /** A flag asks for a destination this server has no settings for. */
  destinationNotConfigured: (field: 'autoPublish' | 'notifyDiscord', what: string, variables: string) =>
    errors.inputInvalid(
      `Invalid request: ${field} needs ${what}, which this server does not have: its operator sets ${variables}. Nothing was charged; send ${field}: false to get the article without it.`,
      [{ field, message: `needs ${what}; the server operator sets ${variables}` }],
    ),

  /**
   * The article failed one or more quality gates (422 of spec 1 §4.11). Retryable when an LLM wrote it (another
   * draft may pass); the local writer writes the same article from the same brief, so its failure is not.
   */
  qualityFailed: (failed: readonly GateResult[], writer: 'local' | 'llm') =>
    new ApiError(
      422,
      'ARTICLE_QUALITY_FAILED',
      `The article failed its quality gates: ${failed.map((g) => `${g.gate} (${g.message})`).join('; ')} Nothing was charged.${
        writer === 'llm'
          ? ' Retry with a new Idempotency-Key for another draft.'
          : ' Send a more specific topic, or use contentType "trend" for a story with reporting to draw on.'
      }`,
      {
        retryable: writer === 'llm',
        details: {
          writer,
          charged_usd_cents: 0,
          failed_gates: failed.map((g) => g.gate),
          gates: failed.map((g) => ({
            gate: g.gate,
            value: g.value,
            threshold: g.threshold,
            message: g.message,
          })),
        },
      },
    ),

  /** The configured LLM could not write the article (down, refusing, unusable replies). */
  writerUnavailable: (reason: string, retryable: boolean) =>
    new ApiError(
      503,
      'ARTICLE_WRITER_UNAVAILABLE',
      `The LLM that writes articles could not write this one: ${reason}. Nothing was charged.${retryable ? ' Retry in a minute.' : ''}`,
      { retryable, ...(retryable ? { headers: { 'retry-after': '60' } } : {}) },
    ),
};
