import { EmbeddedDatabaseError } from '../platform/db/embedded-database-error.ts';

/**
 * An embedded database that cannot start is the operator's to fix: an entry point prints the one sentence
 * saying what to change, without a stack, and exits. Anything else is rethrown.
 */
export function exitIfDatabaseCannotStart(error: unknown): never {
  if (!(error instanceof EmbeddedDatabaseError)) throw error;
  process.stderr.write(`reelsmith: ${error.message}\n`);
  process.exit(1);
}
