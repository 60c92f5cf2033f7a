// Request bodies and queries of /avatars (spec 1 §4.6; docs/presenters.md).
import { z } from 'zod';
import { userUrl } from '../../platform/net/user-url.ts';

export const AVATAR_ID_PATTERN = /^avatar_[0-9A-Za-z]{20}$/;
const NAME_MAX = 80;

const name = z
  .string()
  .trim()
  .min(1, `must be 1-${NAME_MAX} characters`)
  .max(NAME_MAX, `must be 1-${NAME_MAX} characters`);

/** POST /avatars: one photo of one person, and an optional name. */
export const createPersonaSchema = z.strictObject({
  image_url: userUrl,
  name: name.optional(),
  dry_run: z.boolean().optional(),
});
export type CreatePersonaInput = z.infer<typeof createPersonaSchema>;

/** POST /avatars/{avatar_id}/looks: another photo of the same person. */
export const addLookSchema = z.strictObject({
  image_url: userUrl,
  name: name.optional(),
});
export type AddLookInput = z.infer<typeof addLookSchema>;

export const listPersonasQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .default(20),
  cursor: z.string().regex(AVATAR_ID_PATTERN, 'must be the next_cursor of an earlier page').optional(),
});
export type ListPersonasQuery = z.infer<typeof listPersonasQuerySchema>;
