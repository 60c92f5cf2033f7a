// OpenAI's moderation API (POST {baseUrl}/moderations, MODERATION_BASE_URL / MODERATION_API_KEY /
// MODERATION_MODEL): one text, or one image as an https or base64 data URL, classified by
// `omni-moderation-latest` unless another model is configured. The answer's `results[]` carry `flagged` and
// per-category booleans and scores; failures are ProviderErrors with a retry hint, as in openai-llm.ts (the
// SDK itself retries connection errors, 408, 409, 429 and 5xx, honouring Retry-After).
import OpenAI from 'openai';
import { z } from 'zod';
import type {
  ModerationClient,
  ModerationInput,
  ModerationResult,
} from '../presenters/safety/moderation-client.ts';
import { ProviderError, toProviderError } from './openai-llm.ts';

export interface OpenAiModerationOptions {
  /** e.g. "https://api.openai.com/v1"; the client appends "/moderations". */
  baseUrl: string;
  apiKey: string;
  /** Default "omni-moderation-latest", the model that reads images as well as text. */
  model?: string;
  /** Per request, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries the SDK makes itself. Default 2. */
  maxRetries?: number;
}

const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';
const PROVIDER = 'openai-moderation';

const answerSchema = z.object({
  model: z.string().default(''),
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        // Categories a model does not apply to the input come back null ("illicit" on images).
        categories: z.record(z.string(), z.boolean().nullable()),
        category_scores: z.record(z.string(), z.number()).default({}),
      }),
    )
    .min(1),
});

/** The SDK's failure as a ProviderError named for this API (the mapping of statuses is openai-llm.ts's). */
function moderationError(err: unknown): ProviderError {
  const mapped = toProviderError(err);
  const detail = err instanceof Error ? err.message : String(err);
  return new ProviderError({
    provider: PROVIDER,
    code: mapped.code,
    message: `the moderation request failed (${mapped.code}${mapped.status ? `, HTTP ${mapped.status}` : ''}): ${detail}`,
    retryable: mapped.retryable,
    status: mapped.status,
    cause: err,
  });
}

export class OpenAiModerationClient implements ModerationClient {
  readonly name = PROVIDER;
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(options: OpenAiModerationOptions) {
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
    });
    this.model = options.model ?? DEFAULT_MODERATION_MODEL;
  }

  async moderate(input: ModerationInput, options: { signal?: AbortSignal } = {}): Promise<ModerationResult> {
    const { signal } = options;
    let answer: unknown;
    try {
      answer = await this.client.moderations.create(
        {
          model: this.model,
          input: input.kind === 'text' ? input.text : [{ type: 'image_url', image_url: { url: input.url } }],
        },
        { signal },
      );
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw moderationError(err);
    }
    const parsed = answerSchema.safeParse(answer);
    if (!parsed.success) {
      throw new ProviderError({
        provider: PROVIDER,
        code: 'invalid_response',
        message: `the moderation answer is not of the documented shape: ${parsed.error.issues
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; ')}`,
        retryable: true,
      });
    }
    // One input gives one result; should a server split it, any flagged part flags the input.
    const categories = new Set<string>();
    const scores: Record<string, number> = {};
    for (const result of parsed.data.results) {
      for (const [name, on] of Object.entries(result.categories)) if (on) categories.add(name);
      for (const [name, score] of Object.entries(result.category_scores))
        scores[name] = Math.max(scores[name] ?? 0, score);
    }
    return {
      flagged: parsed.data.results.some((r) => r.flagged),
      categories: [...categories],
      scores,
      model: parsed.data.model || this.model,
    };
  }
}
