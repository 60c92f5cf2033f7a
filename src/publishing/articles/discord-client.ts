// Announces an article in a Discord channel through an incoming webhook (DISCORD_WEBHOOK_URL, as Discord shows
// it under Server Settings → Integrations → Webhooks): Execute Webhook, a POST of `content` and `embeds`, with
// `?wait=true` so Discord answers the created message (its id). A 429 says how long to wait in `retry_after`
// (seconds); a short wait is honoured and the message sent again, a long one is reported instead, since the
// caller is waiting for the article. Mentions are switched off: article text never pings anyone.
import { setTimeout as sleep } from 'node:timers/promises';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import { clipped, DestinationError } from './destination-error.ts';

export interface DiscordArticle {
  title: string;
  description: string;
  /** The published post, when there is one. */
  url?: string;
  primaryKeyword: string;
  wordCount: number;
}

export interface DiscordClientOptions {
  /** Longest rate-limit wait honoured before sending again (default 5 s). */
  maxWaitMs?: number;
  /** Sends after a 429 (default 2). */
  maxRetries?: number;
}

/** Discord's limits: message content 2000 characters, embed title 256, embed description 4096. */
const CONTENT_MAX = 2000;
const EMBED_TITLE_MAX = 256;
const EMBED_DESCRIPTION_MAX = 4096;
const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Discord Markdown in a title would change how the message looks; it is escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>[\]()#-]/g, '\\$&');
}

function discordMessage(article: DiscordArticle): Record<string, unknown> {
  const head = `New article: **${escapeMarkdown(article.title)}**`;
  return {
    content: cut(article.url ? `${head}\n${article.url}` : head, CONTENT_MAX),
    embeds: [
      {
        title: cut(article.title, EMBED_TITLE_MAX),
        description: cut(article.description, EMBED_DESCRIPTION_MAX),
        ...(article.url ? { url: article.url } : {}),
        fields: [
          { name: 'Keyword', value: cut(article.primaryKeyword, 1024), inline: true },
          { name: 'Words', value: String(article.wordCount), inline: true },
        ],
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Seconds to wait from a 429: the body's retry_after, else the Retry-After header. */
function retryAfterSeconds(body: unknown, headers: Record<string, string>): number | undefined {
  const fromBody = (body as { retry_after?: unknown } | undefined)?.retry_after;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  const header = Number(headers['retry-after']);
  return Number.isFinite(header) && header >= 0 ? header : undefined;
}

function executeUrl(webhookUrl: string): string {
  const url = new URL(webhookUrl);
  url.searchParams.set('wait', 'true');
  return url.toString();
}

/** Posts the announcement; answers the created message's id. */
export async function notifyDiscord(
  guard: Pick<UrlGuard, 'request'>,
  webhookUrl: string,
  article: DiscordArticle,
  options: DiscordClientOptions = {},
): Promise<{ messageId: string }> {
  const maxWaitMs = options.maxWaitMs ?? 5_000;
  const maxRetries = options.maxRetries ?? 2;
  const payload = JSON.stringify(discordMessage(article));
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await guard.request(executeUrl(webhookUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: payload,
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
      });
    } catch (error) {
      if (!(error instanceof UrlRejectedError)) throw error;
      throw new DestinationError('unreachable', `Discord could not be reached: ${error.message}`, true);
    }
    const body = parse(response.body.toString('utf8'));
    const { status } = response;
    if (status === 429) {
      const wait = retryAfterSeconds(body, response.headers);
      if (wait !== undefined && wait * 1000 <= maxWaitMs && attempt < maxRetries) {
        await sleep(Math.ceil(wait * 1000));
        continue;
      }
      throw new DestinationError(
        'rate_limited',
        `Discord is rate-limiting this webhook${wait === undefined ? '' : `; it asks to wait ${wait} s`}.`,
        true,
        status,
      );
    }
    const message = (body as { message?: unknown } | undefined)?.message;
    const suffix = typeof message === 'string' ? ` (${clipped(message)})` : '';
    if (status === 401 || status === 403 || status === 404)
      throw new DestinationError(
        'unauthorized',
        `Discord refused the webhook (HTTP ${status})${suffix}; check DISCORD_WEBHOOK_URL (the webhook may have been deleted).`,
        false,
        status,
      );
    if (status >= 500)
      throw new DestinationError('unavailable', `Discord answered HTTP ${status}${suffix}.`, true, status);
    if (status !== 200)
      throw new DestinationError(
        'rejected',
        `Discord refused the message (HTTP ${status})${suffix}.`,
        false,
        status,
      );
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string')
      throw new DestinationError(
        'bad_response',
        'Discord answered without the created message’s id.',
        false,
        status,
      );
    return { messageId: id };
  }
}
