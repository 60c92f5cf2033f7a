// Series memory (spec 1 §4.5; migrations/0013_presenter_series.sql): the first video of a series fixes its
// presenter, voice and engine; a later video that names another one, or repeats a topic, is refused (409, free).
// Runs in the transaction that accepts the job, so a refusal rolls the job back before anything is charged.
import { sql } from 'kysely';
import type { Executor, Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/errors.ts';
import type { PresenterRequest } from './presenter-request.ts';

/** The topic of a video as the series remembers it: lowercased, punctuation and spacing collapsed. */
export function topicKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function presenterOf(request: PresenterRequest): string {
  if (request.avatar_id) return request.avatar_id;
  if (request.image_url) return `photo:${request.image_url}`;
  return 'logo_host';
}

/** Jobs whose topic no longer counts: a failed or cancelled video was never delivered. */
const UNDELIVERED = ['failed', 'cancelled', 'dead_lettered'];

export async function claimSeriesVideo(
  tx: Tx,
  request: PresenterRequest,
  job: { id: string; accountId: string },
): Promise<void> {
  const seriesId = request.series_id;
  const brandId = request.brand_id;
  if (!seriesId || !brandId) return;
  const presenter = presenterOf(request);
  const engine = request.priced_as;
  const key = topicKey(request.topic ?? request.script ?? '');

  await sql`
    INSERT INTO presenter_series (account_id, brand_id, series_id, presenter, voice_id, engine, first_job_id)
    VALUES (${job.accountId}, ${brandId}, ${seriesId}, ${presenter}, ${request.voice_id ?? null}, ${engine}, ${job.id})
    ON CONFLICT DO NOTHING`.execute(tx);
  const fixed = await sql<{ presenter: string; voice_id: string | null; engine: string }>`
    SELECT presenter, voice_id, engine FROM presenter_series
    WHERE account_id = ${job.accountId} AND brand_id = ${brandId} AND series_id = ${seriesId}
    FOR UPDATE`.execute(tx);
  const series = fixed.rows[0]!;
  if (series.presenter !== presenter)
    throw errors.seriesConflict(
      seriesId,
      request.avatar_id ? 'avatar_id' : request.image_url ? 'image_url' : 'host',
      series.presenter,
    );
  if (request.voice_id !== undefined && series.voice_id !== null && series.voice_id !== request.voice_id)
    throw errors.seriesConflict(seriesId, 'voice_id', series.voice_id);
  if (series.engine !== engine) throw errors.seriesConflict(seriesId, 'engine', series.engine);

  // A variations request is one topic: its first variant claims it for the set.
  if (request.variant && request.variant.index > 0) return;
  const previous = await sql<{ job_id: string; status: string | null }>`
    SELECT t.job_id, j.status FROM presenter_series_topics t LEFT JOIN jobs j ON j.id = t.job_id
    WHERE t.account_id = ${job.accountId} AND t.brand_id = ${brandId} AND t.series_id = ${seriesId}
      AND t.topic_key = ${key}`.execute(tx);
  const earlier = previous.rows[0];
  if (earlier && !UNDELIVERED.includes(earlier.status ?? 'failed'))
    throw errors.seriesTopicRepeated(seriesId);
  await sql`
    INSERT INTO presenter_series_topics (account_id, brand_id, series_id, topic_key, job_id)
    VALUES (${job.accountId}, ${brandId}, ${seriesId}, ${key}, ${job.id})
    ON CONFLICT (account_id, brand_id, series_id, topic_key) DO UPDATE SET job_id = EXCLUDED.job_id,
      created_at = now()`.execute(tx);
}

export interface FixedSeries {
  presenter: string;
  voiceId: string | null;
  engine: string;
}

/** What a series' first video fixed, for a later video that leaves engine or voice out (it inherits them). */
export async function readSeries(
  db: Executor,
  accountId: string,
  brandId: string,
  seriesId: string,
): Promise<FixedSeries | undefined> {
  const row = await sql<{ presenter: string; voice_id: string | null; engine: string }>`
    SELECT presenter, voice_id, engine FROM presenter_series
    WHERE account_id = ${accountId} AND brand_id = ${brandId} AND series_id = ${seriesId}`.execute(db);
  const found = row.rows[0];
  return found && { presenter: found.presenter, voiceId: found.voice_id, engine: found.engine };
}
