// One loopback server replaying every trend source in its real, documented protocol, from the recorded
// payloads in test/fixtures/signals (README.md there describes them). Each source lives under its own path
// prefix, reached by pointing the source's base URL at it (`baseUrls`, `trendSettings()`), and can be
// switched, alone, to answer like a dead, slow, broken, hostile or throttled service. Every request is
// recorded so tests can assert what a client sent (Reddit's token request, YouTube's calls).
//
// Times in the fixtures are written relative to the server's clock ({{rfc822:-2h}}, {{iso:-35m}},
// {{unix:-3h}}, {{gdelt:-1h}}) and filled in when served, so the payloads stay fresh for the radar and exact
// for tests that fix the clock.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TrendSourceSettings } from '../../src/platform/config.ts';
import type { FeedSpec } from '../../src/signals/sources/feed-list.ts';
import type { SourceName } from '../../src/signals/sources/source-item.ts';

export const SIGNAL_FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'signals');

/**
 * How a source answers:
 * - ok: its recorded payloads;
 * - down: 503 Service Unavailable;
 * - slow: nothing for `slowMs` (default 5 s), then the payload;
 * - malformed: 200 with a broken body (truncated JSON; for feeds, XML that does not close);
 * - hostile: 200 with an attack (for feeds, the billion-laughs document; for APIs, 20 MB of JSON);
 * - quota: the service's own "used too much" answer (YouTube: 403 quotaExceeded; GDELT: a 200 in plain text
 *   asking for one request every 5 seconds; the others: 429).
 */
export type SourceMode = 'ok' | 'down' | 'slow' | 'malformed' | 'hostile' | 'quota';

export type HostileFeed = 'billion-laughs' | 'external-entity' | 'malformed' | 'huge';

export interface RecordedSignalRequest {
  source: SourceName | 'unknown';
  method: string;
  /** Path and query, as received. */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The app credentials and key the replayed Reddit and YouTube accept. */
export const REPLAY_REDDIT_CREDENTIALS = {
  clientId: 'replay-client-id',
  clientSecret: 'replay-client-secret',
};
export const REPLAY_YOUTUBE_KEY = 'replay-youtube-key';

/** The feeds under /feeds/, with the tags a TRENDS_FEEDS list would give them. */
export const REPLAY_FEEDS: readonly {
  file: string;
  geo?: string;
  category?: FeedSpec['category'];
  name: string;
}[] = [
  { file: 'google-trends-us.xml', geo: 'US', name: 'Google Trends US' },
  { file: 'google-news-technology-us.xml', geo: 'US', category: 'tech', name: 'Google News US technology' },
  { file: 'bbc-world.xml', name: 'BBC News World' },
  { file: 'verge-atom.xml', geo: 'US', category: 'tech', name: 'The Verge' },
  { file: 'espn-sports.xml', geo: 'US', category: 'sports', name: 'ESPN' },
  { file: 'variety-entertainment.xml', geo: 'US', category: 'entertainment', name: 'Variety' },
  { file: 'aggregator-digest.xml', geo: 'US', name: 'Daily Digest' },
];

const HUGE_BYTES = 20 * 1024 * 1024;
const DAY_MS = 86_400_000;
const UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY_MS };

const SOURCE_PREFIXES: [string, SourceName][] = [
  ['/feeds/', 'feed'],
  ['/hn/', 'hackernews'],
  ['/gdelt/', 'gdelt'],
  ['/wikimedia/', 'wikipedia'],
  ['/reddit/', 'reddit'],
  ['/youtube/', 'youtube'],
];

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * Fills {{kind:offset}} time tokens (and {{name}} variables) relative to `now`. A unix token is a number: written
 * quoted so the fixture stays valid JSON ("time": "{{unix:-3h}}"), it is served bare ("time": 1773129600).
 */
export function renderFixture(text: string, now: Date, vars: Record<string, string> = {}): string {
  return text.replace(
    /("?)\{\{([a-z0-9]+)(?::([^}]*))?\}\}("?)/g,
    (whole, open: string, kind: string, arg: string | undefined, close: string) => {
      const quoted = (value: string) => `${open}${value}${close}`;
      const variable = vars[arg === undefined ? kind : `${kind}:${arg}`];
      if (variable !== undefined) return quoted(variable);
      const offset = /^([+-]\d+)([mhd])$/.exec(arg ?? '');
      if (!offset?.[1] || !offset[2]) return whole;
      const at = new Date(now.getTime() + Number(offset[1]) * (UNITS_MS[offset[2]] ?? 0));
      switch (kind) {
        case 'rfc822':
          return quoted(at.toUTCString().replace('GMT', '+0000'));
        case 'iso':
          return quoted(at.toISOString().replace('.000Z', 'Z'));
        case 'unix':
          return String(Math.floor(at.getTime() / 1000));
        case 'gdelt':
          return quoted(
            `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`,
          );
        default:
          return whole;
      }
    },
  );
}

