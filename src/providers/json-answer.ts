import type { z } from 'zod';

/**
 * A chat model's JSON reply checked against its schema: the value, or a sentence saying what was wrong (sent
 * back to the model when it is asked again). Some models wrap JSON in a ```json fence despite the response
 * format, so a fence is dropped first.
 */
export function parseJsonAnswer<T extends z.ZodType>(
  content: string | null | undefined,
  schema: T,
): z.infer<T> | string {
  const text = (content ?? '').trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'the reply was not valid JSON';
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? parsed.data
    : `the JSON did not match the schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
}
