// The article writer backed by the configured OpenAI-compatible chat API (LLM_BASE_URL, LLM_API_KEY,
// LLM_MODEL), called like the other LLM clients (src/providers/openai-*.ts): the OpenAI SDK, a JSON reply
// checked against a schema and asked for once more when unusable, failures as ProviderError. The model writes
// the parts; the layout, the primary keyword, the slug and the sources are ours. A draft that fails the
// quality gates is sent back once with each failed gate's measurement.
import OpenAI from 'openai';
import { z } from 'zod';
import type { ProviderSettings } from '../../platform/config.ts';
import { parseJsonAnswer } from '../../providers/json-answer.ts';
import { ProviderError, toProviderError } from '../../providers/openai-llm.ts';
import {
  fitMetaDescription,
  META_DESCRIPTION_MAX_CHARS,
  oneLine,
  type ArticleBrief,
  type ArticleDraft,
  type ArticleSource,
} from './article-draft.ts';
import { secondaryKeywords, slugify } from './keywords.ts';
import { QUALITY_THRESHOLDS, type GateName, type QualityReport } from './quality-gates.ts';
import type { TrendMaterial } from './trend-material.ts';

const PROVIDER = 'openai-compatible-llm';
/** One call's limit; the whole article also has a budget (WRITING_BUDGET_MS). */
const DEFAULT_TIMEOUT_MS = 40_000;
/**
 * Every call of one article together. The caller waits, and its Idempotency-Key claim lapses after 120 s (after
 * which a retry with the same key would run again): reading the trend and its reports takes up to 25 s more.
 */
const WRITING_BUDGET_MS = 80_000;
/** Characters of each report given to the model: its lead and main body. */
const REPORT_CHARS = 3_000;
const TARGET_WORDS = { min: 700, max: 1_200 };

const text = z.string().trim().min(1);
const paragraphs = z.union([text.transform((p) => [p]), z.array(text).min(1)]);

const answerSchema = z.object({
  title: text,
  meta_description: text,
  keywords: z.array(text).max(20).default([]),
  intro: paragraphs,
  sections: z
    .array(
      z.object({
        heading: text,
        paragraphs,
        subsections: z.array(z.object({ heading: text, paragraphs })).default([]),
      }),
    )
    .min(1)
    .max(12),
  faq: z
    .array(z.object({ question: text, answer: text }))
    .max(10)
    .default([]),
});
type LlmArticle = z.infer<typeof answerSchema>;
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

export interface LlmArticleInput extends ArticleBrief {
  contentType: 'trend' | 'evergreen';
  material: TrendMaterial | undefined;
}

export interface LlmArticleResult {
  draft: ArticleDraft;
  report: QualityReport;
  /** The gates the first draft failed, when it was revised (empty when it passed at once). */
  revisedFor: GateName[];
}

const SYSTEM =
  'You write search-optimized articles in English for a publication. Reply with one JSON object and nothing else: ' +
  '{"title": string, "meta_description": string, "keywords": string[], "intro": string[], ' +
  '"sections": [{"heading": string, "paragraphs": string[], "subsections": [{"heading": string, "paragraphs": string[]}]}], ' +
  '"faq": [{"question": string, "answer": string}]}.';

function reportsBlock(material: TrendMaterial): string {
  return material.reports
    .map((report, i) => {
      const body = report.paragraphs.join('\n').slice(0, REPORT_CHARS);
      return `Report ${i + 1}: ${report.publisher}, "${report.title}" (${report.finalUrl})\n"""${body}"""`;
    })
    .join('\n\n');
}

function instructions(input: LlmArticleInput): string {
  const keyword = input.primaryKeyword;
  const { material } = input;
  return [
    input.topic && `Topic: ${input.topic}`,
    input.pillar && `Content pillar (the series this article belongs to): ${input.pillar}`,
    `Primary keyword: "${keyword}". Use it, spelled exactly so, in the title, in the first intro paragraph, in at least one section heading and in the meta description.`,
    input.secondaryKeywords.length > 0 &&
      `Secondary keywords to use where they fit: ${input.secondaryKeywords.join(', ')}.`,
    `Length: ${TARGET_WORDS.min}-${TARGET_WORDS.max} words in all (an article under ${QUALITY_THRESHOLDS.minWords} words is refused).`,
    `Structure: a title of at most 70 characters; 1-2 intro paragraphs; at least ${QUALITY_THRESHOLDS.minH2 + 1} sections, each a heading and 1-4 paragraphs, with subsections where a section has distinct parts; 3-6 FAQ entries that answer questions readers search for. Headings are plain text without "#" marks. Do not write a FAQ, conclusion-only or sources section among the sections: the FAQ goes in "faq" and the sources are added for you.`,
    `Meta description: one or two sentences, at most ${META_DESCRIPTION_MAX_CHARS} characters.`,
    `Readability: Flesch-Kincaid grade 8-10 (at most ${QUALITY_THRESHOLDS.maxGrade}): short sentences, plain words, active voice. Never repeat a paragraph.`,
    'Paragraphs are plain prose on one line each; inline Markdown emphasis is allowed; no HTML, no images, no lists.',
    material
      ? `This is a trending story. Use only the facts the reports below state, and name the publisher when you state one of its facts. Add no facts, figures, quotes or dates they do not state.\n\n${reportsBlock(material)}`
      : 'This is an evergreen article: write from well-established knowledge. Never invent statistics, studies, quotes, prices or dates; when a figure would help, explain how the reader can find it instead.',
  ]
    .filter((line): line is string => typeof line === 'string' && line !== '')
    .join('\n');
}

