// Brand text refiner backed by any OpenAI-compatible chat-completions endpoint (the LLM_* settings): it
// reads the crawled text and the local analyzer's draft and answers industry, audience, tone and topics
// as JSON, validated against the industry table and the tone vocabulary; one retry with the problem
// spelled out; failures are ProviderErrors with a retry hint, as in openai-llm.ts.
import OpenAI from 'openai';
import { z } from 'zod';
import type { ProviderSettings } from '../platform/config.ts';
import type {
  BrandTextInput,
  BrandTextRefinement,
  BrandTextRefiner,
} from '../brand/profile/brand-text-refiner.ts';
import { ProviderError, toProviderError } from './openai-llm.ts';
import { parseJsonAnswer } from './json-answer.ts';

export interface OpenAiBrandRefinerOptions extends ProviderSettings {
  /** Per request, in milliseconds. Default 20 000: a brand analysis must finish within 30 s. */
  timeoutMs?: number;
  /** Retries the client makes itself on connection errors, 408/409/429 and 5xx. Default 1. */
  maxRetries?: number;
}

const PROVIDER = 'openai-compatible-llm';

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

function answerSchema(input: BrandTextInput) {
  const industries = new Set(input.industries.map((i) => i.id));
  const tones = new Set<string>(input.tones);
  return z.object({
    industry: z
      .string()
      .trim()
      .refine((id) => industries.has(id), { message: 'must be one of the listed industry ids' }),
    audience: z.array(z.string().trim().min(1).max(80)).min(2).max(5),
    tone: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .refine((t) => tones.has(t), { message: 'must be one of the listed tones' }),
      )
      .min(2)
      .max(4),
    topic_pool: z.array(z.string().trim().min(1).max(120)).min(20).max(40),
  });
}

/** The model's JSON checked against the schema, or what is wrong with it. */

function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function refinementPrompt(input: BrandTextInput): Message[] {
  const system =
    'You analyse a company website to fill in its brand profile for short marketing videos. ' +
    'Reply with one JSON object and nothing else: ' +
    '{"industry": string, "audience": string[], "tone": string[], "topic_pool": string[]}.';
  const user = [
    `Website: ${input.url}`,
    `Brand name: ${input.name}`,
    ...(input.tagline ? [`Tagline: ${input.tagline}`] : []),
    `Language of the site: ${languageName(input.language)} (${input.language}).`,
    '',
    'A first analysis by keyword matching (improve it where the text says otherwise):',
    JSON.stringify(input.draft),
    '',
    'Rules:',
    '- industry: exactly one id from this list (id: label):',
    ...input.industries.map((i) => `  ${i.id}: ${i.label}`),
    '- audience: 2 to 5 short audience segments (each under 80 characters) the site speaks to.',
    `- tone: 2 to 4 of these words, strongest first: ${input.tones.join(', ')}.`,
    `- topic_pool: 20 to 40 distinct topics (2 to 12 words each) for short educational or promotional videos, written in ${languageName(input.language)}: subjects the site covers or its audience cares about.`,
    '- Use only what the text supports. Never invent facts, numbers, customers, prices or claims about the company.',
    '',
    'The site text:',
    `"""${input.excerpt}"""`,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export class OpenAiBrandRefiner implements BrandTextRefiner {
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(opts: OpenAiBrandRefinerOptions) {
    this.client = new OpenAI({
      baseURL: opts.baseUrl,
      apiKey: opts.apiKey,
      timeout: opts.timeoutMs ?? 20_000,
      maxRetries: opts.maxRetries ?? 1,
    });
    this.model = opts.model;
  }

  private async complete(messages: Message[], signal?: AbortSignal): Promise<string> {
    try {
      const res = await this.client.chat.completions.create(
        { model: this.model, messages, temperature: 0.2, response_format: { type: 'json_object' } },
        { signal },
      );
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      throw toProviderError(err);
    }
  }

  /** Asks once, and once more with the problem spelled out if the reply breaks the rules. */
  async refine(input: BrandTextInput, signal?: AbortSignal): Promise<BrandTextRefinement> {
    const schema = answerSchema(input);
    const messages = refinementPrompt(input);
    const first = await this.complete(messages, signal);
    const parsed = parseJsonAnswer(first, schema);
    if (typeof parsed !== 'string') return parsed;
    const retry: Message[] = [
      ...messages,
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `That reply could not be used: ${parsed}. Answer again with only the JSON object described above.`,
      },
    ];
    const again = parseJsonAnswer(await this.complete(retry, signal), schema);
    if (typeof again === 'string') {
      throw new ProviderError({
        provider: PROVIDER,
        code: 'invalid_response',
        message: `the LLM did not return a usable brand refinement twice: ${again}`,
        retryable: true,
      });
    }
    return again;
  }
}

/** The refiner when an LLM is configured (config.llm: LLM_BASE_URL, LLM_API_KEY, LLM_MODEL); else none. */
export function createBrandRefiner(
  llm: ProviderSettings | undefined,
  options: Pick<OpenAiBrandRefinerOptions, 'timeoutMs' | 'maxRetries'> = {},
): BrandTextRefiner | undefined {
  return llm ? new OpenAiBrandRefiner({ ...llm, ...options }) : undefined;
}
