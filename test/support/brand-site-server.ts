// A loopback web server for brand tests: it serves the Northwind Ledger fixture site
// (test/fixtures/brand-site/README.md) and hostile routes, and records every request so tests can assert
// what was and was not fetched. Reach it as http://127.0.0.1:PORT or http://localhost:PORT; a page's
// off-domain links point at the other of the two names, so fetching one would show in the log.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BRAND_SITE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'brand-site');
const SITE_DIR = join(BRAND_SITE_DIR, 'site');

/** The colours and fonts the fixture site declares (site/assets/site.css); tests compare findings to these. */
export const BRAND_SITE_DECLARED = {
  name: 'Northwind Ledger',
  colors: { primary: '#0b6e4f', secondary: '#14213d', accent: '#f4a259', background: '#fbfaf5' },
  themeColor: '#0b6e4f',
  fonts: { heading: 'Space Grotesk', body: 'Inter', quote: 'Merriweather' },
} as const;

/** Hostile answers a test can put at any path (`route`), also always served at /hostile/<kind>. */
export type HostileKind =
  /** 20 MB of HTML, streamed without Content-Length. */
  | 'huge_page'
  /** 20 MB of HTML with an honest Content-Length. */
  | 'huge_page_declared'
  /** 100,000 nested <div>s around a paragraph and a link. */
  | 'deep_nesting'
  /** Headers at once, then one byte of HTML every 500 ms, never finishing. */
  | 'slow_trickle'
  /** Accepts the connection and never answers. */
  | 'hang'
  /** path → path?hop=1 → path → … forever. */
  | 'redirect_loop'
  /** 302 to https://169.254.169.254/latest/meta-data/ (the cloud metadata address). */
  | 'private_redirect'
  /** 302 to /pricing on the server's other host name (another site, as far as a crawler can tell). */
  | 'offsite_redirect'
  /** German page in windows-1252, declared only by <meta http-equiv>. */
  | 'windows_1252_meta'
  /** Japanese page in Shift_JIS, declared only in the Content-Type header. */
  | 'shift_jis_header'
  /** An SVG logo with external entities, a <script>, an onload handler and a remote <image>. */
  | 'svg_entity_script'
  /** A PDF answer (application/pdf) where a page was expected. */
  | 'not_html'
  | 'not_found'
  | 'server_error';

export interface RecordedRequest {
  method: string;
  /** Host header as sent (127.0.0.1:PORT or localhost:PORT). */
  host: string;
  /** Path and query. */
  path: string;
  userAgent: string | null;
}

const HUGE_BYTES = 20 * 1024 * 1024;
const NESTING_DEPTH = 100_000;
const TRICKLE_INTERVAL_MS = 500;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

// Text files whose {{origin}}/{{offsite}} placeholders are filled per request (see README.md).
const TEMPLATED = new Set(['.html', '.txt', '.svg', '.css']);

interface Redirect {
  status: number;
  location: string;
}

