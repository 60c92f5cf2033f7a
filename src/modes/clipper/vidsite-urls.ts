// The URL forms of spec 1 §4.3. The spec writes the video site with neutral words ("vidsite", "the short
// host", "the main, m or music host"); here they are the real site's hosts:
//   main host  → youtube.com, www.youtube.com
//   m host     → m.youtube.com
//   music host → music.youtube.com
//   short host → youtu.be
// Anything else (other hosts, http, other ports, credentials, other paths) is refused.

export const MAX_URL_LENGTH = 2048;

const MAIN_HOSTS = new Set(['youtube.com', 'www.youtube.com']);
const MOBILE_HOST = 'm.youtube.com';
const MUSIC_HOST = 'music.youtube.com';
const SHORT_HOST = 'youtu.be';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
// Handles and custom names may use letters of any script, digits, '.', '_' and '-'.
const NAME_CHARS = /^[\p{L}\p{M}\p{N}._-]+$/u;
const CHANNEL_TABS = ['videos', 'featured', 'streams'] as const;

export type ChannelTab = (typeof CHANNEL_TABS)[number];

export interface VideoRef {
  videoId: string;
  /** The canonical watch URL of the video. */
  url: string;
}

export interface ChannelRef {
  kind: 'handle' | 'channel_id' | 'custom' | 'user';
  /** The handle (without '@'), channel id, custom name or user name. */
  name: string;
  tab: ChannelTab | null;
  /** Canonical channel URL, as the caller sent it but on www.youtube.com (tab kept). */
  url: string;
  /** Where the channel's uploads are listed: its streams tab when the caller named it, else its videos tab. */
  listingUrl: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

export const VIDEO_URL_FORMS =
  'https://youtu.be/<id>, https://www.youtube.com/watch?v=<id> (also on m. and music.), or https://www.youtube.com/shorts/<id>, /live/<id>, /embed/<id>, where <id> is the 11-character video id';
export const CHANNEL_URL_FORMS =
  'https://www.youtube.com/@handle, /channel/UC<22 characters>, /c/<name> or /user/<name>, optionally followed by /videos, /featured or /streams';

function fail<T>(reason: string): Checked<T> {
  return { ok: false, reason };
}

/** URL syntax shared by both fields: https, default port, no credentials, within the length limit. */
function parseHttps(raw: string): Checked<URL> {
  if (raw.length > MAX_URL_LENGTH) return fail(`must be at most ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(raw)) return fail('is not a valid URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:') return fail('must be an https URL');
  if (url.username || url.password) return fail('must not contain credentials');
  if (url.port) return fail('must not name a port');
  return { ok: true, value: url };
}

/** Path segments without the leading empty one; a single trailing slash is allowed. */
function segmentsOf(url: URL): string[] {
  const path =
    url.pathname.endsWith('/') && url.pathname.length > 1 ? url.pathname.slice(0, -1) : url.pathname;
  return path.split('/').slice(1);
}

function watchUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}

/** Spec 1 §4.3 `vidsite_url`: one video, in one of the listed forms. */
export function parseVideoUrl(raw: string): Checked<VideoRef> {
  const parsed = parseHttps(raw);
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  const host = url.hostname;
  const segments = segmentsOf(url);
  const video = (id: string | undefined | null): Checked<VideoRef> =>
    id && VIDEO_ID.test(id)
      ? { ok: true, value: { videoId: id, url: watchUrl(id) } }
      : fail('must carry an 11-character video id');

  if (host === SHORT_HOST) {
    if (segments.length !== 1 || segments[0] === '') return fail('must be https://youtu.be/<id>');
    return video(segments[0]);
  }
  const main = MAIN_HOSTS.has(host);
  if (!main && host !== MOBILE_HOST && host !== MUSIC_HOST) {
    return fail('must be a video on youtube.com, m.youtube.com, music.youtube.com or youtu.be');
  }
  if (segments.length === 1 && segments[0] === 'watch') {
    const ids = url.searchParams.getAll('v');
    if (ids.length !== 1) return fail('must carry exactly one v=<id> parameter');
    return video(ids[0]);
  }
  if (host !== MUSIC_HOST && segments.length === 2 && ['shorts', 'live', 'embed'].includes(segments[0]!)) {
    return video(segments[1]);
  }
  return fail('must be the address of one video');
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Spec 1 §4.3 `channel_url`: a channel by handle, id, custom name or user name, optionally with a tab. */
export function parseChannelUrl(raw: string): Checked<ChannelRef> {
  const parsed = parseHttps(raw);
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  if (!MAIN_HOSTS.has(url.hostname) && url.hostname !== MOBILE_HOST) {
    return fail('must be a channel on youtube.com or m.youtube.com');
  }
  const segments = segmentsOf(url);
  let tab: ChannelTab | null = null;
  const last = segments[segments.length - 1];
  if (segments.length > 1 && (CHANNEL_TABS as readonly string[]).includes(last!)) {
    tab = last as ChannelTab;
    segments.pop();
  }

  let kind: ChannelRef['kind'];
  let name: string;
  let path: string;
  const first = segments[0] ?? '';
  if (segments.length === 1 && first.startsWith('@')) {
    const handle = decodeSegment(first.slice(1));
    const length = handle === null ? 0 : [...handle].length;
    if (handle === null || length < 3 || length > 100 || !NAME_CHARS.test(handle)) {
      return fail('must name a handle of 3-100 letters, digits, ".", "_" or "-" after "@"');
    }
    kind = 'handle';
    name = handle;
    path = `@${encodeURIComponent(handle)}`;
  } else if (segments.length === 2 && first === 'channel') {
    if (!CHANNEL_ID.test(segments[1]!)) return fail('must name a channel id: "UC" followed by 22 characters');
    kind = 'channel_id';
    name = segments[1]!;
    path = `channel/${name}`;
  } else if (segments.length === 2 && (first === 'c' || first === 'user')) {
    const decoded = decodeSegment(segments[1]!);
    if (decoded === null || [...decoded].length > 100 || !NAME_CHARS.test(decoded)) {
      return fail(`must name a channel after "${first}/" with up to 100 letters, digits, ".", "_" or "-"`);
    }
    kind = first === 'c' ? 'custom' : 'user';
    name = decoded;
    path = `${first}/${encodeURIComponent(decoded)}`;
  } else {
    return fail('must be the address of a channel');
  }
  const base = `https://www.youtube.com/${path}`;
  return {
    ok: true,
    value: {
      kind,
      name,
      tab,
      url: tab ? `${base}/${tab}` : base,
      listingUrl: `${base}/${tab === 'streams' ? 'streams' : 'videos'}`,
    },
  };
}
