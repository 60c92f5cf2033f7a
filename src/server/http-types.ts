import type { Caller } from '../platform/generation/submit.ts';
import type { RouteDocs } from './openapi/route-docs.ts';

export type RateLimitClass = 'job_reads' | 'metadata';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined;
  }
  interface FastifyContextConfig {
    /** Whether the route needs an API key (default true). */
    auth?: boolean;
    rateLimit?: RateLimitClass;
    /** The route's entry in the OpenAPI document. */
    docs?: RouteDocs;
  }
}

export function callerOf(request: { caller: Caller | undefined }): Caller {
  if (!request.caller) throw new Error('route used without authentication');
  return request.caller;
}
