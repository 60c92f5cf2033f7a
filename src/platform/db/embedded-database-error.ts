/**
 * The embedded PostgreSQL cannot be used as things stand; the message is one sentence saying what to change.
 * Entry points print it alone, without a stack.
 */
export class EmbeddedDatabaseError extends Error {
  override name = 'EmbeddedDatabaseError';
}
