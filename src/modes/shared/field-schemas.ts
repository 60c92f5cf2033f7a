import { z } from 'zod';
import { NICHES } from '../../media/footage/niches.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import { LANGUAGES, TONES } from './enums.ts';

// Field schemas shared by the stock-engine modes (spec 1 §2.7, §4.2). Each object is strict where the spec
// says unknown fields give 400, and normalizes its aliases to one canonical shape.

export const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #RRGGBB');

const keywordList = z.array(z.string().trim().min(1).max(100)).max(32, 'at most 32 terms');

export const footageKeywords = keywordList;

/** Spec 2.7: at least one field; unknown fields or bad values give 400. */
export const brandSchema = z
  .strictObject({
    name: z.string().min(1).max(80).optional(),
    website_url: userUrl.optional(),
    logo_url: userUrl.optional(),
    primary_color: hexColor.optional(),
    accent_color: hexColor.optional(),
    tone: z.enum(TONES).optional(),
    industry: z.string().min(1).max(80).optional(),
    keywords: z.array(z.string().min(1).max(40)).max(10).optional(),
  })
  .refine((brand) => Object.keys(brand).length > 0, 'must contain at least one field');
export type Brand = z.infer<typeof brandSchema>;

export const CAPTION_PRESETS = ['highlight', 'classic', 'none'] as const;
export const CAPTION_POSITIONS = ['lower_third', 'center', 'top'] as const;
export const FONT_SIZES = ['small', 'medium', 'large'] as const;

const captionStyleObject = z.strictObject({
  preset: z.enum(CAPTION_PRESETS).default('highlight'),
  text_color: hexColor.default('#FFFFFF'),
  highlight_color: hexColor.optional(),
  position: z.enum(CAPTION_POSITIONS).default('lower_third'),
  font_size: z.enum(FONT_SIZES).default('large'),
});
/** A bare string is read as the preset. */
export const captionStyleSchema = z
  .union([z.enum(CAPTION_PRESETS).transform((preset) => ({ preset })), captionStyleObject.partial()])
  .pipe(captionStyleObject);
export type CaptionStyle = z.infer<typeof captionStyleObject>;

const musicObject = z.strictObject({
  enabled: z.boolean().default(true),
  volume: z.number().min(0).max(1).default(0.35),
});
export const musicSchema = z
  .union([z.boolean().transform((enabled) => ({ enabled })), musicObject.partial()])
  .pipe(musicObject);
export type MusicOptions = z.infer<typeof musicObject>;

const progressBarObject = z.strictObject({
  enabled: z.boolean().default(true),
  position: z.enum(['top', 'bottom']).default('bottom'),
  color: hexColor.optional(),
});
export const progressBarSchema = z
  .union([z.boolean().transform((enabled) => ({ enabled })), progressBarObject.partial()])
  .pipe(progressBarObject);
export type ProgressBar = z.infer<typeof progressBarObject>;

export const ctaSchema = z
  .union([z.string().min(1).max(120), z.strictObject({ text: z.string().min(1).max(120) })])
  .transform((cta) => (typeof cta === 'string' ? cta : cta.text));

export const clipTypeSchema = z.enum(NICHES);
export const languageSchema = z.enum(LANGUAGES);
