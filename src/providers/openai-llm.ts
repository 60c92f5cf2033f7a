// Script writer backed by any OpenAI-compatible chat-completions endpoint (LLM_BASE_URL, LLM_API_KEY,
// LLM_MODEL). It asks for JSON, validates it, holds the model to the word budget, the call-to-action rules
// and a brand kit's rules (proof points are the only figures, banned topics never named), and reports
// failures as ProviderError with a retry hint.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { z } from 'zod';
import {
  scriptCta,
  scriptLanguage,
  TONE_GUIDANCE,
  type ScriptBrandContext,
} from '../media/script/brand-context.ts';
import { analyzeBrief } from '../media/script/brief-analysis.ts';
import { checkSentScript, countWords, scriptBudget, ScriptTooLongError } from '../media/script/budget.ts';
import { hooksFor } from '../media/script/hooks.ts';
import { buildSlots, languageCode, resolveStyle } from '../media/script/local-writer.ts';
import {
  allowingFiguresOf,
  describeBreak,
  enforceScriptRules,
  ruleBreaks,
  ScriptPolicyError,
  scriptRulesFor,
  withoutBannedHashtags,
  type DroppedSentence,
  type ScriptRules,
} from '../media/script/script-rules.ts';
import { seededRandom } from '../media/script/seeded.ts';
import { splitSentences } from '../media/script/sentences.ts';
import { fillTemplate } from '../media/script/template.ts';
import {
  displayWebsite,
  MAX_TITLE_CHARS,
  toHashtag,
  writeTitleAndDescription,
} from '../media/script/title-description.ts';
import type { ScriptInput, ScriptWriter, WrittenScript } from '../media/script/writer.ts';
import { parseJsonAnswer } from './json-answer.ts';

/** A failure talking to an external provider; `retryable` says whether trying again later may succeed. */
export class ProviderError extends Error {
  readonly provider: string;
  readonly code: string;
  readonly retryable: boolean;
  readonly status?: number;
  constructor(opts: {
    provider: string;
    code: string;
    message: string;
    retryable: boolean;
    status?: number;
    cause?: unknown;
  }) {
    super(opts.message, { cause: opts.cause });
    this.name = 'ProviderError';
    this.provider = opts.provider;
    this.code = opts.code;
    this.retryable = opts.retryable;
    this.status = opts.status;
  }
}

export interface OpenAiLlmWriterOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per request, in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Retries the client makes itself on connection errors, 408/409/429 and 5xx. Default 2. */
  maxRetries?: number;
  temperature?: number;
}

const PROVIDER = 'openai-compatible-llm';
/** A generated script may run this much over its budget before the model is asked to shorten it. */
const OVERSHOOT_LIMIT = 0.15;

const answerSchema = z.object({
  script: z.string().trim().min(1),
  title: z.string().trim().min(1),
  description: z.string().trim().default(''),
  hashtags: z.union([z.array(z.string()), z.string().transform((s) => s.split(/[\s,]+/))]).default([]),
});
const metaSchema = answerSchema.omit({ script: true });

type Answer = z.infer<typeof answerSchema>;
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/** Maps a client failure to a ProviderError: timeouts, connection errors, 408, 409, 429 and 5xx are retryable. */
export function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof APIUserAbortError)
    return new ProviderError({
      provider: PROVIDER,
      code: 'aborted',
      message: 'the LLM request was aborted',
      retryable: false,
      cause: err,
    });
  if (err instanceof APIConnectionTimeoutError)
    return new ProviderError({
      provider: PROVIDER,
      code: 'timeout',
      message: 'the LLM request timed out',
      retryable: true,
      cause: err,
    });
  if (err instanceof APIConnectionError)
    return new ProviderError({
      provider: PROVIDER,
      code: 'connection',
      message: `could not reach the LLM: ${err.message}`,
      retryable: true,
      cause: err,
    });
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const code =
      status === 429
        ? 'rate_limited'
        : status >= 500
          ? 'server_error'
          : status === 401 || status === 403
            ? 'unauthorized'
            : status === 408
              ? 'timeout'
              : 'request_rejected';
    return new ProviderError({
      provider: PROVIDER,
      code,
      message: `the LLM answered ${status}: ${err.message}`,
      retryable,
      status,
      cause: err,
    });
  }
  return new ProviderError({
    provider: PROVIDER,
    code: 'unknown',
    message: err instanceof Error ? err.message : String(err),
    retryable: false,
    cause: err,
  });
}

