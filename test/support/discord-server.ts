// Discord's Execute Webhook endpoint on loopback: POST /api/webhooks/{id}/{token} with a JSON body of content
// and embeds. With ?wait=true it answers 200 and the created message (a snowflake id as a string); without it,
// 204. A wrong token is 401 "Invalid Webhook Token", an unknown webhook 404. Discord's limits are checked
// (content 2000 characters, at most 10 embeds, embed title 256 and description 4096, content or embeds
// required) with its 50035 "Invalid Form Body". `rateLimitNext` makes the next sends answer 429 with
// retry_after (seconds) in the body and the Retry-After header, as Discord does. Every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, readBody } from './json-http.ts';

export interface RecordedDiscordRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  at: number;
  body: any;
}

export interface DiscordMessage {
  id: string;
  content: string;
  embeds: any[];
}

export class DiscordServer {
  readonly requests: RecordedDiscordRequest[] = [];
  readonly messages: DiscordMessage[] = [];
  /** 429 answers still to give, and the retry_after each states (seconds). */
  rateLimitNext = 0;
  retryAfterSeconds = 0.25;
  private nextId = 1_234_567_890_123_456_000n;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly webhookId: string,
    readonly webhookToken: string,
  ) {}

  static async start(
    webhook = { id: '112233445566778899', token: 'hook-token-abc' },
  ): Promise<DiscordServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const discord = new DiscordServer(
      server,
      (server.address() as AddressInfo).port,
      webhook.id,
      webhook.token,
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      discord.handle(req, res).catch((err: unknown) => res.destroy(err as Error));
    });
    return discord;
  }

  /** The webhook URL as Discord shows it (here on loopback). */
  get webhookUrl(): string {
    return `http://127.0.0.1:${this.port}/api/webhooks/${this.webhookId}/${this.webhookToken}`;
  }

  private invalid(res: ServerResponse, errors: Record<string, unknown>): void {
    json(res, 400, { code: 50035, message: 'Invalid Form Body', errors });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://discord.local');
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      at: Date.now(),
      body,
    });
    const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !match) return json(res, 404, { message: '404: Not Found', code: 0 });
    if (match[1] !== this.webhookId) return json(res, 404, { message: 'Unknown Webhook', code: 10015 });
    if (match[2] !== this.webhookToken)
      return json(res, 401, { message: 'Invalid Webhook Token', code: 50027 });
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: this.retryAfterSeconds, global: false },
        { 'retry-after': String(Math.ceil(this.retryAfterSeconds)), 'x-ratelimit-scope': 'shared' },
      );
    }
    if (typeof body !== 'object' || body === null)
      return json(res, 400, { message: 'Cannot send an empty message', code: 50006 });
    const content = typeof body.content === 'string' ? body.content : '';
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if (!content && embeds.length === 0)
      return json(res, 400, { message: 'Cannot send an empty message', code: 50006 });
    if (content.length > 2000) return this.invalid(res, { content: 'Must be 2000 or fewer in length.' });
    if (embeds.length > 10) return this.invalid(res, { embeds: 'Must be 10 or fewer in length.' });
    for (const embed of embeds) {
      if (typeof embed.title === 'string' && embed.title.length > 256)
        return this.invalid(res, { embeds: { title: 'Must be 256 or fewer in length.' } });
      if (typeof embed.description === 'string' && embed.description.length > 4096)
        return this.invalid(res, { embeds: { description: 'Must be 4096 or fewer in length.' } });
    }
    const message: DiscordMessage = { id: String(this.nextId++), content, embeds };
    this.messages.push(message);
    if (url.searchParams.get('wait') !== 'true') return void res.writeHead(204).end();
    json(res, 200, {
      id: message.id,
      type: 0,
      content,
      embeds,
      channel_id: '998877665544332211',
      webhook_id: this.webhookId,
      author: { id: this.webhookId, username: 'Articles', bot: true },
      timestamp: new Date().toISOString(),
      mentions: [],
      attachments: [],
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
