import type { ApiError } from './errors.ts';

// The response envelopes of spec 1 §7. Every JSON answer of /api/v1 is built by one of these.

export interface Meta extends Record<string, unknown> {
  request_id: string;
}

export function successBody(
  data: unknown,
  meta: Meta,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { success: true, data, ...extra, meta };
}

export function errorBody(error: ApiError, meta: Meta): Record<string, unknown> {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(error.details !== undefined ? { details: error.details } : {}),
    },
    meta,
  };
}
