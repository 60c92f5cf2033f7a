import { z } from 'zod';
import type { FieldIssue } from '../../platform/errors.ts';
import { userUrl } from '../../platform/net/user-url.ts';
import {
  PRESENTER_ENGINES,
  presenterPrice,
  spokenSeconds,
  type PresenterEngine,
  type PresenterPrice,
  type PricedPresenter,
} from '../../platform/pricing/presenter-price.ts';
import { NICHES, type Niche } from '../../media/footage/niches.ts';
import { splitSentences } from '../../media/script/sentences.ts';
import { kitSelectionShape, type KitChoice } from '../shared/brand-kit-selection.ts';
import { CONTENT_PURPOSES, type ContentPurpose, type ContentStyle } from '../shared/enums.ts';
import {
  brandSchema,
  footageKeywords,
  progressBarSchema,
  type Brand,
  type ProgressBar,
} from '../shared/field-schemas.ts';

// The body of POST /videos/ai-influencer (spec 1 §4.5) and its rules that need more than one field. Rules that
// need the persona (is it ready, which engines it supports) run in the mode's validate; all before billing.

export const PRESENTER_FORMATS = ['talking_head', 'presenter_broll'] as const;
export const PRESENTER_LAYOUTS = ['creator', 'split', 'cutaway'] as const;
export const CAPTION_STYLES = ['seam', 'karaoke'] as const;
export const PLACEMENTS = ['bottom_left', 'bottom_center'] as const;
export const VARY_AXES = ['hook', 'angle', 'content_type', 'presenter'] as const;

export type PresenterFormat = (typeof PRESENTER_FORMATS)[number];
export type PresenterLayout = (typeof PRESENTER_LAYOUTS)[number] | 'talking_head';
export type AspectRatio = '9:16' | '16:9' | '1:1';

const SCRIPT_MAX = 2000;
/** Spec: at most 120 s of speech (about 300 words at speed 1.0). */
export const MAX_SPEECH_SEC = 120;
const OUTRO_CTA_MAX = 40;

export const PRESENTER_ALIASES: Record<string, string> = {
  avatarId: 'avatar_id',
  imageUrl: 'image_url',
  voiceGender: 'voice_gender',
  captionStyle: 'caption_style',
  presenterPlacement: 'presenter_placement',
  seriesId: 'series_id',
  brandId: 'brand_id',
  progressBar: 'progress_bar',
  outroCta: 'outro_cta',
  contentPurpose: 'content_purpose',
  contentStage: 'content_stage',
  contentType: 'content_type',
  presenterVideoUrl: 'presenter_video_url',
};

const hostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('avatar') }),
  z.object({
    type: z.literal('logo'),
    logo_url: userUrl.optional(),
    style: z.enum(['cube', 'card', 'auto']).default('auto'),
    show_url: z.boolean().default(true),
    url_text: z.string().trim().min(1).max(40, 'must be 1-40 characters').optional(),
  }),
]);
export type HostField = z.infer<typeof hostSchema>;

const brollSchema = z.object({
  visuals: z.enum(['stock', 'generated', 'mixed']).default('stock'),
  coverage: z.number().min(0.2).max(0.8).optional(),
  footage_keywords: footageKeywords.default([]),
  exclude_keywords: footageKeywords.default([]),
  clip_type: z.enum(NICHES).optional(),
});

const variationsSchema = z.object({
  count: z.number().int().min(1).max(5),
  vary: z.array(z.enum(VARY_AXES)).min(1).optional(),
  presenters: z.array(z.string().min(1).max(64)).min(1).max(5).optional(),
});

