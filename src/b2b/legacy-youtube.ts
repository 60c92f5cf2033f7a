// The earlier-format clip route of spec 2 §4.9 as /b2b/contracts describes it (`legacy_youtube`): its body is
// the clip mode's legacy schema; its answer is the one src/server/routes/clip-video.ts sends (legacyAnswer).
import { z } from 'zod';
import { legacyClipRequestSchema } from '../modes/clipper/legacy-clip-request.ts';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import { jsonSchemaOf } from './json-schema.ts';

export const LEGACY_CLIP_PATH = '/api/clip-video';

/** 200 `{ success, message, taskId, videoId }`: taskId is the job id, polled at GET /api/v1/jobs/{taskId}. */
export const legacyClipReceiptSchema = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  taskId: z.string(),
  videoId: z.string(),
});

/** Every error of the route: `{ success: false, message, error }` with the error code in `error`. */
export const legacyClipErrorSchema = z.strictObject({
  success: z.literal(false),
  message: z.string(),
  error: z.string(),
});

const LIMITATIONS = [
  'video_type 2 (the default) takes a video-site address only; other types take a public https link to the media file itself, fetched through the URL guard.',
  'templateId is accepted for compatibility and changes nothing: there are no clip templates.',
  'No dry runs, webhooks or private delivery on this route; use POST /api/v1/clipper/vidsite for them.',
  'user_id must name the calling account (its id or name); any other value is 404 USER_NOT_FOUND.',
  'Too little credit is 400 INSUFFICIENT_API_CREDITS (the older status), not 402.',
  'The Idempotency-Key is accepted, not required; the same key and body replay the first answer.',
  'The answer names the job (taskId); clips, links and status are read from GET /api/v1/jobs/{taskId}.',
];

export function legacyYoutubeContract(registry: ModeRegistry) {
  return {
    served: registry.get('clip') !== undefined,
    method: 'POST',
    path: LEGACY_CLIP_PATH,
    input_schema: jsonSchemaOf(legacyClipRequestSchema, 'input'),
    receipt_data_schema: jsonSchemaOf(legacyClipReceiptSchema, 'output'),
    error_schema: jsonSchemaOf(legacyClipErrorSchema, 'output'),
    poll: 'GET /api/v1/jobs/{taskId}',
    limitations: LIMITATIONS,
  };
}
