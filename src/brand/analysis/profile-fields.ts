// The rules of every brand profile field (spec 2 §2.3), as zod schemas: what PATCH /brand/{brand_id} accepts,
// and what an analysed profile meets (brand-from-site.ts checks it). Enumerations come from the tables the
// analysis itself chooses from: the canonical industries, the tone descriptors, the video styles and the
// voice catalogue.
import { z } from 'zod';
import { CONTENT_STYLES } from '../../media/script/writer.ts';
import { SPEECH_SERVICE_VOICES, SPEECH_VOICE_PREFIX } from '../../media/voice/narrator.ts';
import { listVoices } from '../../media/voice/voice-catalogue.ts';
import { hexColor } from '../../modes/shared/field-schemas.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import { AUDIENCE_RANGE, TONE_RANGE } from '../profile/audience-and-tone.ts';
import { INDUSTRIES } from '../profile/industries.ts';
import { TONES } from '../profile/tones.ts';
import { MAX_TOPICS, MIN_TOPICS } from '../profile/topic-limits.ts';

const text = (min: number, max: number) =>
  z.string().trim().min(min, `must be ${min}-${max} characters`).max(max, `must be ${min}-${max} characters`);

/** A list of distinct items, `min`-`max` long. */
function list<T extends z.ZodType>(item: T, min: number, max: number) {
  return z
    .array(item)
    .min(min, `must hold ${min}-${max} items`)
    .max(max, `must hold ${min}-${max} items`)
    .refine(
      (items) => new Set(items.map((i) => JSON.stringify(i))).size === items.length,
      'must not repeat an item',
    );
}

/** A voice of the catalogue the service speaks with: a local voice (flite, festival, espeak-ng), or one of the speech service's. */
export function isCatalogueVoice(id: string): boolean {
  if (id.startsWith(SPEECH_VOICE_PREFIX))
    return SPEECH_SERVICE_VOICES.includes(id.slice(SPEECH_VOICE_PREFIX.length));
  return listVoices().some((voice) => voice.id === id);
}

const voiceId = z
  .string()
  .regex(/^[a-z0-9_-]+:\S+$/, 'must be a voice id written <provider>:<name>, e.g. "espeak:en-us:female-1"')
  .refine(isCatalogueVoice, 'is not a voice of the catalogue (GET /api/v1/capabilities lists the voices)');

const industryIds = INDUSTRIES.map((i) => i.id) as [string, ...string[]];

/** Top-level fields that are values or lists. */
export const brandProfileFields = {
  name: text(1, 120),
  url: userUrl,
  tagline: text(0, 300),
  industry: z.enum(industryIds),
  audience: list(text(1, 80), AUDIENCE_RANGE.min, AUDIENCE_RANGE.max),
  tone: list(z.enum(TONES), TONE_RANGE.min, TONE_RANGE.max),
  topic_pool: list(text(1, 120), MIN_TOPICS, MAX_TOPICS),
  video_styles: list(z.enum(CONTENT_STYLES), 0, CONTENT_STYLES.length),
  anti_styles: list(z.enum(CONTENT_STYLES), 0, CONTENT_STYLES.length),
  logo_url: userUrl,
};

/** Fields that are objects, overridden field by field. */
export const brandProfileGroups = {
  voice: { recommendation: voiceId, alternatives: list(voiceId, 0, 10) },
  colors: { primary: hexColor, secondary: hexColor, accent: hexColor, background: hexColor },
  fonts: { headline: text(1, 60), body: text(1, 60) },
};

/** A whole profile (spec 2 §2.3) under the same rules; logo_url may be null when the site showed no logo. */
export const brandProfileSchema = z.strictObject({
  ...brandProfileFields,
  logo_url: brandProfileFields.logo_url.nullable(),
  voice: z.strictObject(brandProfileGroups.voice),
  colors: z.strictObject(brandProfileGroups.colors),
  fonts: z.strictObject(brandProfileGroups.fonts),
});