const shape = {
  avatar_id: z.string().trim().min(1).max(64).optional(),
  image_url: userUrl.optional(),
  engine: z.enum(PRESENTER_ENGINES).optional(),
  script: z.string().trim().min(1).max(SCRIPT_MAX, `must be 1-${SCRIPT_MAX} characters`).optional(),
  topic: z.string().trim().min(1).max(500, 'must be 1-500 characters').optional(),
  format: z.enum(PRESENTER_FORMATS).default('talking_head'),
  duration_sec: z.number().int('must be a whole number of seconds').min(15).max(90).optional(),
  content_purpose: z.enum(CONTENT_PURPOSES).optional(),
  voice_id: z.string().trim().min(1).max(100).optional(),
  voice_gender: z.enum(['female', 'male']).optional(),
  speed: z.number().min(0.5).max(1.5).default(1),
  aspect_ratio: z.enum(['9:16', '16:9', '1:1']).optional(),
  captions: z.boolean().default(true),
  music: z.boolean().default(true),
  brand: brandSchema.optional(),
  series_id: z.string().trim().min(1).max(64).optional(),
  layout: z.enum(PRESENTER_LAYOUTS).optional(),
  caption_style: z.enum(CAPTION_STYLES).optional(),
  broll: brollSchema.optional(),
  presenter_placement: z.string().optional(),
  host: hostSchema.optional(),
  outro: z.boolean().optional(),
  outro_cta: z.string().trim().min(1).max(OUTRO_CTA_MAX, `must be 1-${OUTRO_CTA_MAX} characters`).optional(),
  progress_bar: progressBarSchema.optional(),
  instructions: z.string().trim().max(1000, 'must be at most 1000 characters').optional(),
  variations: variationsSchema.optional(),
  content_stage: z.string().trim().max(100).optional(),
  content_type: z.string().trim().max(100).optional(),
  presenter_video_url: z.unknown().optional(),
  ...kitSelectionShape,
};

export const presenterSchema = z.object(shape);
type Parsed = z.infer<typeof presenterSchema>;

/** A request after every rule: what is rendered, by which engine, and the defaults the spec leaves implicit. */
export interface PresenterRequest {
  format: PresenterFormat;
  layout: PresenterLayout;
  avatar_id?: string;
  image_url?: string;
  /** The presenter engine, or undefined for a logo host. */
  engine?: PresenterEngine;
  /** What the price rule and the X-Api-Credits-Engine header name. */
  priced_as: PricedPresenter;
  /** Whether `engine` was sent (a persona default may otherwise apply). */
  engine_sent: boolean;
  script?: string;
  topic?: string;
  /** Target speech length: duration_sec for a topic, the script's estimate otherwise. */
  speech_sec: number;
  duration_sec?: number;
  content_purpose?: ContentPurpose;
  voice_id?: string;
  voice_gender?: 'female' | 'male';
  speed: number;
  aspect_ratio: AspectRatio;
  captions: boolean;
  caption_style: 'seam' | 'karaoke';
  music: boolean;
  brand?: Brand;
  series_id?: string;
  broll: {
    visuals: 'stock' | 'generated' | 'mixed';
    coverage: number;
    footage_keywords: string[];
    exclude_keywords: string[];
    clip_type?: Niche;
  };
  presenter_placement: 'bottom_left' | 'bottom_center';
  host: HostField;
  /** Undefined: on when a logo exists (creator only). */
  outro?: boolean;
  outro_cta?: string;
  progress_bar?: ProgressBar;
  instructions?: string;
  variations?: { count: number; vary: (typeof VARY_AXES)[number][]; presenters?: string[] };
  content_stage?: string;
  content_type?: string;
  brand_id?: string;
  customer_id?: string;
  website_url?: string;
  confirm_authorized?: boolean;
  brand_kit?: KitChoice;
  /** Fields sent that do not apply to this request (duration_sec or content_purpose with a script). */
  ignored_fields: string[];
  /** Set on each job of a variations request: which variant it is. */
  variant?: { index: number; count: number; vary: (typeof VARY_AXES)[number][] };
  /** A variant's content style (vary angle). */
  content_style?: ContentStyle;
  /** Where a photo-only presenter was saved when validation had no staging folder (the render CLI). */
  photo_path?: string;
  /** Facts of the persona or photo, filled in by validate. */
  presenter?: { name?: string; voiceGender?: 'female' | 'male' };
}

