// The body of POST /articles (spec 1 §4.11): every rule here, each violation a field-named, free 400.
import { z } from 'zod';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../../platform/generation/parse-request.ts';

/** Spec 1 §8: topic up to 500 characters. */
const TOPIC_MAX_CHARS = 500;
const PILLAR_MAX_CHARS = 200;
const CONTENT_TYPES = ['trend', 'evergreen'] as const;

const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const phrase = (max: number) =>
  z
    .string(expected(`a string of 1-${max} characters`))
    .trim()
    .min(1, `must be 1-${max} characters`)
    .max(max, `must be 1-${max} characters`)
    .refine((text) => /[\p{L}\p{N}]/u.test(text), 'must contain a letter or a digit');

export const articleRequestSchema = z
  .strictObject({
    topic: phrase(TOPIC_MAX_CHARS).optional(),
    pillar: phrase(PILLAR_MAX_CHARS).optional(),
    contentType: z.enum(CONTENT_TYPES).default('evergreen'),
    autoPublish: z.boolean(expected('a boolean')).default(false),
    notifyDiscord: z.boolean(expected('a boolean')).default(false),
    agent_run_id: z
      .string(expected('a string of 1-200 characters'))
      .min(1, 'must be a string of 1-200 characters')
      .max(200, 'must be a string of 1-200 characters')
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.topic === undefined && body.pillar === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['topic'],
        message: 'or pillar is required: send at least one of them',
      });
  });

export type ArticleRequest = z.infer<typeof articleRequestSchema>;

/**
 * The request, validated. `dry_run: false` is accepted and ignored (a dry run itself is refused before this,
 * spec 1 §4.1 rule 3).
 */
export function parseArticleRequest(raw: unknown): ArticleRequest {
  if (!isPlainObject(raw))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const { dry_run: dryRun, ...body } = raw;
  const parsed = articleRequestSchema.safeParse(body);
  const issues = parsed.success ? [] : fieldIssues(parsed.error);
  if (dryRun !== undefined && dryRun !== false)
    issues.unshift({ field: 'dry_run', message: 'must be a boolean' });
  if (issues.length > 0 || !parsed.success) throw invalidInputError(issues);
  return parsed.data;
}
