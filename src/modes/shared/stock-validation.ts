import type { FieldIssue } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { PipelineServices } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { checkSentScript } from '../../media/script/budget.ts';
import type { Narrator } from '../../media/voice/narrator.ts';
import { listVoices, VoiceUnavailableError } from '../../media/voice/voice-catalogue.ts';

// Checks of a stock-engine request that need more than its schema: voices, script budget, URLs (DNS).

export interface StockValidationInput {
  script?: string;
  voice_id?: string;
  voice_gender?: 'female' | 'male';
  voice_speed: number;
  language?: string;
  caption_language?: string;
  captions: boolean;
  asset_urls?: string[];
  logo_url?: string;
}

export async function validateStockInput(
  request: StockValidationInput,
  services: PipelineServices,
  options: { llmConfigured: boolean; narrator: Narrator },
): Promise<void> {
  const issues: FieldIssue[] = [];
  const language = request.language ?? 'en';
  try {
    options.narrator.check({ voiceId: request.voice_id, gender: request.voice_gender, language });
  } catch (error) {
    if (!(error instanceof VoiceUnavailableError)) throw error;
    const ids = error.validVoiceIds;
    issues.push(
      request.voice_id && ids.length > 0
        ? {
            field: 'voice_id',
            message: `cannot be used (${error.message}); valid for ${language}: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}`,
            valid_values: ids,
          }
        : {
            field: request.voice_id ? 'voice_id' : 'language',
            message: `has no available voice: ${error.message}`,
            valid_values: [...new Set(listVoices().map((v) => v.language))].sort(),
          },
    );
  }
  if (request.script) {
    const check = checkSentScript(request.script, request.voice_speed);
    if (!check.ok) {
      issues.push({
        field: 'script',
        message: `has ${check.words} words, about ${Math.round(check.estimatedSec)} s of speech; the longest video is 120 s, a budget of ${check.maxWords} words at voice_speed ${request.voice_speed}`,
      });
    }
  } else if (language !== 'en' && !options.llmConfigured) {
    issues.push({
      field: 'language',
      message: `scripts are written in English by the local writer; send your own script in ${language}, or configure an LLM (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL)`,
    });
  }
  if (request.captions && request.caption_language && request.caption_language !== language) {
    issues.push({
      field: 'caption_language',
      message: `caption translation is not available on this server; omit caption_language or set it to the narration language (${language})`,
    });
  }
  const urls: [string, string][] = [
    ...(request.asset_urls ?? []).map((url, i): [string, string] => [`asset_urls[${i}]`, url]),
    ...(request.logo_url ? [['brand.logo_url', request.logo_url] as [string, string]] : []),
  ];
  for (const [field, url] of urls) {
    try {
      await services.urlGuard.assertAllowed(url, { timeoutMs: 5000 });
    } catch (error) {
      if (!(error instanceof UrlRejectedError)) throw error;
      issues.push({ field, message: error.message });
    }
  }
  if (issues.length > 0) throw invalidInputError(issues);
}
