// A WordPress site's REST API on loopback, as far as POST /articles uses it: POST /wp-json/wp/v2/posts with
// HTTP Basic auth and an application password (WordPress drops the spaces it shows the password with), a JSON
// body of title, content, excerpt, slug and status, answered 201 with the created post (id, link, slug,
// status, rendered fields). A slug already taken gets "-2" appended, as WordPress does. Errors come in
// WordPress's shape, { code, message, data: { status } }. Every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, readBody } from './json-http.ts';

export interface RecordedWordPressRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: any;
}

export interface WordPressPost {
  id: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  status: string;
  link: string;
}

/** How the site answers the next posts: normally, or as a site that is down. */
export type WordPressMode = 'ok' | 'down';

const POSTS_PATH = '/wp-json/wp/v2/posts';

function error(res: ServerResponse, status: number, code: string, message: string): void {
  json(res, status, { code, message, data: { status } });
}

export class WordPressServer {
  readonly requests: RecordedWordPressRequest[] = [];
  readonly posts: WordPressPost[] = [];
  mode: WordPressMode = 'ok';
  private nextId = 101;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly username: string,
    private readonly appPassword: string,
  ) {}

  static async start(credentials: { username: string; appPassword: string }): Promise<WordPressServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const site = new WordPressServer(
      server,
      (server.address() as AddressInfo).port,
      credentials.username,
      credentials.appPassword,
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      site.handle(req, res).catch((err: unknown) => res.destroy(err as Error));
    });
    return site;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private authorized(header: string | undefined): boolean {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header ?? '');
    if (!match) return false;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    const user = decoded.slice(0, colon);
    // WordPress compares application passwords without the spaces it displays them with.
    const password = decoded.slice(colon + 1).replace(/[^a-z\d]/gi, '');
    return user === this.username && password === this.appPassword.replace(/[^a-z\d]/gi, '');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = req.url ?? '';
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    this.requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    if (path !== POSTS_PATH)
      return error(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    if (req.method !== 'POST')
      return error(res, 405, 'rest_no_route', 'No route was found matching the URL and request method.');
    if (this.mode === 'down') return error(res, 503, 'service_unavailable', 'The site is under maintenance.');
    if (!req.headers.authorization)
      return error(
        res,
        401,
        'rest_cannot_create',
        'Sorry, you are not allowed to create posts as this user.',
      );
    if (!this.authorized(req.headers.authorization))
      return error(
        res,
        401,
        'incorrect_password',
        'The provided password is an invalid application password.',
      );
    if (
      !/^application\/json/.test(req.headers['content-type'] ?? '') ||
      typeof body !== 'object' ||
      body === null
    )
      return error(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
    for (const field of ['title', 'content', 'excerpt', 'slug', 'status'] as const) {
      if (typeof body[field] !== 'string')
        return error(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${field}`);
    }
    if (!['publish', 'draft', 'pending', 'private', 'future'].includes(body.status))
      return error(res, 400, 'rest_invalid_param', 'Invalid parameter(s): status');
    let slug = body.slug as string;
    for (let n = 2; this.posts.some((p) => p.slug === slug); n++) slug = `${body.slug}-${n}`;
    const post: WordPressPost = {
      id: this.nextId++,
      title: body.title,
      content: body.content,
      excerpt: body.excerpt,
      slug,
      status: body.status,
      link: `${this.origin}/${slug}/`,
    };
    this.posts.push(post);
    json(res, 201, {
      id: post.id,
      date: new Date().toISOString().slice(0, 19),
      slug: post.slug,
      status: post.status,
      type: 'post',
      link: post.link,
      title: { raw: post.title, rendered: post.title },
      content: { raw: post.content, rendered: post.content, protected: false },
      excerpt: { raw: post.excerpt, rendered: `<p>${post.excerpt}</p>\n`, protected: false },
      author: 1,
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
