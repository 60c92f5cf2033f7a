// The script-writer contract shared by the local writer and the LLM writer, and the choice between them.
import { OpenAiLlmWriter } from '../../providers/openai-llm.ts';
import type { ScriptBrandContext } from './brand-context.ts';
import { LocalScriptWriter } from './local-writer.ts';

export { LocalScriptWriter, ScriptLanguageUnsupportedError } from './local-writer.ts';
export { OpenAiLlmWriter, ProviderError } from '../../providers/openai-llm.ts';
export { ScriptPolicyError } from './script-rules.ts';
export const CONTENT_PURPOSES = [
  'education',
  'sales',
  'awareness',
  'product_demo',
  'case_study',
  'news',
  'entertainment',
] as const;
export const CONTENT_STYLES = [
  'professional',
  'educational',
  'inspirational',
  'energetic',
  'calm',
  'entertaining',
] as const;
export type ContentPurpose = (typeof CONTENT_PURPOSES)[number];
export type ContentStyle = (typeof CONTENT_STYLES)[number];

export interface Brand {
  name?: string;
  websiteUrl?: string;
  tone?: string;
  industry?: string;
  keywords?: string[];
}

export interface ScriptInput {
  /** Free-form brief; merged with `topic`. */
  prompt?: string;
  topic?: string;
  /** A script to narrate word for word; when set, prompt/topic only inform the title and description. */
  script?: string;
  contentPurpose?: ContentPurpose;
  /** Defaults to the style of the kit's tone, else one named by the brand's tone, else "professional". */
  contentStyle?: ContentStyle;
  /** 15–120, default 30. */
  durationSec?: number;
  /** 0.7–1.3, default 1. */
  voiceSpeed?: number;
  /** true: a hook template opens the script; false: no opening line at all; undefined: a natural opening. */
  includeHook?: boolean;
  /** Said verbatim as the last line of a generated script (wins over the kit's); ignored for a sent script. */
  cta?: string;
  brand?: Brand;
  /**
   * The selected brand kit's profile: steers tone, audience and offer, closes on the kit's cta, and holds a
   * generated script to the kit's proof points (its only figures) and away from its banned topics.
   */
  brandContext?: ScriptBrandContext;
  /** ISO 639-1; default the kit's first language, else "en". */
  language?: string;
  /** Platforms the video is posted to; shapes the title casing and hashtag count. */
  platforms?: string[];
  /** Varies the wording between calls with the same brief; the same seed gives the same script. */
  seed?: string | number;
}

export interface WrittenScript {
  script: string;
  sentences: string[];
  title: string;
  description: string;
  hashtags: string[];
  hookUsed: string | null;
  ctaUsed: string | null;
  wordCount: number;
  writer: 'local' | 'llm';
}

export interface ScriptWriter {
  write(input: ScriptInput): Promise<WrittenScript>;
}

export interface LlmConfig {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/** The LLM writer when base URL, key and model are all configured; otherwise the local (English) writer. */
export function createScriptWriter(llm?: LlmConfig): ScriptWriter {
  if (llm?.baseUrl && llm.apiKey && llm.model) {
    return new OpenAiLlmWriter({
      baseUrl: llm.baseUrl,
      apiKey: llm.apiKey,
      model: llm.model,
      timeoutMs: llm.timeoutMs,
      maxRetries: llm.maxRetries,
    });
  }
  return new LocalScriptWriter();
}
