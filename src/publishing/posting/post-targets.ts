// What a publish request says about where and how to post, shared by POST /post and fan-out jobs: the
// platforms (1–5, each connected on the account), the copy (caption, title, hashtags) and per-platform options
// checked by each platform client's own schema. Everything here is checked before anything is charged.
import { z } from 'zod';
import { type ApiError, errors, type FieldIssue } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { PLATFORMS, type PlatformId } from '../platforms/platform.ts';
import type { Publishing } from '../publishing.ts';

export const MAX_PLATFORMS = 5;

/** The publish fields of a request body (zod shape, merged into each route's schema). */
export const publishFields = {
  platforms: z
    .array(z.enum(PLATFORMS))
    .min(1)
    .max(MAX_PLATFORMS)
    .refine((list) => new Set(list).size === list.length, 'lists a platform twice'),
  caption: z.string().trim().min(1).max(2200).optional(),
  title: z.string().trim().min(1).max(100).optional(),
  hashtags: z
    .array(
      z
        .string()
        .trim()
        .regex(/^#?[\p{L}\p{N}_]{1,100}$/u, 'must be one word of letters, digits or _ (the # is optional)'),
    )
    .max(30)
    .optional(),
  platform_options: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
};

/** One platform of a publish job, resolved: its connection and its checked options. */
export interface PostTarget {
  platform: PlatformId;
  connection_id: string;
  options: Record<string, unknown>;
}

/** The words posted with the video; what is absent is taken from the video's own title, description and hashtags. */
export interface PostCopy {
  caption?: string;
  title?: string;
  hashtags?: string[];
}

/**
 * Each platform connected and active on the account, and its options valid for that platform: the targets to
 * post to, or a free 400 naming the field.
 */
export async function resolveTargets(
  publishing: Publishing,
  accountId: string,
  platforms: readonly PlatformId[],
  platformOptions: Record<string, Record<string, unknown>> | undefined,
): Promise<PostTarget[]> {
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(platformOptions ?? {}))
    if (!platforms.includes(key as PlatformId))
      issues.push({
        field: `platform_options.${key}`,
        message: `names a platform this request does not post to (platforms: ${platforms.join(', ')})`,
      });
  const targets: PostTarget[] = [];
  let refusal: ApiError | undefined;
  for (const [index, platform] of platforms.entries()) {
    const parsed = publishing.clients[platform].optionsSchema.safeParse(platformOptions?.[platform] ?? {});
    if (!parsed.success) {
      issues.push(...fieldIssues(parsed.error, `platform_options.${platform}.`));
      continue;
    }
    const connection = await publishing.connections.forPlatform(accountId, platform);
    if (!connection || connection.status !== 'active') {
      refusal ??= errors.platformNotConnected(
        `platforms[${index}]`,
        platform,
        connection ? 'expired' : 'missing',
      );
      continue;
    }
    targets.push({
      platform,
      connection_id: connection.id,
      options: parsed.data as Record<string, unknown>,
    });
  }
  if (issues.length > 0) throw invalidInputError(issues);
  if (refusal) throw refusal;
  return targets;
}

/** Posting needs the token key; without it the request is refused before anything else is checked. */
export function requirePublishing(publishing: Publishing): void {
  if (!publishing.connections.configured) throw errors.publishingNotConfigured();
}
