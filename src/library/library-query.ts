// The query of GET /b2b/library/videos and the path of GET /b2b/library/videos/{video_id} (spec 2 §4.4, §8).
import { z } from 'zod';
import { brandIdSchema } from '../brand/kits/kit-input.ts';
import { VIDEO_ID_PATTERN } from './library-ids.ts';

const PAGE_SIZE_RULE = 'must be a whole number from 1 to 100';

/** A 24-hex id as sent; upper-case hex digits are read as lower-case. */
const hexId = (rule: string) =>
  z
    .string()
    .transform((id) => id.toLowerCase())
    .pipe(z.string().regex(VIDEO_ID_PATTERN, rule));

export const libraryListQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ message: PAGE_SIZE_RULE })
    .int(PAGE_SIZE_RULE)
    .min(1, PAGE_SIZE_RULE)
    .max(100, PAGE_SIZE_RULE)
    .default(20),
  /** The next_cursor of the page before: the list continues below that video. */
  cursor: hexId('must be the next_cursor of an earlier page (24 hex characters)').optional(),
  customer_id: brandIdSchema.optional(),
  brand_id: brandIdSchema.optional(),
});
export type LibraryListQuery = z.infer<typeof libraryListQuerySchema>;

export const libraryVideoParamsSchema = z.strictObject({
  video_id: hexId('must be a library video id (24 hex characters)'),
});
