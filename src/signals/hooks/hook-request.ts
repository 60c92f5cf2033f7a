// The body of POST /hooks/generate (spec 2 §4.1): every rule here, each violation a field-named 400.
import { z } from 'zod';
import { DEFAULT_HOOK_PLATFORM, HOOK_PLATFORMS } from './hook-platforms.ts';

export const TOPIC_MAX_CHARS = 300;
export const MAX_HOOKS = 10;
export const DEFAULT_HOOK_COUNT = 5;

const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

export const hookRequestSchema = z.strictObject({
  topic: z
    .string(expected('a string'))
    .trim()
    .min(1, `must be 1-${TOPIC_MAX_CHARS} characters`)
    .max(TOPIC_MAX_CHARS, `must be 1-${TOPIC_MAX_CHARS} characters`)
    .refine((topic) => /[\p{L}\p{N}]/u.test(topic), 'must contain a letter or a digit'),
  count: z
    .number(expected(`an integer 1-${MAX_HOOKS}`))
    .int(`must be an integer 1-${MAX_HOOKS}`)
    .min(1, `must be an integer 1-${MAX_HOOKS}`)
    .max(MAX_HOOKS, `must be an integer 1-${MAX_HOOKS}`)
    .default(DEFAULT_HOOK_COUNT),
  platform: z.enum(HOOK_PLATFORMS).default(DEFAULT_HOOK_PLATFORM),
});

export type HookRequest = z.infer<typeof hookRequestSchema>;