export class PresenterRuleError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.field} ${i.message}`).join('; '));
    this.name = 'PresenterRuleError';
  }
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Applies the cross-field rules of spec 1 §4.5; throws PresenterRuleError naming every field to fix. */
export function resolvePresenterRequest(body: Parsed): PresenterRequest {
  const issues: FieldIssue[] = [];
  const issue = (field: string, message: string) => issues.push({ field, message });
  const broll = body.format === 'presenter_broll';
  const logoHost = body.host?.type === 'logo';

  if (body.presenter_video_url !== undefined)
    issue('presenter_video_url', 'is not enabled on this service; send avatar_id or image_url');

  if (logoHost) {
    for (const field of ['avatar_id', 'image_url', 'engine'] as const)
      if (body[field] !== undefined) issue(field, 'cannot be sent with a logo host (host.type logo)');
  } else if (body.avatar_id !== undefined && body.image_url !== undefined) {
    issue('avatar_id', 'send avatar_id or image_url, not both');
  } else if (body.avatar_id === undefined && body.image_url === undefined) {
    issue(
      'avatar_id',
      'is required: send avatar_id (a ready persona) or image_url (a photo, avatar_iv only)',
    );
  }

  if (body.script !== undefined && body.topic !== undefined) issue('topic', 'send script or topic, not both');
  if (body.topic !== undefined && !broll)
    issue('topic', 'is for format presenter_broll only; send a script for a talking head');
  if (body.script === undefined && (body.topic === undefined || !broll))
    issue('script', broll ? 'is required unless topic is sent' : 'is required for format talking_head');

  const aspect = body.aspect_ratio ?? '9:16';
  let layout: PresenterLayout = 'talking_head';
  if (broll) {
    layout = body.layout ?? (aspect === '9:16' ? 'creator' : 'cutaway');
    if ((layout === 'creator' || layout === 'split') && aspect !== '9:16')
      issue('layout', `${layout} needs aspect_ratio 9:16; use cutaway for ${aspect}`);
  } else if (body.layout !== undefined) {
    issue('layout', 'is for format presenter_broll only');
  }

  let placement: PresenterRequest['presenter_placement'] = 'bottom_left';
  if (body.presenter_placement !== undefined) {
    if (!(PLACEMENTS as readonly string[]).includes(body.presenter_placement))
      issue('presenter_placement', `must be one of ${PLACEMENTS.join(', ')}`);
    else if (layout !== 'creator') issue('presenter_placement', 'applies to the creator layout only');
    else placement = body.presenter_placement as PresenterRequest['presenter_placement'];
  }

  if (body.host !== undefined && body.host.type === 'logo' && layout !== 'creator')
    issue('host', 'a logo host is for the creator layout only (format presenter_broll, 9:16)');
  if ((body.outro !== undefined || body.outro_cta !== undefined) && layout !== 'creator')
    issue(body.outro_cta !== undefined ? 'outro_cta' : 'outro', 'applies to the creator layout only');
  if (body.outro === false && body.outro_cta !== undefined)
    issue('outro_cta', 'cannot be sent with outro false');
  if (body.progress_bar !== undefined && !broll) issue('progress_bar', 'is for format presenter_broll only');
  if (body.broll?.coverage !== undefined && layout !== 'cutaway')
    issue('broll.coverage', 'applies to the cutaway layout only');
  if (body.broll && !broll) issue('broll', 'is for format presenter_broll only');
  if (body.series_id !== undefined && body.brand_id === undefined)
    issue('series_id', 'needs brand_id (a series belongs to a saved brand kit)');

  if (body.variations !== undefined) {
    if (!broll || body.topic === undefined) issue('variations', 'need format presenter_broll with a topic');
    const presenters = body.variations.presenters;
    if (presenters && presenters.length > body.variations.count)
      issue(
        'variations.presenters',
        `lists ${presenters.length} personas for ${body.variations.count} variations`,
      );
  }

  const engine: PresenterEngine | undefined = logoHost
    ? undefined
    : (body.engine ?? (body.image_url !== undefined ? 'avatar_iv' : 'avatar_iii'));

  let speechSec: number;
  if (body.script !== undefined) {
    speechSec = spokenSeconds(words(body.script), body.speed);
    if (speechSec > MAX_SPEECH_SEC)
      issue(
        'script',
        `has ${words(body.script)} words, about ${Math.round(speechSec)} s of speech at speed ${body.speed}; the most is ${MAX_SPEECH_SEC} s (about ${Math.floor(MAX_SPEECH_SEC * 2.5 * body.speed)} words)`,
      );
  } else {
    speechSec = body.duration_sec ?? 30;
  }
  if (issues.length > 0) throw new PresenterRuleError(issues);

  const ignored =
    body.script !== undefined
      ? (['duration_sec', 'content_purpose'] as const).filter((field) => body[field] !== undefined)
      : [];
  const captionStyle =
    body.caption_style ?? (layout === 'creator' || layout === 'split' ? 'seam' : 'karaoke');
  return {
    format: body.format,
    layout,
    ...(body.avatar_id !== undefined ? { avatar_id: body.avatar_id } : {}),
    ...(body.image_url !== undefined ? { image_url: body.image_url } : {}),
    ...(engine ? { engine } : {}),
    priced_as: engine ?? 'logo_host',
    engine_sent: body.engine !== undefined,
    ...(body.script !== undefined ? { script: body.script } : {}),
    ...(body.topic !== undefined ? { topic: body.topic } : {}),
    speech_sec: speechSec,
    ...(body.topic !== undefined ? { duration_sec: body.duration_sec ?? 30 } : {}),
    ...(body.topic !== undefined ? { content_purpose: body.content_purpose ?? 'education' } : {}),
    ...(body.voice_id !== undefined ? { voice_id: body.voice_id } : {}),
    ...(body.voice_gender !== undefined ? { voice_gender: body.voice_gender } : {}),
    speed: body.speed,
    aspect_ratio: aspect,
    captions: body.captions,
    caption_style: captionStyle,
    music: body.music,
    ...(body.brand ? { brand: body.brand } : {}),
    ...(body.series_id !== undefined ? { series_id: body.series_id } : {}),
    broll: {
      visuals: body.broll?.visuals ?? 'stock',
      coverage: body.broll?.coverage ?? 0.5,
      footage_keywords: body.broll?.footage_keywords ?? [],
      exclude_keywords: body.broll?.exclude_keywords ?? [],
      ...(body.broll?.clip_type ? { clip_type: body.broll.clip_type } : {}),
    },
    presenter_placement: placement,
    host: body.host ?? { type: 'avatar' },
    ...(body.outro !== undefined ? { outro: body.outro } : {}),
    ...(body.outro_cta !== undefined ? { outro_cta: body.outro_cta } : {}),
    ...(body.progress_bar !== undefined ? { progress_bar: body.progress_bar } : {}),
    ...(body.instructions ? { instructions: body.instructions } : {}),
    ...(body.variations
      ? {
          variations: {
            count: body.variations.count,
            vary: body.variations.vary ?? ['hook', 'angle'],
            ...(body.variations.presenters ? { presenters: body.variations.presenters } : {}),
          },
        }
      : {}),
    ...(body.content_stage ? { content_stage: body.content_stage } : {}),
    ...(body.content_type ? { content_type: body.content_type } : {}),
    ...(body.brand_id ? { brand_id: body.brand_id } : {}),
    ...(body.customer_id ? { customer_id: body.customer_id } : {}),
    ...(body.website_url ? { website_url: body.website_url } : {}),
    ...(body.confirm_authorized !== undefined ? { confirm_authorized: body.confirm_authorized } : {}),
    ignored_fields: [...ignored],
  };
}

/** A written script has about one sentence per this many seconds of speech at most (the local writer: 3.5–5). */
const TOPIC_SECONDS_PER_SENTENCE = 3;

/**
 * The most AI stills a request's video can use, as priced: one per B-roll sentence (every sentence in the
 * creator and split layouts, all but the opening hook in cutaway), every other one for mixed. A script's
 * sentences are counted; a topic's script is not written yet, so its length sets the count. The pipeline
 * never makes more, and refunds the ones it does not make.
 */
export function pricedStills(request: PresenterRequest): number {
  if (request.broll.visuals === 'stock' || request.layout === 'talking_head') return 0;
  const sentences = request.script
    ? splitSentences(request.script, 'en').length
    : Math.ceil(request.speech_sec / TOPIC_SECONDS_PER_SENTENCE);
  const broll = request.layout === 'cutaway' ? Math.max(0, sentences - 1) : sentences;
  return request.broll.visuals === 'mixed' ? Math.ceil(broll / 2) : broll;
}

/** The price of one video of a resolved request (variations multiply it by their count). */
export function priceOfPresenter(request: PresenterRequest): PresenterPrice {
  return presenterPrice(request.priced_as, request.speech_sec, pricedStills(request));
}

/** Warnings a dry run shows for a valid request. */
export function presenterWarnings(request: PresenterRequest): string[] {
  const warnings: string[] = [];
  if (request.engine === 'avatar_iii')
    warnings.push(
      'avatar_iii is the local talking-head engine: it animates the persona photo (mouth shapes from the spoken phonemes, blinks, small head motion); a hosted engine (avatar_iv, avatar_v) makes fuller facial motion.',
    );
  const stills = pricedStills(request);
  if (stills > 0)
    warnings.push(
      `${request.broll.visuals} B-roll: up to ${stills} AI still${stills === 1 ? '' : 's'} from the image model are priced; stills not made are refunded when the job completes, and B-roll that cannot be generated (a refused prompt, a provider failure) delivers the talking head with captions, music and logo, the stills refunded.`,
    );
  if (request.ignored_fields.length > 0)
    warnings.push(
      `${request.ignored_fields.join(' and ')} apply to a topic only: a sent script is spoken verbatim and sets the length.`,
    );
  return warnings;
}
