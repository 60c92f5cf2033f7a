// Every SQL statement of AI-video shots (migrations/0011_ai_video_shots.sql): the durable record that lets a
// retried job reuse finished shots and follow, never resubmit, a shot a provider already has.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';
import type { SubmittedShot } from '../../providers/video-models/video-model-provider.ts';
import type { AiVideoEngine } from '../../platform/pricing/ai-video-price.ts';

export type ShotStatus = 'planned' | 'submitted' | 'completed' | 'failed';

export interface ShotRecord {
  index: number;
  engine: AiVideoEngine;
  providerModel: string | null;
  prompt: string;
  seconds: number;
  costUsdCents: number;
  status: ShotStatus;
  providerRequestId: string | null;
  submission: SubmittedShot | null;
  resultUrl: string | null;
  source: Record<string, unknown>;
  error: string | null;
}

interface Row {
  shot_index: number;
  engine: AiVideoEngine;
  provider_model: string | null;
  prompt: string;
  seconds: number;
  cost_usd_cents: number;
  status: ShotStatus;
  provider_request_id: string | null;
  submission: SubmittedShot | null;
  result_url: string | null;
  source: Record<string, unknown>;
  error: string | null;
}

function fromRow(row: Row): ShotRecord {
  return {
    index: row.shot_index,
    engine: row.engine,
    providerModel: row.provider_model,
    prompt: row.prompt,
    seconds: Number(row.seconds),
    costUsdCents: Number(row.cost_usd_cents),
    status: row.status,
    providerRequestId: row.provider_request_id,
    submission: row.submission,
    resultUrl: row.result_url,
    source: row.source,
    error: row.error,
  };
}

export async function readShots(db: Executor, jobId: string): Promise<ShotRecord[]> {
  const { rows } = await sql<Row>`
    SELECT shot_index, engine, provider_model, prompt, seconds, cost_usd_cents, status, provider_request_id,
           submission, result_url, source, error
      FROM ai_video_shots WHERE job_id = ${jobId} ORDER BY shot_index
  `.execute(db);
  return rows.map(fromRow);
}

/** Writes the planned shots once: a retried attempt keeps the rows (and the progress) of the first. */
export async function planShotRecords(
  db: Executor,
  jobId: string,
  shots: Omit<ShotRecord, 'status' | 'providerRequestId' | 'submission' | 'resultUrl' | 'error'>[],
): Promise<ShotRecord[]> {
  for (const shot of shots) {
    await sql`
      INSERT INTO ai_video_shots (job_id, shot_index, engine, provider_model, prompt, seconds, cost_usd_cents,
                                  status, source)
      VALUES (${jobId}, ${shot.index}, ${shot.engine}, ${shot.providerModel}, ${shot.prompt}, ${shot.seconds},
              ${shot.costUsdCents}, 'planned', ${JSON.stringify(shot.source)}::jsonb)
      ON CONFLICT (job_id, shot_index) DO NOTHING
    `.execute(db);
  }
  return readShots(db, jobId);
}

/** Recorded the moment a provider accepts the shot, before anything waits on it. */
export async function markSubmitted(db: Executor, jobId: string, index: number, shot: SubmittedShot) {
  await sql`
    UPDATE ai_video_shots
       SET status = 'submitted', provider_request_id = ${shot.requestId},
           submission = ${JSON.stringify(shot)}::jsonb, updated_at = now()
     WHERE job_id = ${jobId} AND shot_index = ${index}
  `.execute(db);
}

export async function markCompleted(db: Executor, jobId: string, index: number, resultUrl: string | null) {
  await sql`
    UPDATE ai_video_shots SET status = 'completed', result_url = ${resultUrl}, error = NULL, updated_at = now()
     WHERE job_id = ${jobId} AND shot_index = ${index}
  `.execute(db);
}

export async function markFailed(db: Executor, jobId: string, index: number, error: string) {
  await sql`
    UPDATE ai_video_shots SET status = 'failed', error = ${error}, updated_at = now()
     WHERE job_id = ${jobId} AND shot_index = ${index}
  `.execute(db);
}

/** A shot whose provider request failed in a way worth another try: planned again, to be resubmitted. */
export async function markPlannedAgain(db: Executor, jobId: string, index: number, error: string) {
  await sql`
    UPDATE ai_video_shots
       SET status = 'planned', provider_request_id = NULL, submission = NULL, error = ${error}, updated_at = now()
     WHERE job_id = ${jobId} AND shot_index = ${index}
  `.execute(db);
}