function languageName(code: string): string {
  return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
}

/** Reads the model's JSON, tolerating a ```json fence around it. */

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Drops a call to action the model wrote itself at the end and puts the exact text on its own last line. */
export function withCtaLast(script: string, cta: string): string {
  const key = normalize(cta);
  const lines = script
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.at(-1);
  if (last !== undefined) {
    const sentences = splitSentences(last);
    for (let k = 1; k <= sentences.length; k++) {
      if (normalize(sentences.slice(-k).join(' ')) !== key) continue;
      const head = sentences.slice(0, -k).join(' ');
      if (head) lines[lines.length - 1] = head;
      else lines.pop();
      break;
    }
  }
  return [...lines, cta].join('\n');
}

/** Shortens a script at sentence boundaries: keeps the opening and closing sentences, drops from the middle. */
export function trimToWords(script: string, maxWords: number): string {
  const sentences = splitSentences(script);
  while (sentences.length > 2 && countWords(sentences.join(' ')) > maxWords)
    sentences.splice(sentences.length - 2, 1);
  return sentences.join('\n');
}

/** The model's hashtags, cleaned to #CamelCase and capped at 6; our own fill in when it gave fewer than 3. */
function cleanHashtags(raw: readonly string[], fallback: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (tag: string | undefined, max: number): void => {
    if (!tag || seen.has(tag.toLowerCase()) || out.length >= max) return;
    seen.add(tag.toLowerCase());
    out.push(`#${tag}`);
  };
  for (const tag of raw) add(toHashtag(tag.replace(/^#/, '')), 6);
  for (const tag of fallback) add(tag.replace(/^#/, ''), 3);
  return out;
}

function cleanTitle(title: string): string {
  // Shouting in capitals reads as clickbait; acronyms (up to 5 letters) stay.
  let out = title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b(\p{Lu})(\p{Lu}{5,})\b/gu, (_m, a: string, b: string) => a + b.toLowerCase());
  if (out.length > MAX_TITLE_CHARS) {
    const words = out.split(' ');
    while (words.join(' ').length > MAX_TITLE_CHARS) words.pop();
    out = words.join(' ');
  }
  return out;
}

/**
 * What a brand kit tells the model. `figures` says where numbers may come from: for a script, the proof points
 * only; for the post text of a sent script, also that script.
 */
function brandContextLines(c: ScriptBrandContext, figures: 'script' | 'post'): string[] {
  const proof = c.proofPoints.map(
    (p, i) => `${i + 1}. ${p.claim}${p.sourceUrl ? ` (source: ${p.sourceUrl})` : ''}`,
  );
  const where = figures === 'script' ? 'the script' : 'the title and description';
  const numbers = 'numbers, percentages, prices, multiples, years or statistics';
  const audience = c.icp?.roles.length
    ? `Audience (the brand's ideal customer): ${c.icp.roles.join(', ')}` +
      `${c.icp.companySize ? `, at companies of ${c.icp.companySize}` : ''}` +
      `${c.icp.regions.length ? `, in ${c.icp.regions.join(', ')}` : ''}.`
    : undefined;
  return [
    c.offer && `What the brand offers: ${c.offer}`,
    c.industry && `Brand industry: ${c.industry}`,
    audience,
    c.icp?.pains.length && `Their pains: ${c.icp.pains.join('; ')}.`,
    c.tone && `Tone of voice: ${c.tone} (${TONE_GUIDANCE[c.tone]}).`,
    proof.length > 0
      ? `Proof points, the only facts with figures ${where} may state; state no other ${numbers}` +
        `${figures === 'post' ? ' than these and those in the script' : ''}:\n${proof.join('\n')}`
      : `State no ${numbers} in ${where}${figures === 'post' ? ' beyond those in the script' : ''}: the brand has given no proof points.`,
    c.bannedTopics.length > 0 &&
      `Never mention these topics, not even in passing: ${c.bannedTopics.map((t) => `"${t}"`).join(', ')}.`,
    c.topicPool.length > 0 && `Topics the brand talks about: ${c.topicPool.join('; ')}.`,
  ].filter((l): l is string => typeof l === 'string' && l !== '');
}

/**
 * The model's title, description and hashtags without what breaks the kit's rules: the local title stands in
 * for a title that breaks them, and the local description (the script's own sentences) for an emptied one.
 */
function postUnderRules(
  post: { title: string; description: string; hashtags: string[] },
  rules: ScriptRules | undefined,
  local: () => { title: string; description: string },
): { title: string; description: string; hashtags: string[] } {
  if (!rules) return post;
  const { hashtags, description } = withoutBannedHashtags(post, rules);
  const kept = enforceScriptRules(description, rules).script.replace(/\n/g, ' ');
  const title = ruleBreaks(post.title, rules).length > 0 ? local().title : post.title;
  const body = kept || (local().description.split('\n\n')[0] ?? '');
  return { title, description: body, hashtags };
}

function stripHashtags(text: string): string {
  return text
    .replace(/(^|\s)#[\p{L}\p{N}_]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What to tell the model about sentences that broke the kit's rules; nothing when none did. */
function brandComplaint(dropped: readonly DroppedSentence[]): string {
  if (dropped.length === 0) return '';
  const list = dropped.map((d) => `- "${d.sentence}": ${d.breaks.map(describeBreak).join('; ')}`);
  return (
    "These sentences break the brand's rules (figures only from the proof points, no banned topics):\n" +
    `${list.join('\n')}\nRewrite them without those figures or topics, keeping the same length.`
  );
}

export class OpenAiLlmWriter implements ScriptWriter {
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly temperature: number;

  constructor(opts: OpenAiLlmWriterOptions) {
    this.client = new OpenAI({
      baseURL: opts.baseUrl,
      apiKey: opts.apiKey,
      timeout: opts.timeoutMs ?? 60_000,
      maxRetries: opts.maxRetries ?? 2,
    });
    this.model = opts.model;
    this.temperature = opts.temperature ?? 0.7;
  }

  private async complete(messages: Message[]): Promise<string> {
    try {
      const res = await this.client.chat.completions.create({
        model: this.model,
        messages,
        temperature: this.temperature,
        response_format: { type: 'json_object' },
      });
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      throw toProviderError(err);
    }
  }

  /** Asks once, and once more with the problem spelled out if the reply is not the JSON we asked for. */
  private async ask<T extends z.ZodType>(
    messages: Message[],
    schema: T,
  ): Promise<{ value: z.infer<T>; messages: Message[] }> {
    const first = await this.complete(messages);
    const parsed = parseJsonAnswer(first, schema);
    if (typeof parsed !== 'string')
      return { value: parsed, messages: [...messages, { role: 'assistant', content: first }] };
    const retry: Message[] = [
      ...messages,
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `That reply could not be used: ${parsed}. Answer again with only the JSON object described above.`,
      },
    ];
    const second = await this.complete(retry);
    const again = parseJsonAnswer(second, schema);
    if (typeof again === 'string') {
      throw new ProviderError({
        provider: PROVIDER,
        code: 'invalid_response',
        message: `the LLM did not return usable JSON twice: ${again}`,
        retryable: true,
      });
    }
    return { value: again, messages: [...retry, { role: 'assistant', content: second }] };
  }

  async write(input: ScriptInput): Promise<WrittenScript> {
    const purpose = input.contentPurpose ?? 'education';
    const style = resolveStyle(input);
    const voiceSpeed = input.voiceSpeed ?? 1;
    const context = input.brandContext;
    const language = languageCode(scriptLanguage(input.language, context));
    const brief = [input.topic, input.prompt].filter(Boolean).join('\n');
    const website = input.brand?.websiteUrl ? displayWebsite(input.brand.websiteUrl) : undefined;
    const rules = scriptRulesFor(context, { language, names: [input.brand?.name, website] });
    const brandLines = [
      input.brand?.name && `Brand name: ${input.brand.name}`,
      website && `Brand website: ${website}`,
      input.brand?.tone && `Brand tone: ${input.brand.tone}`,
      input.brand?.industry && `Industry: ${input.brand.industry}`,
      input.brand?.keywords?.length && `Brand keywords: ${input.brand.keywords.join(', ')}`,
    ].filter(Boolean);
    const system =
      'You write narration for short vertical videos and the text that goes with the post. ' +
      'Reply with one JSON object and nothing else: {"script": string, "title": string, "description": string, "hashtags": string[]}.';

    if (input.script !== undefined && input.script.trim() !== '') {
      const script = input.script.trim();
      const check = checkSentScript(script, voiceSpeed);
      if (!check.ok) throw new ScriptTooLongError(check);
      const user = [
        `Write the title, description and hashtags for a video narrated with this script (do not change the script):\n"""${script}"""`,
        brief && `Context from the user: ${brief}`,
        `Content purpose: ${purpose}.`,
        ...brandLines,
        ...(context ? brandContextLines(context, 'post') : []),
        `Write in ${languageName(language)} (${language}). Title: at most ${MAX_TITLE_CHARS} characters, no clickbait capitals. Description: 2–3 sentences. Hashtags: 3–6, CamelCase, from the subject and its niche.`,
        'Reply with JSON: {"title": string, "description": string, "hashtags": string[]}.',
      ]
        .filter(Boolean)
        .join('\n');
      const { value } = await this.ask(
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        metaSchema,
      );
      const fallback = writeTitleAndDescription({
        script,
        brief: brief || undefined,
        brand: input.brand,
        contentPurpose: purpose,
        platforms: input.platforms,
        language,
      });
      const post = postUnderRules(
        {
          title: cleanTitle(value.title),
          description: stripHashtags(value.description),
          hashtags: cleanHashtags(value.hashtags, fallback.hashtags),
        },
        rules && allowingFiguresOf(rules, [script]),
        () => fallback,
      );
      return {
        script,
        sentences: splitSentences(script),
        title: post.title,
        description: `${post.description}\n\n${post.hashtags.join(' ')}`,
        hashtags: post.hashtags,
        hookUsed: null,
        ctaUsed: null,
        wordCount: check.words,
        writer: 'llm',
        source: 'request',
      };
    }

    if (!brief.trim()) throw new TypeError('a script needs a prompt, a topic or a script');
    const budget = scriptBudget({ durationSec: input.durationSec, voiceSpeed });
    const cta = scriptCta(input.cta, context);
    const ctaUrl = !input.cta?.trim() ? context?.cta?.url : undefined;
    const ctaWords = cta ? countWords(cta) : 0;
    const bodyTarget = Math.max(budget.targetWords - ctaWords, 1);
    const analysis = analyzeBrief({
      prompt: input.prompt,
      topic: input.topic,
      brandName: input.brand?.name,
      productMinded: purpose === 'sales' || purpose === 'product_demo',
    });
    const slots = buildSlots(analysis, input.brand, budget.durationSec, cta);
    const random = seededRandom((input.take ? undefined : input.seed) ?? brief);
    const hooks = hooksFor(purpose)
      .map((h) => fillTemplate(h.text, slots))
      .filter(
        (h): h is string => h !== undefined && !/\{/.test(h) && (!rules || ruleBreaks(h, rules).length === 0),
      );
    const hook =
      input.includeHook === true
        ? hooks[(Math.floor(random() * hooks.length) + (input.take?.index ?? 0)) % hooks.length]
        : undefined;

    const instructions = [
      `Brief: ${brief}`,
      `Content purpose: ${purpose}. Style: ${style}.`,
      ...(input.take
        ? [
            `This is take ${input.take.index + 1} of ${input.take.count} on this brief: take an angle, examples and wording of its own, as the other takes are written separately.`,
          ]
        : []),
      `Language: write the script, title and description in ${languageName(language)} (${language}).`,
      `Length: the script must be about ${bodyTarget} words (between ${Math.round(bodyTarget * 0.9)} and ${Math.round(bodyTarget * 1.1)}), to be read aloud in ${budget.durationSec} seconds at voice speed ${voiceSpeed}.`,
      'Write plain sentences a narrator reads aloud, one sentence per line: no stage directions, no emojis, no hashtags, no placeholders.',
      hook
        ? `Open with this hook as the first line${language === 'en' ? '' : `, translated naturally into ${languageName(language)}`}: "${hook}"`
        : input.includeHook === false
          ? 'Do not open with a hook or a teaser: start directly with the substance.'
          : 'Open naturally, without a clickbait hook.',
      cta
        ? `Do not write a call to action: this exact line will be added after your script: "${cta}"${ctaUrl ? ` (it leads to ${ctaUrl})` : ''}`
        : website
          ? `End with a sentence that names the website ${website}.`
          : 'End with a natural closing line.',
      ...brandLines,
      ...(context ? brandContextLines(context, 'script') : []),
      input.brand?.name
        ? 'Mention the brand where it fits the story naturally; never invent facts, prices or statistics about it.'
        : 'Never invent statistics or quotes.',
      `Title: at most ${MAX_TITLE_CHARS} characters, no clickbait capitals. Description: 2–3 sentences. Hashtags: 3–6, CamelCase, from the subject and its niche.`,
    ].join('\n');

    let { value, messages } = await this.ask(
      [
        { role: 'system', content: system },
        { role: 'user', content: instructions },
      ],
      answerSchema,
    );
    let answer: Answer = value;
    const bodyOf = (a: Answer): string =>
      cta ? withCtaLast(a.script, cta).split('\n').slice(0, -1).join('\n') : a.script;
    let words = countWords(bodyOf(answer));
    // One corrective round: too long, or sentences that break the kit's rules, are sent back together.
    const complaints = [
      words > bodyTarget * (1 + OVERSHOOT_LIMIT) &&
        `The script has ${words} words; it must have about ${bodyTarget} (at most ${Math.round(bodyTarget * 1.1)}). Shorten it.`,
      rules && brandComplaint(enforceScriptRules(bodyOf(answer), rules).dropped),
    ].filter((c): c is string => typeof c === 'string' && c !== '');
    if (complaints.length > 0) {
      ({ value, messages } = await this.ask(
        [
          ...messages,
          {
            role: 'user',
            content: `${complaints.join('\n')}\nReply with the full JSON object again.`,
          },
        ],
        answerSchema,
      ));
      answer = value;
      words = countWords(bodyOf(answer));
    }
    let body = bodyOf(answer)
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n');
    if (rules) {
      const kept = enforceScriptRules(body, rules);
      if (kept.script.trim() === '') throw new ScriptPolicyError(kept.dropped);
      body = kept.script;
      words = countWords(body);
    }
    if (words > bodyTarget * (1 + OVERSHOOT_LIMIT)) body = trimToWords(body, Math.round(bodyTarget * 1.1));
    if (!cta && website && !body.toLowerCase().includes(website.toLowerCase())) {
      body = `${body}\n${language === 'en' ? `Learn more at ${website}.` : website}`;
    }
    const script = cta ? withCtaLast(body, cta) : body;
    const fallback = writeTitleAndDescription({
      brief,
      analysis,
      brand: input.brand,
      contentPurpose: purpose,
      platforms: input.platforms,
    });
    const post = postUnderRules(
      {
        title: cleanTitle(answer.title),
        description: stripHashtags(answer.description),
        hashtags: cleanHashtags(answer.hashtags, fallback.hashtags),
      },
      rules,
      () =>
        writeTitleAndDescription({
          brief,
          analysis,
          script,
          brand: input.brand,
          contentPurpose: purpose,
          platforms: input.platforms,
        }),
    );
    const sentences = splitSentences(script);
    return {
      script,
      sentences,
      title: post.title,
      description: `${post.description}\n\n${post.hashtags.join(' ')}`,
      hashtags: post.hashtags,
      hookUsed: hook ? (sentences[0] ?? null) : null,
      ctaUsed: cta ?? null,
      wordCount: countWords(script),
      writer: 'llm',
      source: 'llm',
    };
  }
}
