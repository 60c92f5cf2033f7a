// The earlier-format clip route of document 2 §4.9, POST /api/clip-video: the clip mode's pipeline, price and
// jobs behind the older body and answer shapes. Success: 200 { success, message, taskId, videoId } (taskId is
// the job id, pollable at GET /api/v1/jobs/{id}); every error: { success: false, message, error } with the
// error code in `error`. Mapping and decisions: docs/clips.md.

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { findAccount } from '../../platform/accounts/accounts.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Answer } from '../../platform/generation/submit.ts';
import type { ModeDefinition } from '../../platform/modes/mode.ts';
import { legacyClipMode } from '../../modes/clipper/clip-mode.ts';
import type { ClipRequest } from '../../modes/clipper/clip-request.ts';
import { sentUserId } from '../../modes/clipper/legacy-clip-request.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import { idempotencyKeyOf, repeatTokenOf } from './send-answer.ts';

export const CLIP_VIDEO_PATH = '/api/clip-video';

/** The older error statuses: 400 for invalid data and for too little credit, 404 for an unknown user, 500 for ours. */
export function legacyStatus(status: number): number {
  if (status === 402) return 400;
  return status >= 500 ? 500 : status;
}

export function legacyError(code: string, message: string): Record<string, unknown> {
  return { success: false, message, error: code };
}

/** An envelope answer of the generation service, in the older shape. */
export function legacyAnswer(answer: Answer): { status: number; body: Record<string, unknown> } {
  const body = answer.body as {
    success?: boolean;
    data?: { job_id?: string; video_id?: string; requested_clip_count?: number };
    error?: { code?: string; message?: string };
  };
  if (body.success && body.data?.job_id) {
    const count = body.data.requested_clip_count;
    return {
      status: 200,
      body: {
        success: true,
        message: `Clipping started${count ? ` (up to ${count} clip${count === 1 ? '' : 's'})` : ''}; poll GET /api/v1/jobs/${body.data.job_id} for the clips.`,
        taskId: body.data.job_id,
        videoId: body.data.video_id,
      },
    };
  }
  return {
    status: legacyStatus(answer.status),
    body: legacyError(body.error?.code ?? 'INTERNAL_ERROR', body.error?.message ?? 'The request failed.'),
  };
}

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  const { status, body } = legacyAnswer(answer);
  if (answer.replay) {
    void reply.header('x-idempotent-replay', 'true').header('x-idempotent-replay-match', answer.replay);
  }
  return reply.status(status).headers(answer.headers).send(body);
}

/** `user_id` names the caller's own account: its id (acct_…) or its name. Anything else is an unknown user. */
async function isCallersAccount(ctx: AppContext, accountId: string, userId: string): Promise<boolean> {
  if (userId === accountId) return true;
  const account = await findAccount(ctx.db, accountId);
  return account?.name === userId;
}

export function registerClipVideoRoute(app: FastifyInstance, ctx: AppContext): void {
  const clip = ctx.registry.get('clip') as ModeDefinition<ClipRequest> | undefined;
  if (!clip) return;
  const mode = legacyClipMode(clip);
  app.post(CLIP_VIDEO_PATH, {
    config: {
      docs: {
        summary: 'Clip a video (earlier format)',
        description:
          'The clip mode behind the older body and answers of spec 2 §4.9: 200 { success, message, taskId, videoId }, errors { success: false, message, error } (402 is sent as 400). Poll GET /api/v1/jobs/{taskId}. Prefer POST /api/v1/clipper/vidsite.',
        tags: ['Generate'],
        generation: { modes: [mode] },
        legacy: { errorStatus: legacyStatus },
        deprecated: true,
        errors: [{ status: 404, code: 'USER_NOT_FOUND' }],
      },
    },
    // Authentication, body-parsing and unexpected errors of this route also answer in the older shape.
    errorHandler: (error: FastifyError | Error, request, reply) => {
      const apiError = error instanceof ApiError ? error : undefined;
      const status = apiError?.status ?? (error as FastifyError).statusCode ?? 500;
      if (status >= 500) request.log.error({ err: error }, 'unhandled error');
      void reply
        .status(legacyStatus(status))
        .headers(apiError?.headers ?? {})
        .send(
          status >= 500 && !apiError
            ? legacyError('INTERNAL_ERROR', 'Something went wrong on our side. It has been logged.')
            : legacyError(apiError?.code ?? 'INPUT_INVALID', error.message),
        );
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const userId = sentUserId(request.body);
      if (userId !== undefined && !(await isCallersAccount(ctx, caller.accountId, userId))) {
        return reply
          .status(404)
          .send(legacyError('USER_NOT_FOUND', `No user ${userId} is reachable with this API key.`));
      }
      const answer = await ctx.generation.submit({
        caller,
        mode,
        body: request.body,
        requestId: request.id,
        idempotencyKey: idempotencyKeyOf(request),
        repeatToken: repeatTokenOf(request),
        endpoint: mode.endpoint,
      });
      return send(reply, answer);
    },
  });
}
