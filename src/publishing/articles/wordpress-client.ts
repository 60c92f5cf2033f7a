// Publishes an article to a WordPress site through its REST API (WORDPRESS_BASE_URL, WORDPRESS_USERNAME,
// WORDPRESS_APP_PASSWORD): POST /wp-json/wp/v2/posts, signed in with HTTP Basic auth and an application
// password (Users → Profile → Application Passwords), as status "publish". The answer's id and link say where
// the post lives. The call goes through the outbound URL guard like every other.
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import { clipped, DestinationError } from './destination-error.ts';

export interface WordPressSettings {
  baseUrl: string;
  username: string;
  appPassword: string;
}

export interface WordPressPostInput {
  title: string;
  /** The article body as HTML (WordPress prints the title itself). */
  contentHtml: string;
  excerpt: string;
  slug: string;
}

export interface PublishedPost {
  id: number;
  link: string;
  /** The slug WordPress kept (it appends "-2" when the slug is taken). */
  slug: string;
}

const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

function postsEndpoint(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/wp-json/wp/v2/posts`;
}

/** WordPress REST errors are `{ code, message, data: { status } }`. */
function explanation(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return undefined;
  return clipped(typeof code === 'string' ? `${code}: ${message}` : message);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function publishToWordPress(
  guard: Pick<UrlGuard, 'request'>,
  settings: WordPressSettings,
  post: WordPressPostInput,
): Promise<PublishedPost> {
  const credentials = Buffer.from(`${settings.username}:${settings.appPassword}`).toString('base64');
  let response;
  try {
    response = await guard.request(postsEndpoint(settings.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        title: post.title,
        content: post.contentHtml,
        excerpt: post.excerpt,
        slug: post.slug,
        status: 'publish',
      }),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      // A redirect would turn the POST into a GET (and drop the credentials on another origin).
      redirect: 'manual',
    });
  } catch (error) {
    if (!(error instanceof UrlRejectedError)) throw error;
    throw new DestinationError('unreachable', `WordPress could not be reached: ${error.message}`, true);
  }
  const body = parse(response.body.toString('utf8'));
  const detail = explanation(body);
  const suffix = detail ? ` (${detail})` : '';
  const { status } = response;
  if (status >= 300 && status < 400)
    throw new DestinationError(
      'rejected',
      `WordPress answered a redirect (HTTP ${status}) to ${response.headers.location ?? 'another address'}; set WORDPRESS_BASE_URL to the site's final address.`,
      false,
      status,
    );
  if (status === 401 || status === 403)
    throw new DestinationError(
      'unauthorized',
      `WordPress refused the credentials (HTTP ${status})${suffix}; check WORDPRESS_USERNAME and WORDPRESS_APP_PASSWORD (an application password of a user who may publish posts).`,
      false,
      status,
    );
  if (status === 429 || status >= 500)
    throw new DestinationError('unavailable', `WordPress answered HTTP ${status}${suffix}.`, true, status);
  if (status !== 200 && status !== 201)
    throw new DestinationError(
      'rejected',
      `WordPress refused the post (HTTP ${status})${suffix}.`,
      false,
      status,
    );
  const created = body as { id?: unknown; link?: unknown; slug?: unknown } | undefined;
  if (typeof created?.id !== 'number' || typeof created.link !== 'string')
    throw new DestinationError(
      'bad_response',
      'WordPress answered without the created post’s id and link.',
      false,
      status,
    );
  return {
    id: created.id,
    link: created.link,
    slug: typeof created.slug === 'string' ? created.slug : post.slug,
  };
}
