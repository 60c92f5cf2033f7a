import { z } from 'zod';
import { userUrl } from '../../platform/net/user-url.ts';
import { CAPTION_POSITIONS } from '../shared/field-schemas.ts';
import {
  captionStyleId,
  DEFAULT_CAPTION_STYLE,
  type SourceSummary,
} from '../transcribe/transcribe-request.ts';

// POST /captions/render (spec 2 §4.6). The spec leaves open which fields are required: the video and the
// transcript are (there is nothing to render without them), the look has defaults.

export const captionRenderRequestSchema = z.strictObject({
  video_url: userUrl,
  transcript_job_id: z.string().min(1).max(100),
  caption_style: captionStyleId.default(DEFAULT_CAPTION_STYLE),
  position: z.enum(CAPTION_POSITIONS).optional(),
  max_words_per_line: z.number().int().min(1).max(12).optional(),
  highlight_active_word: z.boolean().optional(),
});

/** The parsed body; `source` (the probed video) is added by validation, before pricing. */
export type CaptionRenderRequest = z.infer<typeof captionRenderRequestSchema> & {
  source?: SourceSummary & { width: number; height: number };
};
