// Every SQL statement of topic usage (migrations/0010_topic_usage.sql): how often each pool topic of a brand
// has been planned, read before a plan and counted in the plan's charge transaction.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.ts';

export interface TopicUsage {
  uses: number;
  /** YYYY-MM-DD. */
  lastPlannedFor: string;
}

/** A topic as it is counted: case and spacing do not make a new topic. */
export function topicKey(topic: string): string {
  return topic.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export async function readTopicUsage(
  db: Executor,
  accountId: string,
  brandId: string,
): Promise<Map<string, TopicUsage>> {
  const { rows } = await sql<{ topic_key: string; uses: number; last_planned_for: string }>`
    SELECT topic_key, uses, to_char(last_planned_for, 'YYYY-MM-DD') AS last_planned_for
      FROM topic_usage
     WHERE account_id = ${accountId} AND brand_id = ${brandId}
  `.execute(db);
  return new Map(
    rows.map((row) => [row.topic_key, { uses: row.uses, lastPlannedFor: row.last_planned_for }]),
  );
}

export interface PlannedTopic {
  topic: string;
  /** YYYY-MM-DD. */
  date: string;
}

/** Counts one use per plan day a topic was given (a topic given twice in one plan counts twice). */
export async function recordTopicUsage(
  db: Executor,
  accountId: string,
  brandId: string,
  planned: readonly PlannedTopic[],
): Promise<void> {
  const byKey = new Map<string, { topic: string; uses: number; last: string }>();
  for (const { topic, date } of planned) {
    const key = topicKey(topic);
    const held = byKey.get(key);
    byKey.set(key, {
      topic,
      uses: (held?.uses ?? 0) + 1,
      last: held && held.last > date ? held.last : date,
    });
  }
  if (byKey.size === 0) return;
  const entries = [...byKey];
  await sql`
    INSERT INTO topic_usage (account_id, brand_id, topic_key, topic, uses, last_planned_for)
    SELECT ${accountId}, ${brandId}, u.topic_key, u.topic, u.uses, u.last_planned_for
      FROM unnest(
        ${entries.map(([key]) => key)}::text[],
        ${entries.map(([, v]) => v.topic)}::text[],
        ${entries.map(([, v]) => v.uses)}::int[],
        ${entries.map(([, v]) => v.last)}::date[]
      ) AS u(topic_key, topic, uses, last_planned_for)
    ON CONFLICT (account_id, brand_id, topic_key) DO UPDATE
      SET uses = topic_usage.uses + EXCLUDED.uses,
          topic = EXCLUDED.topic,
          last_planned_for = greatest(topic_usage.last_planned_for, EXCLUDED.last_planned_for),
          updated_at = now()
  `.execute(db);
}
