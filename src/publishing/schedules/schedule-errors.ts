// Errors of the schedule routes that src/platform/errors.ts does not have yet.
import { ApiError } from '../../platform/errors.ts';

export const scheduleErrors = {
  notFound: (scheduleId: string) =>
    new ApiError(
      404,
      'SCHEDULE_NOT_FOUND',
      `Schedule ${scheduleId} was not found. List yours with GET /api/v1/schedules.`,
    ),
  limitReached: (limit: number) =>
    new ApiError(
      409,
      'SCHEDULE_LIMIT_REACHED',
      `This account already has ${limit} schedules, the most it may keep. Delete one (DELETE /api/v1/schedules/{id}) before creating another.`,
    ),
  /** Resuming a schedule whose recurrence has no occurrence left (COUNT or UNTIL reached). */
  ended: (scheduleId: string) =>
    new ApiError(
      409,
      'SCHEDULE_ENDED',
      `Schedule ${scheduleId} has no occurrence left (its COUNT or UNTIL was reached). Delete it, or create a new schedule.`,
    ),
  /** Creating a schedule is free but must never happen twice for one intent. */
  idempotencyKeyRequired: () =>
    new ApiError(
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'POST /schedules needs an Idempotency-Key header (8-256 characters), so a retried request never creates a second schedule.',
    ),
};

/** The run-history code of a tick that could not run because the schedule's API key was revoked. */
export const API_KEY_REVOKED = {
  code: 'API_KEY_REVOKED',
  message:
    'The API key that created this schedule has been revoked; the schedule was paused. Resume it with a valid key of the account: it then submits as that key.',
};
