import type { z } from 'zod';
import type { ModeDefinition } from '../../platform/modes/mode.ts';

/** An error a route may answer: a code of src/platform/errors.ts, or any error with its HTTP status. */
export type ErrorDoc = string | { status: number; code: string };

/**
 * What a route says about itself for the OpenAPI document (`config.docs` of its Fastify route options). The
 * schemas are the same Zod schemas the route validates with, so the document cannot drift from the code.
 */
export interface RouteDocs {
  summary: string;
  description?: string;
  /** Groups in the reference page, e.g. ["Generate"], ["Jobs"], ["Library"]. */
  tags: string[];
  body?: z.ZodType;
  /** Whether a request must carry a body (default true when `body` or `consumes` is set). */
  bodyRequired?: boolean;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The `data` of a success envelope. */
  response?: z.ZodType;
  /** The HTTP status of a success (default 200). */
  successStatus?: number;
  /** Other statuses a success may have (same envelope), e.g. 202 still processing: status → when. */
  otherStatuses?: Record<number, string>;
  /** The route charges the account: the answer carries the X-Api-Credits-* headers, a 402 is possible. */
  paid?: boolean;
  idempotency?: 'required' | 'recommended' | 'none';
  /** Error codes this route answers besides the ones every authenticated route may answer. */
  errors?: ErrorDoc[];
  /**
   * A Generate route: the body is a mode's schema plus the platform fields every Generate body may carry
   * (dry_run, delivery, webhook_url, agent_run_id, listing) and its field aliases; price, idempotency, dry run,
   * receipt status and mode-specific errors come from the mode. Several modes: the body is any one of them,
   * chosen by `selector` (POST /jobs: `operation`), except modes with a route of their own (`ownRoute`),
   * which their own fields select.
   */
  generation?: {
    modes: readonly ModeDefinition[];
    selector?: { field: string; default: string };
  };
  /** The request body is not JSON but a file of one of these media types (an upload); `body` is unused. */
  consumes?: string[];
  /** The success answer is not the JSON envelope but a file or page of one of these media types. */
  produces?: string[];
  /**
   * The route answers in the older `{ success, message, error }` shape of spec 2 §4.9, not the envelope, with
   * `errorStatus` of the status the envelope would have.
   */
  legacy?: { errorStatus: (status: number) => number };
  /** The route is retired: it answers 410 MODE_NOT_AVAILABLE whatever it is sent. */
  retired?: boolean;
  deprecated?: boolean;
  /** Response headers of a success besides the common ones: name → what it holds. */
  headers?: Record<string, string>;
}
