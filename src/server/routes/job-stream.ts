import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { isFinal, type JobStatus } from '../../platform/jobs/job-status.ts';
import {
  findJob,
  JOB_EVENTS_CHANNEL,
  listJobEvents,
  type ProgressEvent,
} from '../../platform/jobs/jobs-repo.ts';
import { presentArtifacts } from '../../platform/jobs/job-presenter.ts';
import { verifyStreamToken } from '../../platform/jobs/stream-token.ts';
import type { AppContext } from '../app-context.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

interface StreamMessage {
  type: 'progress';
  job_id: string;
  progress: number;
  status: string;
  stage: string;
  message: string;
  url: string | null;
  at: string;
}

const STREAM_DOCS: RouteDocs = {
  summary: 'Progress stream (WebSocket)',
  description:
    "Open with a WebSocket client at the receipt's websocket_url: the signed token in its query authorizes it, no API key.",
  tags: ['Jobs'],
  query: z.object({ token: z.string().describe('The signed stream token of the receipt websocket_url.') }),
};

/**
 * GET /api/v1/jobs/{id}/stream?token=…: a WebSocket of progress messages. History is replayed first;
 * after that each new event arrives via PostgreSQL NOTIFY, whichever process runs the job.
 */
export function registerJobStreamRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { jobId: string }; Querystring: { token?: string } }>(
    '/api/v1/jobs/:jobId/stream',
    { websocket: true, config: { auth: false, docs: STREAM_DOCS } },
    (socket: WebSocket, request) => {
      const { jobId } = request.params;
      if (!verifyStreamToken(ctx.streamSecret, jobId, request.query.token ?? '')) {
        socket.close(4401, 'invalid or expired stream token');
        return;
      }
      let lastId = 0;
      let closed = false;
      let pumping = Promise.resolve();

      const send = (event: ProgressEvent, url: string | null) => {
        const message: StreamMessage = {
          type: 'progress',
          job_id: jobId,
          progress: event.percent,
          status: event.status,
          stage: event.stage,
          message: event.message,
          url,
          at: event.at.toISOString(),
        };
        socket.send(JSON.stringify(message));
      };

      const pump = async () => {
        if (closed) return;
        let job = await findJob(ctx.db, jobId);
        if (!job) {
          socket.close(4404, 'job not found');
          closed = true;
          return;
        }
        const finishedAt = job.finished_at ? new Date(job.finished_at).getTime() : undefined;
        const historyExpired =
          finishedAt !== undefined && Date.now() - finishedAt > ctx.config.progressHistorySeconds * 1000;
        const events = historyExpired ? [] : await listJobEvents(ctx.db, jobId, lastId);
        // A final event is written in the same transaction as the final status: if one arrived after the job
        // was read, read the job again so the last message carries its link.
        if (!isFinal(job.status as JobStatus) && events.some((e) => isFinal(e.status as JobStatus))) {
          job = (await findJob(ctx.db, jobId)) ?? job;
        }
        const final = isFinal(job.status as JobStatus);
        const link =
          final && job.status === 'completed' && !job.private_delivery
            ? ((presentArtifacts(job, ctx.store).videoUrl as string | undefined) ?? null)
            : null;
        for (const event of events) {
          lastId = event.id;
          send(event, isFinal(event.status as JobStatus) ? link : null);
        }
        if (historyExpired && lastId === 0) {
          send(
            {
              id: 0,
              at: new Date(job.updated_at),
              status: job.status,
              stage: job.status,
              message: 'Progress history has expired.',
              percent: 100,
              url: null,
            },
            link,
          );
        }
        if (final) {
          closed = true;
          socket.close(1000, job.status);
        }
      };
      const schedule = () => {
        pumping = pumping
          .then(pump)
          .catch((error: unknown) => request.log.warn({ err: error }, 'progress stream failed'));
      };
      const unsubscribe = ctx.notifications.on(JOB_EVENTS_CHANNEL, (payload) => {
        if (payload === jobId || payload === '') schedule();
      });
      socket.on('close', () => {
        closed = true;
        unsubscribe();
      });
      schedule();
    },
  );
}