export class BrandSiteServer {
  readonly requests: RecordedRequest[] = [];
  private readonly overrides = new Map<string, HostileKind>();
  private readonly trickles = new Set<NodeJS.Timeout>();
  private active = 0;
  private redirects: Record<string, Redirect> = {};

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<BrandSiteServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const site = new BrandSiteServer(server, (server.address() as AddressInfo).port);
    site.redirects = JSON.parse(await readFile(join(SITE_DIR, '_redirects.json'), 'utf8')) as Record<
      string,
      Redirect
    >;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      site.handle(req, res).catch((err: unknown) => res.destroy(err as Error));
    });
    return site;
  }

  /** The site at its IP literal: http://127.0.0.1:PORT */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The same server under the name localhost (another host as far as a crawler of `origin` is concerned). */
  get localhostOrigin(): string {
    return `http://localhost:${this.port}`;
  }

  /** URL of a hostile answer at its fixed path. */
  hostileUrl(kind: HostileKind, origin = this.origin): string {
    return `${origin}/hostile/${kind}`;
  }

  /** Serves `kind` at `path` (exact path, query ignored) until reset(). */
  route(path: string, kind: HostileKind): void {
    this.overrides.set(path, kind);
  }

  /** Clears routes set by route() and the request log. */
  reset(): void {
    this.overrides.clear();
    this.requests.length = 0;
  }

  /** Paths (with query) requested, optionally only those sent to one host name ('127.0.0.1' or 'localhost'). */
  paths(hostname?: string): string[] {
    return this.requests
      .filter((r) => hostname === undefined || r.host.split(':')[0] === hostname)
      .map((r) => r.path);
  }

  /** Responses still open (a client that aborts closes its slow or hanging ones). */
  get activeResponses(): number {
    return this.active;
  }

  async close(): Promise<void> {
    for (const timer of this.trickles) clearInterval(timer);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.active++;
    res.once('close', () => this.active--);
    const host = req.headers.host ?? `127.0.0.1:${this.port}`;
    const url = new URL(req.url ?? '/', `http://${host}`);
    this.requests.push({
      method: req.method ?? 'GET',
      host,
      path: url.pathname + url.search,
      userAgent: req.headers['user-agent'] ?? null,
    });
    const hostile = this.overrides.get(url.pathname) ?? hostileAtFixedPath(url.pathname);
    if (hostile) {
      await this.serveHostile(hostile, url, res);
      return;
    }
    const redirect = this.redirects[url.pathname];
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.location }).end();
      return;
    }
    const file = await findFile(url.pathname);
    if (!file) {
      await this.sendFile(res, 404, join(SITE_DIR, '404.html'), url);
      return;
    }
    await this.sendFile(res, 200, file, url);
  }

  private async sendFile(res: ServerResponse, status: number, file: string, url: URL): Promise<void> {
    const ext = extname(file);
    let body = await readFile(file);
    if (TEMPLATED.has(ext)) body = Buffer.from(this.fillPlaceholders(body.toString('utf8'), url));
    res
      .writeHead(status, {
        'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
        'content-length': body.length,
      })
      .end(body);
  }

  /** {{origin}} is the host the request came to; {{offsite}} the server's other name. */
  private fillPlaceholders(text: string, url: URL): string {
    const offsite = url.hostname === 'localhost' ? this.origin : this.localhostOrigin;
    return text.replaceAll('{{origin}}', url.origin).replaceAll('{{offsite}}', offsite);
  }

  private async serveHostile(kind: HostileKind, url: URL, res: ServerResponse): Promise<void> {
    switch (kind) {
      case 'huge_page':
        streamHuge(res, false);
        return;
      case 'huge_page_declared':
        streamHuge(res, true);
        return;
      case 'deep_nesting': {
        const body =
          '<!doctype html><html><head><title>Deep</title></head><body>' +
          '<div>'.repeat(NESTING_DEPTH) +
          '<p>Deep inside.</p><a href="/pricing">Pricing</a>' +
          '</div>'.repeat(NESTING_DEPTH) +
          '</body></html>';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
        return;
      }
      case 'slow_trickle': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<!doctype html><html><head><title>Slow</title></head><body>');
        const timer = setInterval(() => res.write('.'), TRICKLE_INTERVAL_MS);
        this.trickles.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          this.trickles.delete(timer);
        });
        return;
      }
      case 'hang':
        return;
      case 'redirect_loop': {
        const next = url.searchParams.has('hop') ? url.pathname : `${url.pathname}?hop=1`;
        res.writeHead(302, { location: next }).end();
        return;
      }
      case 'private_redirect':
        res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
        return;
      case 'offsite_redirect':
        res.writeHead(302, { location: this.fillPlaceholders('{{offsite}}/pricing', url) }).end();
        return;
      case 'windows_1252_meta':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(await readFile(join(BRAND_SITE_DIR, 'encodings', 'windows-1252-meta.html')));
        return;
      case 'shift_jis_header':
        res
          .writeHead(200, { 'content-type': 'text/html; charset=Shift_JIS' })
          .end(await readFile(join(BRAND_SITE_DIR, 'encodings', 'shift-jis-header.html')));
        return;
      case 'svg_entity_script': {
        const svg = await readFile(join(BRAND_SITE_DIR, 'hostile', 'logo-entity-script.svg'), 'utf8');
        res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(this.fillPlaceholders(svg, url));
        return;
      }
      case 'not_html':
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n%%EOF\n');
        return;
      case 'not_found':
        await this.sendFile(res, 404, join(SITE_DIR, '404.html'), url);
        return;
      case 'server_error':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
    }
  }
}

function hostileAtFixedPath(pathname: string): HostileKind | undefined {
  const match = /^\/hostile\/([a-z0-9_]+)$/.exec(pathname);
  return match?.[1] !== undefined && HOSTILE_KINDS.has(match[1]) ? (match[1] as HostileKind) : undefined;
}

const HOSTILE_KINDS = new Set<string>([
  'huge_page',
  'huge_page_declared',
  'deep_nesting',
  'slow_trickle',
  'hang',
  'redirect_loop',
  'private_redirect',
  'offsite_redirect',
  'windows_1252_meta',
  'shift_jis_header',
  'svg_entity_script',
  'not_html',
  'not_found',
  'server_error',
] satisfies HostileKind[]);

/** Streams 20 MB of paragraphs, pausing for the socket so memory stays flat; stops when the client leaves. */
function streamHuge(res: ServerResponse, declareLength: boolean): void {
  const chunk = Buffer.from('<p>Northwind Ledger '.padEnd(1020, 'x') + '</p>\n');
  const head = Buffer.from('<!doctype html><html><head><title>Huge</title></head><body>');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    ...(declareLength ? { 'content-length': HUGE_BYTES } : {}),
  });
  let sent = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const pump = (): void => {
    if (sent === 0) {
      res.write(head);
      sent += head.length;
    }
    while (!closed && sent < HUGE_BYTES) {
      const piece = chunk.subarray(0, Math.min(chunk.length, HUGE_BYTES - sent));
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

/** Clean URLs as a static host serves them: /x, /x.html, /x/index.html; files starting with _ stay private. */
async function findFile(pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  if (relative.split(sep).some((part) => part === '..' || part.startsWith('_'))) return null;
  const base = join(SITE_DIR, relative);
  for (const candidate of [base, `${base}.html`, join(base, 'index.html')]) {
    if (!candidate.startsWith(SITE_DIR)) continue;
    const info = await stat(candidate).catch(() => null);
    if (info?.isFile()) return candidate;
  }
  return null;
}
