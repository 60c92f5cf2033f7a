import { z } from 'zod';
import { userUrl } from '../../platform/net/user-url.ts';
import { CAPTION_STYLE_IDS } from '../../media/captions/style-catalogue.ts';
import { baseLanguage } from '../../media/speech/recognizer.ts';
import type { SourceFormat } from './source-media.ts';
import { OUTPUT_FORMATS } from './transcript.ts';

// POST /transcribe (spec 2 §4.6). The source is fetched and probed while validating, before any charge: its
// length sets the price, so the request that is priced and stored carries what the probe found.

/** The caption look of `ass` output (and of POST /captions/render) when none is named. */
export const DEFAULT_CAPTION_STYLE = 'clean-highlight';

export const captionStyleId = z.enum(CAPTION_STYLE_IDS as [string, ...string[]]);

export const transcribeRequestSchema = z.strictObject({
  media_url: userUrl,
  language_hint: z
    .string()
    .regex(/^[A-Za-z]{2}(?:[-_][A-Za-z0-9]{2,8})?$/, 'must be an ISO 639-1 code such as "en"')
    .transform(baseLanguage)
    .optional(),
  diarization: z.boolean().default(false),
  output_formats: z
    .array(z.enum(OUTPUT_FORMATS))
    .min(1, 'must name at least one format')
    .default(['json'])
    .transform((formats) => [...new Set(formats)]),
  caption_style: captionStyleId.optional(),
  filter_profanity: z.boolean().default(false),
});

/** What the probe found; `size_bytes` is the downloaded size. */
export interface SourceSummary {
  duration_sec: number;
  format: SourceFormat;
  size_bytes: number;
}

/** The parsed body; `source` is added by validation and is present on every priced or stored request. */
export type TranscribeRequest = z.infer<typeof transcribeRequestSchema> & { source?: SourceSummary };
