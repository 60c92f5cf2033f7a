import type { Niche } from '../../media/footage/niches.ts';
import { scriptLanguage } from '../../media/script/brand-context.ts';
import type { ContentPurpose, ContentStyle } from './enums.ts';
import type { CaptionStyle, MusicOptions, ProgressBar } from './field-schemas.ts';
import type { Branding } from './kit-branding.ts';
import type { StockEngineRequest } from './stock-engine.ts';

/** The snake_case fields of spec 1 §4.2 that /generate-and-post and Magic share after validation. */
export interface StockFields {
  prompt?: string;
  topic?: string;
  script?: string;
  content_purpose?: ContentPurpose;
  content_style?: ContentStyle;
  duration_sec: number;
  voice_speed: number;
  include_hook?: boolean;
  cta?: string;
  language?: string;
  voice_id?: string;
  voice_gender?: 'female' | 'male';
  clip_type?: Niche;
  footage_keywords: string[];
  exclude_keywords: string[];
  asset_urls: string[];
  caption_style: CaptionStyle;
  music: MusicOptions;
  include_branding: boolean;
  progress_bar: ProgressBar;
  platforms: string[];
}

function briefOf(request: { prompt?: string; topic?: string; script?: string }): string {
  return [request.topic, request.prompt].filter(Boolean).join('. ') || (request.script ?? '').slice(0, 500);
}

/**
 * Maps validated §4.2 fields onto the stock engine's request. The script and the narration share one language:
 * the request's, else the brand kit's first, else English.
 */
export function engineRequestOf(r: StockFields, branding: Branding): StockEngineRequest {
  const { brand, brandContext, logoPath, captionFont } = branding;
  return {
    brief: briefOf(r),
    prompt: r.prompt,
    topic: r.topic,
    script: r.script,
    contentPurpose: r.content_purpose,
    contentStyle: r.content_style,
    durationSec: r.duration_sec,
    voiceSpeed: r.voice_speed,
    includeHook: r.include_hook,
    cta: r.cta,
    language: scriptLanguage(r.language, brandContext) ?? 'en',
    voiceId: r.voice_id,
    voiceGender: r.voice_gender,
    clipType: r.clip_type,
    footageKeywords: r.footage_keywords,
    excludeKeywords: r.exclude_keywords,
    assetUrls: r.asset_urls,
    captionStyle: r.caption_style,
    music: r.music,
    includeBranding: r.include_branding,
    progressBar: r.progress_bar,
    brand,
    ...(brandContext ? { brandContext } : {}),
    ...(logoPath ? { logoPath } : {}),
    ...(captionFont ? { captionFont } : {}),
    platforms: r.platforms,
  };
}
