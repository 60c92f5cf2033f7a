import { z } from 'zod';
import { listVoices } from '../../media/voice/voice-catalogue.ts';
import { captionStyleSchema, clipTypeSchema } from '../shared/field-schemas.ts';
import { foldCaptionAliases } from '../shared/nested-aliases.ts';

// POST /videos/motivational keeps the field names of spec 1 §4.8 (quote, includeHook, clipType, includeMusic,
// includeSvcBranding). The snake_case names other stock-engine routes use are accepted as aliases, and the
// shared alias include_music points at includeMusic here (this route has no `music` object).
export const MOTIVATIONAL_ALIASES: Record<string, string> = {
  topic: 'quote',
  include_hook: 'includeHook',
  clip_type: 'clipType',
  include_music: 'includeMusic',
  include_branding: 'includeSvcBranding',
};

export function prepareMotivationalBody(body: Record<string, unknown>, warnings: string[]): void {
  foldCaptionAliases(body, warnings);
}

export const motivationalRequestSchema = z
  .object({
    quote: z.string().trim().min(1).max(500).optional(),
    includeHook: z.boolean().default(true),
    clipType: clipTypeSchema.default('motivational'),
    voice_id: z.string().min(1).max(100).optional(),
    captions: z.boolean().default(true),
    caption_style: captionStyleSchema.optional(),
    includeMusic: z.boolean().default(true),
    includeSvcBranding: z.boolean().default(true),
  })
  .transform((body) => ({
    ...body,
    // `captions: false` wins over any caption_style preset (spec 1 §4.8).
    caption_style: body.captions
      ? (body.caption_style ?? captionStyleSchema.parse('highlight'))
      : captionStyleSchema.parse('none'),
  }));

export type MotivationalRequest = z.infer<typeof motivationalRequestSchema>;

/** The narration language is the chosen voice's; the default voice (and a written quote) is English. */
export function narrationLanguage(voiceId: string | undefined): string {
  return (voiceId && listVoices().find((v) => v.id === voiceId)?.language) || 'en';
}