function failures(report: QualityReport): string {
  return report.gates
    .filter((g) => !g.passed)
    .map(
      (g) =>
        `- ${g.gate}: ${g.message} (measured ${JSON.stringify(g.value)}, required ${JSON.stringify(g.threshold)})`,
    )
    .join('\n');
}

export class LlmArticleWriter {
  readonly model: string;
  private readonly client: OpenAI;

  constructor(settings: ProviderSettings & { timeoutMs?: number; maxRetries?: number }) {
    this.client = new OpenAI({
      baseURL: settings.baseUrl,
      apiKey: settings.apiKey,
      timeout: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // The revision round is the retry that matters; a transport retry would double the wait.
      maxRetries: settings.maxRetries ?? 0,
    });
    this.model = settings.model;
  }

  private async complete(messages: Message[], signal: AbortSignal): Promise<string> {
    try {
      const res = await this.client.chat.completions.create(
        { model: this.model, messages, temperature: 0.7, response_format: { type: 'json_object' } },
        { signal },
      );
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      if (signal.aborted)
        throw new ProviderError({
          provider: PROVIDER,
          code: 'timeout',
          message: `the LLM took longer than ${WRITING_BUDGET_MS / 1000} s to write the article`,
          retryable: true,
          cause: err,
        });
      throw toProviderError(err);
    }
  }

  /** The model's article; asked once more with the problem spelled out when the reply is not usable JSON. */
  private async ask(
    messages: Message[],
    signal: AbortSignal,
  ): Promise<{ article: LlmArticle; messages: Message[] }> {
    const first = await this.complete(messages, signal);
    const parsed = parseJsonAnswer(first, answerSchema);
    if (typeof parsed !== 'string')
      return { article: parsed, messages: [...messages, { role: 'assistant', content: first }] };
    const retry: Message[] = [
      ...messages,
      { role: 'assistant', content: first },
      {
        role: 'user',
        content: `That reply could not be used: ${parsed}. Answer again with only the JSON object described.`,
      },
    ];
    const second = await this.complete(retry, signal);
    const again = parseJsonAnswer(second, answerSchema);
    if (typeof again === 'string')
      throw new ProviderError({
        provider: PROVIDER,
        code: 'invalid_response',
        message: `the LLM did not return a usable article twice: ${again}`,
        retryable: true,
      });
    return { article: again, messages: [...retry, { role: 'assistant', content: second }] };
  }

  private draft(input: LlmArticleInput, article: LlmArticle): ArticleDraft {
    const sources: ArticleSource[] =
      input.material?.reports.map((r) => ({ title: r.title, url: r.finalUrl, publisher: r.publisher })) ?? [];
    return {
      title: oneLine(article.title),
      metaDescription: fitMetaDescription(article.meta_description),
      primaryKeyword: input.primaryKeyword,
      secondaryKeywords: secondaryKeywords(input.primaryKeyword, input, [
        ...input.secondaryKeywords,
        ...article.keywords,
      ]),
      slug: slugify(input.primaryKeyword) || 'article',
      intro: article.intro,
      sections: article.sections.map((s) => ({
        heading: s.heading,
        paragraphs: s.paragraphs,
        subsections: s.subsections,
      })),
      faq: article.faq,
      sources,
      ...(input.pillar ? { pillar: input.pillar.trim() } : {}),
    };
  }

  /** Writes the article, checks it with `check`, and revises it once if a gate failed. */
  async write(
    input: LlmArticleInput,
    check: (draft: ArticleDraft) => QualityReport,
  ): Promise<LlmArticleResult> {
    const signal = AbortSignal.timeout(WRITING_BUDGET_MS);
    const asked = await this.ask(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: instructions(input) },
      ],
      signal,
    );
    let draft = this.draft(input, asked.article);
    let report = check(draft);
    if (report.passed) return { draft, report, revisedFor: [] };
    const revisedFor = report.failed;
    const revised = await this.ask(
      [
        ...asked.messages,
        {
          role: 'user',
          content: `The article failed these quality checks:\n${failures(report)}\nRewrite it so that every check passes and reply with the full JSON object again.`,
        },
      ],
      signal,
    );
    draft = this.draft(input, revised.article);
    report = check(draft);
    return { draft, report, revisedFor };
  }
}
