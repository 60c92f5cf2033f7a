import { randomBytes } from 'node:crypto';
import type { Executor } from './db/database.ts';

/** A server-wide secret shared by every process through the database (signing media links, stream tokens). */
export async function serverSecret(ex: Executor, name: string): Promise<string> {
  await ex
    .insertInto('settings')
    .values({ key: name, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await ex
    .selectFrom('settings')
    .select('value')
    .where('key', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