export interface SignalSourcesServerOptions {
  /** The clock fixture times are relative to; default the real one. */
  now?: () => Date;
  slowMs?: number;
  /** Reddit access tokens' stated lifetime (expires_in), seconds. */
  redditTokenSeconds?: number;
}

export class SignalSourcesServer {
  readonly requests: RecordedSignalRequest[] = [];
  private readonly modes = new Map<SourceName, SourceMode>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly redditTokens = new Set<string>();
  private tokensIssued = 0;
  private readonly now: () => Date;
  private readonly slowMs: number;
  private readonly redditTokenSeconds: number;
  /** The latest day Wikimedia has published (UTC midnight); default: yesterday by the server's clock. */
  wikimediaLatestDay: Date | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    options: SignalSourcesServerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.slowMs = options.slowMs ?? 5_000;
    this.redditTokenSeconds = options.redditTokenSeconds ?? 3600;
  }

  static async start(options: SignalSourcesServerOptions = {}): Promise<SignalSourcesServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const replay = new SignalSourcesServer(server, (server.address() as AddressInfo).port, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      replay.handle(req, res).catch((err: unknown) => res.destroy(err as Error));
    });
    return replay;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Base URLs for TRENDS_*_BASE_URL, pointing each source at its replay. */
  get baseUrls(): Required<TrendSourceSettings['baseUrls']> {
    return {
      hackerNews: `${this.origin}/hn/v0`,
      gdelt: `${this.origin}/gdelt`,
      reddit: `${this.origin}/reddit`,
      wikimedia: `${this.origin}/wikimedia/api/rest_v1`,
      youtube: `${this.origin}/youtube/v3`,
    };
  }

  feedUrl(file: string): string {
    return `${this.origin}/feeds/${file}`;
  }

  hostileFeedUrl(kind: HostileFeed): string {
    return `${this.origin}/feeds/hostile/${kind}.xml`;
  }

  /** The replayed feeds as a TRENDS_FEEDS list. */
  feeds(): FeedSpec[] {
    return REPLAY_FEEDS.map(({ file, ...tags }) => ({ url: this.feedUrl(file), ...tags }));
  }

  /** Settings that point every source here, with Reddit and YouTube switched on. */
  trendSettings(): TrendSourceSettings {
    return {
      feeds: this.feeds(),
      baseUrls: this.baseUrls,
      reddit: REPLAY_REDDIT_CREDENTIALS,
      youtubeApiKey: REPLAY_YOUTUBE_KEY,
    };
  }

  set(source: SourceName, mode: SourceMode): void {
    this.modes.set(source, mode);
  }

  setAll(mode: SourceMode): void {
    for (const [, source] of SOURCE_PREFIXES) this.modes.set(source, mode);
  }

  /** Every source back to 'ok', requests forgotten, Reddit tokens revoked. */
  reset(): void {
    this.modes.clear();
    this.requests.length = 0;
    this.redditTokens.clear();
    this.tokensIssued = 0;
    this.wikimediaLatestDay = undefined;
  }

  /** Reddit forgets the tokens it issued (as when one is revoked before its stated expiry). */
  revokeRedditTokens(): void {
    this.redditTokens.clear();
  }

  requestsFor(source: SourceName): RecordedSignalRequest[] {
    return this.requests.filter((request) => request.source === source);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    const source = SOURCE_PREFIXES.find(([prefix]) => path.startsWith(prefix))?.[1];
    const body = Buffer.concat(chunks).toString('utf8');
    this.requests.push({
      source: source ?? 'unknown',
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
    });
    if (!source) return void res.writeHead(404).end('Not Found');
    const url = new URL(path, this.origin);
    if (source === 'feed' && url.pathname.startsWith('/feeds/hostile/'))
      return this.hostileFeed(url.pathname, res);
    const mode = this.modes.get(source) ?? 'ok';
    switch (mode) {
      case 'ok':
        return this.answer(source, req, body, url, res);
      case 'down':
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) this.answer(source, req, body, url, res).catch(() => res.destroy());
        }, this.slowMs);
        this.timers.add(timer);
        return;
      }
      case 'malformed':
        if (source === 'feed') return this.sendFixture(res, 'hostile/malformed.xml', 'application/rss+xml');
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"items": [{"title": "cut');
      case 'hostile':
        if (source === 'feed')
          return this.sendFixture(res, 'hostile/billion-laughs.xml', 'application/rss+xml');
        return this.streamHuge(
          res,
          'application/json',
          '{"items": [',
          '{"title": "padding padding padding"},',
        );
      case 'quota':
        if (source === 'youtube') return this.youtubeError(res, 403, 'quotaExceeded', 'youtube.quota');
        // GDELT throttles with a 200 in plain text.
        if (source === 'gdelt')
          return void res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end('Please limit requests to one every 5 seconds.\n');
        return void res
          .writeHead(429, { 'content-type': 'text/plain', 'retry-after': '60' })
          .end('Too Many Requests');
    }
  }

  private async answer(
    source: SourceName,
    req: IncomingMessage,
    body: string,
    url: URL,
    res: ServerResponse,
  ): Promise<void> {
    switch (source) {
      case 'feed':
        return this.feed(url, res);
      case 'hackernews':
        return this.hackerNews(url, res);
      case 'gdelt':
        return this.gdelt(url, res);
      case 'wikipedia':
        return this.wikimedia(url, res);
      case 'reddit':
        return this.reddit(req, body, url, res);
      case 'youtube':
        return this.youtube(url, res);
    }
  }

  /**
   * A fixture with its tokens filled, as bytes. Tokens are ASCII, so rendering over the latin1 reading of the
   * file keeps every other byte as written (a feed keeps its declared encoding, JSON its UTF-8).
   */
  private async fixture(name: string, vars: Record<string, string> = {}): Promise<Buffer | undefined> {
    try {
      const text = renderFixture(await readFile(join(SIGNAL_FIXTURES_DIR, name), 'latin1'), this.now(), vars);
      return Buffer.from(text, 'latin1');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  private async sendFixture(
    res: ServerResponse,
    name: string,
    contentType: string,
    vars: Record<string, string> = {},
  ): Promise<void> {
    const body = await this.fixture(name, vars);
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    res.writeHead(200, { 'content-type': contentType }).end(body);
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  }

  private async feed(url: URL, res: ServerResponse): Promise<void> {
    const file = url.pathname.slice('/feeds/'.length);
    if (!REPLAY_FEEDS.some((feed) => feed.file === file)) return void res.writeHead(404).end('Not Found');
    const type = file.endsWith('-atom.xml') ? 'application/atom+xml' : 'application/rss+xml';
    return this.sendFixture(res, `feeds/${file}`, type);
  }

  private async hostileFeed(pathname: string, res: ServerResponse): Promise<void> {
    const kind = pathname.slice('/feeds/hostile/'.length).replace(/\.xml$/, '');
    if (kind === 'huge') {
      return this.streamHuge(
        res,
        'application/rss+xml',
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>',
        '<item><title>Padding item</title><link>https://huge.example/</link></item>',
      );
    }
    return this.sendFixture(res, `hostile/${kind}.xml`, 'application/rss+xml');
  }

  /** 20 MB of `unit`s after `head`, streamed without a Content-Length, as an endless feed or API would. */
  private streamHuge(res: ServerResponse, contentType: string, head: string, unit: string): void {
    res.writeHead(200, { 'content-type': contentType });
    const block = Buffer.from(unit.repeat(Math.ceil(65_536 / unit.length)));
    let sent = 0;
    res.write(head);
    const pump = (): void => {
      while (sent < HUGE_BYTES) {
        sent += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => {});
    pump();
  }

  private async hackerNews(url: URL, res: ServerResponse): Promise<void> {
    if (url.pathname === '/hn/v0/topstories.json')
      return this.sendFixture(res, 'hackernews/topstories.json', 'application/json; charset=utf-8');
    const id = /^\/hn\/v0\/item\/(\d+)\.json$/.exec(url.pathname)?.[1];
    if (!id) return this.json(res, 404, { error: 'Not Found' });
    const items = JSON.parse((await this.fixture('hackernews/items.json'))?.toString('utf8') ?? '[]') as {
      id: number;
    }[];
    // Firebase answers `null` for an id it does not hold.
    this.json(res, 200, items.find((item) => item.id === Number(id)) ?? null);
  }

  private async gdelt(url: URL, res: ServerResponse): Promise<void> {
    const text = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname !== '/gdelt/api/v2/doc/doc') return void text(404, 'Not Found');
    const query = url.searchParams.get('query') ?? '';
    if (
      url.searchParams.get('mode')?.toLowerCase() !== 'artlist' ||
      url.searchParams.get('format') !== 'json'
    )
      return void text(200, 'Invalid mode or format.');
    if (query.trim() === '') return void text(200, 'Invalid query.');
    const country = /sourcecountry:([A-Za-z]{2})\b/.exec(query)?.[1]?.toUpperCase();
    const body = country ? await this.fixture(`gdelt/artlist-${country}.json`) : undefined;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body ?? '{}');
  }

  private async wikimedia(url: URL, res: ServerResponse): Promise<void> {
    const match =
      /^\/wikimedia\/api\/rest_v1\/metrics\/pageviews\/top-per-country\/([A-Z]{2})\/([a-z-]+)\/(\d{4})\/(\d{2})\/(\d{2})$/.exec(
        url.pathname,
      );
    const notFound = (detail: string) =>
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end(
        JSON.stringify({
          type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
          title: 'Not found.',
          method: 'get',
          detail,
          uri: url.pathname.replace('/wikimedia/api/rest_v1', '/analytics.wikimedia.org/v1'),
        }),
      );
    if (!match) return void notFound('Invalid route for your request.');
    const [, country = '', access = '', year = '', month = '', day = ''] = match;
    const latest =
      this.wikimediaLatestDay ?? new Date(Math.floor(this.now().getTime() / DAY_MS) * DAY_MS - DAY_MS);
    if (Date.UTC(Number(year), Number(month) - 1, Number(day)) > latest.getTime()) {
      return void notFound(
        'The date(s) you used are valid, but we either do not have data for those date(s), or the project you asked for is not loaded yet. Please check documentation for more information.',
      );
    }
    const body = await this.fixture(`wikimedia/top-per-country-${country}.json`, {
      'wiki:country': country,
      'wiki:access': access,
      'wiki:year': year,
      'wiki:month': month,
      'wiki:day': day,
    });
    if (body === undefined)
      return void notFound('The date(s) you used are valid, but we do not have data for them.');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  }

  private async reddit(
    req: IncomingMessage,
    requestBody: string,
    url: URL,
    res: ServerResponse,
  ): Promise<void> {
    if (url.pathname === '/reddit/api/v1/access_token') {
      const expected = Buffer.from(
        `${REPLAY_REDDIT_CREDENTIALS.clientId}:${REPLAY_REDDIT_CREDENTIALS.clientSecret}`,
      ).toString('base64');
      if (req.method !== 'POST' || req.headers.authorization !== `Basic ${expected}`)
        return this.json(res, 401, { message: 'Unauthorized', error: 401 });
      const form = new URLSearchParams(requestBody);
      if (form.get('grant_type') !== 'client_credentials')
        return this.json(res, 200, { error: 'unsupported_grant_type' });
      const token = `replay-token-${++this.tokensIssued}`;
      this.redditTokens.add(token);
      return this.json(res, 200, {
        access_token: token,
        token_type: 'bearer',
        expires_in: this.redditTokenSeconds,
        scope: '*',
      });
    }
    const subreddit = /^\/reddit\/r\/([A-Za-z0-9_]+)\/hot$/.exec(url.pathname)?.[1];
    if (!subreddit) return this.json(res, 404, { message: 'Not Found', error: 404 });
    const token = /^bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !this.redditTokens.has(token))
      return this.json(res, 401, { message: 'Unauthorized', error: 401 });
    const body = await this.fixture(`reddit/${subreddit.toLowerCase()}-hot.json`, {
      'reddit:g': url.searchParams.get('g') ?? '',
    });
    if (body === undefined) {
      return this.json(res, 200, {
        kind: 'Listing',
        data: { after: null, dist: 0, modhash: '', geo_filter: '', children: [], before: null },
      });
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(body);
  }

  private youtubeError(res: ServerResponse, code: number, reason: string, domain: string): void {
    const message =
      reason === 'quotaExceeded'
        ? 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.'
        : 'API key not valid. Please pass a valid API key.';
    this.json(res, code, { error: { code, message, errors: [{ message, domain, reason }] } });
  }

  private async youtube(url: URL, res: ServerResponse): Promise<void> {
    if (url.pathname !== '/youtube/v3/videos')
      return this.json(res, 404, { error: { code: 404, message: 'Not Found' } });
    if (url.searchParams.get('key') !== REPLAY_YOUTUBE_KEY)
      return this.youtubeError(res, 400, 'keyInvalid', 'usageLimits');
    if (url.searchParams.get('chart') !== 'mostPopular') {
      return this.json(res, 400, {
        error: {
          code: 400,
          message: 'No filter selected.',
          errors: [{ reason: 'missingRequiredParameter' }],
        },
      });
    }
    const region = url.searchParams.get('regionCode') ?? 'US';
    const body = await this.fixture(`youtube/most-popular-${region}.json`);
    if (body === undefined) {
      return this.json(res, 200, {
        kind: 'youtube#videoListResponse',
        etag: 'replayEtagEmpty',
        items: [],
        pageInfo: { totalResults: 0, resultsPerPage: 0 },
      });
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(body);
  }
}
