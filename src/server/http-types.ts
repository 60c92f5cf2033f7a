import type { Caller } from '../platform/generation/submit.ts';

export type RateLimitClass = 'job_reads' | 'metadata';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | undefined;
  }
  interface FastifyContextConfig {
    /** Whether the route needs an API key (default true). */
    auth?: boolean;
    rateLimit?: RateLimitClass;
  }
}

export function callerOf(request: { caller: Caller | undefined }): Caller {
  if (!request.caller) throw new Error('route used without authentication');
  return request.caller;
}
