// Spec 1 §4.5 `variations`: one topic as up to five videos, each its own job at the single price, and a
// verdict on how distinct their scripts came out. Each variant's script is written as its own take of the
// brief (the local writer avoids the lines earlier takes said; the LLM is told which take it writes), so
// wording and hook differ; `angle` also gives each its own content style, `content_type` its own content
// purpose, `presenter` its own persona from `presenters`.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import { FINAL_STATUSES, type JobStatus } from '../../platform/jobs/job-status.ts';
import { CONTENT_PURPOSES, CONTENT_STYLES } from '../../media/script/writer.ts';
import type { PresenterRequest } from './presenter-request.ts';

/** Two scripts sharing more than this share of their word trigrams read as the same video. */
export const SIMILAR_SCRIPTS = 0.5;

function rotate<T>(list: readonly T[], from: T | undefined, index: number): T {
  const start = from === undefined ? 0 : Math.max(0, list.indexOf(from));
  return list[(start + index) % list.length]!;
}

/** The requests of a variations request, in variant order; undefined for a request without variations. */
export function presenterVariants(request: PresenterRequest): PresenterRequest[] | undefined {
  const variations = request.variations;
  if (!variations) return undefined;
  const { count, vary, presenters } = variations;
  return Array.from({ length: count }, (_, index) => {
    const variant: PresenterRequest = { ...request, variant: { index, count, vary } };
    if (vary.includes('angle')) variant.content_style = rotate(CONTENT_STYLES, undefined, index);
    if (vary.includes('content_type'))
      variant.content_purpose = rotate(CONTENT_PURPOSES, request.content_purpose, index);
    if (vary.includes('presenter') && presenters?.length)
      variant.avatar_id = presenters[index % presenters.length]!;
    return variant;
  });
}

function trigrams(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const grams = new Set<string>();
  for (let i = 0; i + 2 < words.length; i++) grams.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return grams;
}

/** Shared word trigrams over all the trigrams of both scripts (Jaccard), 0 … 1. */
export function scriptSimilarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  if (x.size === 0 || y.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const gram of x) if (y.has(gram)) shared++;
  return shared / (x.size + y.size - shared);
}

export interface Distinctness {
  /** pending until every variant has finished; then distinct or similar (not_comparable: fewer than two scripts). */
  status: 'pending' | 'distinct' | 'similar' | 'not_comparable';
  pairs?: { job_ids: [string, string]; similarity: number }[];
  failed_job_ids?: string[];
}

/** The verdict on a set of variant jobs, read from their records (so a replayed receipt shows the latest). */
export async function variationDistinctness(
  jobIds: string[],
  db: Db,
): Promise<{ distinctness: Distinctness }> {
  const rows = await sql<{ id: string; status: JobStatus; script: string | null }>`
    SELECT id, status, artifacts->>'script' AS script FROM jobs WHERE id IN (${sql.join(jobIds)})`.execute(
    db,
  );
  const byId = new Map(rows.rows.map((row) => [row.id, row]));
  if (jobIds.some((id) => !FINAL_STATUSES.includes(byId.get(id)?.status ?? 'queued')))
    return { distinctness: { status: 'pending' } };
  const written = jobIds.filter((id) => byId.get(id)!.status === 'completed' && byId.get(id)!.script);
  const failed = jobIds.filter((id) => !written.includes(id));
  const pairs: Distinctness['pairs'] = [];
  for (let i = 0; i < written.length; i++)
    for (let j = i + 1; j < written.length; j++) {
      const similarity = scriptSimilarity(byId.get(written[i]!)!.script!, byId.get(written[j]!)!.script!);
      pairs.push({ job_ids: [written[i]!, written[j]!], similarity: Math.round(similarity * 1000) / 1000 });
    }
  const status =
    written.length < 2
      ? 'not_comparable'
      : pairs.every((p) => p.similarity < SIMILAR_SCRIPTS)
        ? 'distinct'
        : 'similar';
  return {
    distinctness: { status, pairs, ...(failed.length > 0 ? { failed_job_ids: failed } : {}) },
  };
}
