// Hook writer backed by any OpenAI-compatible chat-completions endpoint (the LLM_* settings): it asks for
// hook candidates as JSON, labelled with the formats of src/signals/hooks/hook-formats.ts, validates them,
// asks once more with the problem spelled out, and reports failures as ProviderErrors as in openai-llm.ts.
// The caller scores and filters what comes back; this file only writes.
import OpenAI from 'openai';
import { z } from 'zod';
import type { ProviderSettings } from '../platform/config.ts';
import { HOOK_FORMAT_GUIDE, HOOK_FORMATS, type HookCandidate } from '../signals/hooks/hook-formats.ts';
import type { HookWriter, HookWriterInput } from '../signals/hooks/hook-writer.ts';
import { parseJsonAnswer } from './json-answer.ts';
import { ProviderError, toProviderError } from './openai-llm.ts';

export interface OpenAiHookWriterOptions extends ProviderSettings {
  /** Per request, in milliseconds. Default 10 000: a hook request is answered while the caller waits. */
  timeoutMs?: number;
  /**
   * Retries the client makes itself on connection errors, 408/409/429 and 5xx. Default 0: the local
   * generator answers at once instead of the caller waiting through back-off.
   */
  maxRetries?: number;
}

const PROVIDER = 'openai-compatible-llm';
const MAX_HOOK_CHARS = 300;

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const hookText = z
  .string()
  .transform((text) =>
    text
      .trim()
      .replace(/^["'\u201c\u2018]+|["'\u201d\u2019]+$/g, '')
      .trim(),
  )
  .pipe(
    z
      .string()
      .min(1)
      .max(MAX_HOOK_CHARS)
      .refine((text) => !/[\r\n]/.test(text), { message: 'must be one line' }),
  );

const answerSchema = z.object({
  hooks: z
    .array(z.object({ text: hookText, format: z.enum(HOOK_FORMATS) }))
    .min(1)
    .max(40),
});

function hookPrompt(input: HookWriterInput): Message[] {
  const { length } = input;
  const system =
    'You write opening hooks for short social videos and posts: the first line that makes someone stay. ' +
    'Reply with one JSON object and nothing else: {"hooks": [{"text": string, "format": string}]}.';
  const user = [
    `Topic: """${input.topic}"""`,
    `Key phrase to name in each hook: "${input.keyPhrase}"`,
    `Platform: ${input.platform}: ${length.basis}. Ideal length ${length.minWords}-${length.maxWords} words, never more than ${length.maxChars} characters.`,
    '',
    `Write ${input.count} distinct hooks in English, spread over these formats (the "format" value, then what it does):`,
    ...HOOK_FORMATS.map((format) => `  ${format}: ${HOOK_FORMAT_GUIDE[format]}`),
    '',
    'Rules:',
    '- Never invent facts, statistics, percentages, prices, dates, quotes, studies or names. State nothing about the topic that the topic itself does not say.',
    '- A number may only count what the video itself will cover ("3 mistakes", "5 steps").',
    '- Speak to the viewer ("you"); leave something unanswered so they keep watching.',
    '- One line each; no hashtags, emojis or quotation marks around the hook.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export class OpenAiHookWriter implements HookWriter {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(opts: OpenAiHookWriterOptions) {
    this.client = new OpenAI({
      baseURL: opts.baseUrl,
      apiKey: opts.apiKey,
      timeout: opts.timeoutMs ?? 10_000,
      maxRetries: opts.maxRetries ?? 0,
    });
    this.model = opts.model;
    this.name = `llm:${opts.model}`;
  }

  private async complete(messages: Message[], signal?: AbortSignal): Promise<string> {
    try {
      const res = await this.client.chat.completions.create(
        { model: this.model, messages, temperature: 0.8, response_format: { type: 'json_object' } },
        { signal },
      );
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      throw toProviderError(err);
    }
  }

  /** Asks once, and once more with the problem spelled out if the reply breaks the schema. */
  async propose(input: HookWriterInput, signal?: AbortSignal): Promise<HookCandidate[]> {
    const messages = hookPrompt(input);
    const first = await this.complete(messages, signal);
    const parsed = parseJsonAnswer(first, answerSchema);
    if (typeof parsed !== 'string') return parsed.hooks;
    const retry: Message[] = [
      ...messages,
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `That reply could not be used: ${parsed}. Answer again with only the JSON object described above.`,
      },
    ];
    const again = parseJsonAnswer(await this.complete(retry, signal), answerSchema);
    if (typeof again === 'string') {
      throw new ProviderError({
        provider: PROVIDER,
        code: 'invalid_response',
        message: `the LLM did not return usable hooks twice: ${again}`,
        retryable: true,
      });
    }
    return again.hooks;
  }
}

/** The hook writer when an LLM is configured (config.llm: LLM_BASE_URL, LLM_API_KEY, LLM_MODEL); else none. */
export function createHookWriter(
  llm: ProviderSettings | undefined,
  options: Pick<OpenAiHookWriterOptions, 'timeoutMs' | 'maxRetries'> = {},
): HookWriter | undefined {
  return llm ? new OpenAiHookWriter({ ...llm, ...options }) : undefined;
}
