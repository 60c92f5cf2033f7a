// The script-writer contract shared by the local writer and the LLM writer, and the choice between them.
// Both writers are imported when the first script is written: their templates and clients (the OpenAI SDK)
// are not needed by the many modules that only read this contract's names.
import type { ScriptBrandContext } from './brand-context.ts';

export { ScriptPolicyError } from './script-policy-error.ts';
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
  /**
   * One of `count` takes on the same brief (a variations request): the takes share one seed and each index
   * prefers other wordings, so two takes differ wherever a beat has more than one way to say it.
   */
  take?: { index: number; count: number };
}

/**
 * Where the narration came from (docs/scripts.md): "request", the caller's `script` (or quote); "material", written
 * from what the request brought (an article's text, a news page or a trend's articles, a brand kit's proof
 * points); "llm", written by the configured LLM; "template", written by the built-in writer from the topic
 * alone, which frames the topic, asks the viewer and closes, but states no facts of its own.
 */
export type ScriptSource = 'request' | 'material' | 'llm' | 'template';

/** What every answer with `script_source: "template"` says alongside it. */
/** A motivational quote the service composed: its pattern library's, not an LLM's, so the hint differs. */
export const TEMPLATE_QUOTE_HINT =
  'The built-in quote writer composed this quote from its pattern library. Send `quote` to narrate your own.';

export const TEMPLATE_SCRIPT_HINT =
  'The built-in writer wrote this script from the topic alone: it names the topic, asks the viewer and closes, ' +
  'but states no facts, tips or figures it does not know. For a script with substance, send your own `script`, ' +
  'or set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to any OpenAI-compatible server (a local one works too).';

/** A script source with, for "template", the hint how to get a real script: a mode's estimate says this. */
export function scriptProvenance(source: ScriptSource): { source: ScriptSource; hint?: string } {
  return source === 'template' ? { source, hint: TEMPLATE_SCRIPT_HINT } : { source };
}

/** The same as artifact fields of a job: `script_source`, and `script_hint` for a template script. */
export function scriptArtifacts(source: ScriptSource): { script_source: ScriptSource; script_hint?: string } {
  return source === 'template'
    ? { script_source: source, script_hint: TEMPLATE_SCRIPT_HINT }
    : { script_source: source };
}

/** Before the script exists: the caller's when one is sent, else the configured LLM's, else the template's. */
export function expectedScriptSource(sent: string | undefined, llmConfigured: boolean): ScriptSource {
  if (sent !== undefined && sent.trim() !== '') return 'request';
  return llmConfigured ? 'llm' : 'template';
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
  source: ScriptSource;
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

/**
 * The LLM writer when base URL, key and model are all configured; otherwise the local (English) writer. The
 * chosen writer is loaded by the first `write`.
 */
export function createScriptWriter(llm?: LlmConfig): ScriptWriter {
  const load = async (): Promise<ScriptWriter> => {
    if (llm?.baseUrl && llm.apiKey && llm.model) {
      const { OpenAiLlmWriter } = await import('../../providers/openai-llm.ts');
      return new OpenAiLlmWriter({
        baseUrl: llm.baseUrl,
        apiKey: llm.apiKey,
        model: llm.model,
        timeoutMs: llm.timeoutMs,
        maxRetries: llm.maxRetries,
      });
    }
    const { LocalScriptWriter } = await import('./local-writer.ts');
    return new LocalScriptWriter();
  };
  let writer: Promise<ScriptWriter> | undefined;
  return {
    write: async (input) => (await (writer ??= load())).write(input),
  };
}
