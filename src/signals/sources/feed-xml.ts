// Reads one RSS 2.0, RSS 1.0 (RDF) or Atom document into plain entries, safely:
// - a document declaring a DOCTYPE is refused before parsing: DOCTYPEs are where entity declarations live
//   ("billion laughs" expansion, external entities pointing at local files), and feeds do not need one;
// - fast-xml-parser runs with entity processing off, so nothing declared anywhere is ever expanded; only the
//   five predefined entities and numeric references are decoded afterwards (feed-text.ts);
// - the document must be well-formed (fast-xml-parser's validator) and have a feed root, else it is refused.
// Size is bounded before this point (the URL guard's byte cap, or the file reader's), so time is too.
import { TextDecoder } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { feedText, feedValue } from './feed-text.ts';

export type FeedRefusal = 'doctype' | 'malformed' | 'not_a_feed';

export class FeedParseError extends Error {
  constructor(
    readonly reason: FeedRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'FeedParseError';
  }
}

export interface FeedNewsLink {
  title: string;
  url: string;
  /** The publisher's name as the feed gives it ("Reuters"). */
  source?: string;
}

export interface FeedEntry {
  title: string;
  link?: string;
  /** ISO 8601, when the entry carries a readable date. */
  publishedAt?: string;
  summary?: string;
  /** RSS <source url="…">: the publisher an aggregator (Google News) credits for the entry. */
  source?: { name: string; url?: string };
  /** Google Trends' ht:approx_traffic as written ("200,000+"). */
  approxTraffic?: string;
  /** Google Trends' ht:news_item articles. */
  newsItems: FeedNewsLink[];
}

export interface ParsedFeed {
  format: 'rss' | 'rdf' | 'atom';
  title?: string;
  link?: string;
  entries: FeedEntry[];
}

const GOOGLE_TRENDS_NAMESPACE = 'trends.google.com/trending/rss';
const SUMMARY_MAX_CHARS = 500;
const TITLE_MAX_CHARS = 300;
const ARRAY_TAGS = new Set(['item', 'entry', 'link']);

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => ARRAY_TAGS.has(name) || name.endsWith(':news_item'),
});

function charsetOf(contentType: string | undefined): string | undefined {
  const param = contentType
    ?.split(';')
    .slice(1)
    .map((part) => part.trim().split('='))
    .find(([key]) => key?.toLowerCase() === 'charset');
  return param?.[1]?.replace(/^["']|["']$/g, '').trim() || undefined;
}

function declaredEncoding(bytes: Buffer): string | undefined {
  // The XML declaration is ASCII by definition, whatever the document's encoding.
  const head = bytes.subarray(0, 200).toString('latin1');
  if (!head.startsWith('<?xml')) return undefined;
  const declaration = head.slice(0, head.indexOf('?>') + 1 || head.length);
  return /\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(declaration)?.[1];
}

function decoder(label: string | undefined): TextDecoder {
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** Bytes to text by RFC 7303's order: byte-order mark, then the Content-Type charset, then the XML declaration. */
export function decodeFeed(bytes: Buffer, contentType?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decoder('utf-8').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decoder('utf-16le').decode(bytes);
  return decoder(charsetOf(contentType) ?? declaredEncoding(bytes)).decode(bytes);
}

/** Whether the prolog (what precedes the root element) holds a <!DOCTYPE …>. */
export function declaresDoctype(text: string): boolean {
  let i = 0;
  for (;;) {
    while (i < text.length && /[\s\uFEFF]/.test(text[i] as string)) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else {
      return text.slice(i, i + 9).toUpperCase() === '<!DOCTYPE';
    }
  }
}

function rawText(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return rawText(node[0]);
  if (node && typeof node === 'object' && '#text' in node) return rawText((node as XmlNode)['#text']);
  return undefined;
}

function text(node: unknown, maxChars?: number): string | undefined {
  const raw = rawText(node);
  if (raw === undefined) return undefined;
  const value = feedText(raw);
  if (value === '') return undefined;
  return maxChars !== undefined && value.length > maxChars
    ? `${value.slice(0, maxChars - 1).trimEnd()}…`
    : value;
}

function value(node: unknown): string | undefined {
  const raw = rawText(node);
  const result = raw === undefined ? '' : feedValue(raw);
  return result === '' ? undefined : result;
}

function attribute(node: unknown, name: string): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const raw = (node as XmlNode)[`@_${name}`];
  return typeof raw === 'string' && raw.trim() !== '' ? feedValue(raw) : undefined;
}

function isoDate(node: unknown): string | undefined {
  const raw = value(node);
  if (raw === undefined) return undefined;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function asList(node: unknown): unknown[] {
  if (node === undefined || node === null || node === '') return [];
  return Array.isArray(node) ? node : [node];
}

/** An Atom <link>: the rel="alternate" one (or one without rel), else the first with an href. */
function atomLink(links: unknown): string | undefined {
  const candidates = asList(links).filter((link) => attribute(link, 'href') !== undefined);
  const alternate = candidates.find((link) => (attribute(link, 'rel') ?? 'alternate') === 'alternate');
  return attribute(alternate ?? candidates[0], 'href');
}

/** An RSS <link>: the first with text (RSS items sometimes add <atom:link> siblings, which are ignored). */
function rssLink(item: XmlNode): string | undefined {
  const direct = asList(item.link)
    .map(value)
    .find((link) => link !== undefined);
  if (direct) return direct;
  const guid = item.guid;
  const permalink = attribute(guid, 'isPermaLink') !== 'false' ? value(guid) : undefined;
  return permalink && /^https?:\/\//i.test(permalink) ? permalink : undefined;
}

/** The prefix the document binds to Google Trends' namespace ("ht" in Google's own feeds). */
function trendsPrefix(root: XmlNode): string | undefined {
  for (const [key, uri] of Object.entries(root)) {
    if (key.startsWith('@_xmlns:') && typeof uri === 'string' && uri.includes(GOOGLE_TRENDS_NAMESPACE))
      return key.slice('@_xmlns:'.length);
  }
  return undefined;
}

function rssEntry(item: XmlNode, ht: string | undefined): FeedEntry | undefined {
  const title = text(item.title, TITLE_MAX_CHARS);
  if (!title) return undefined;
  const entry: FeedEntry = { title, newsItems: [] };
  const link = rssLink(item);
  if (link) entry.link = link;
  const publishedAt = isoDate(item.pubDate) ?? isoDate(item['dc:date']);
  if (publishedAt) entry.publishedAt = publishedAt;
  const summary =
    text(item.description, SUMMARY_MAX_CHARS) ?? text(item['content:encoded'], SUMMARY_MAX_CHARS);
  if (summary) entry.summary = summary;
  const sourceName = text(item.source);
  if (sourceName) {
    const url = attribute(item.source, 'url');
    entry.source = url ? { name: sourceName, url } : { name: sourceName };
  }
  if (ht) {
    const traffic = value(item[`${ht}:approx_traffic`]);
    if (traffic) entry.approxTraffic = traffic;
    for (const news of asList(item[`${ht}:news_item`])) {
      if (!news || typeof news !== 'object') continue;
      const fields = news as XmlNode;
      const newsTitle = text(fields[`${ht}:news_item_title`], TITLE_MAX_CHARS);
      const url = value(fields[`${ht}:news_item_url`]);
      if (!newsTitle || !url) continue;
      const source = text(fields[`${ht}:news_item_source`]);
      entry.newsItems.push(source ? { title: newsTitle, url, source } : { title: newsTitle, url });
    }
  }
  return entry;
}

function atomEntry(item: XmlNode): FeedEntry | undefined {
  const title = text(item.title, TITLE_MAX_CHARS);
  if (!title) return undefined;
  const entry: FeedEntry = { title, newsItems: [] };
  const link = atomLink(item.link);
  if (link) entry.link = link;
  const publishedAt = isoDate(item.published) ?? isoDate(item.updated);
  if (publishedAt) entry.publishedAt = publishedAt;
  const summary = text(item.summary, SUMMARY_MAX_CHARS) ?? text(item.content, SUMMARY_MAX_CHARS);
  if (summary) entry.summary = summary;
  return entry;
}

function objectAt(node: unknown): XmlNode | undefined {
  const first = Array.isArray(node) ? node[0] : node;
  return first && typeof first === 'object' ? (first as XmlNode) : undefined;
}

function entriesOf(items: unknown, map: (item: XmlNode) => FeedEntry | undefined, max: number): FeedEntry[] {
  const entries: FeedEntry[] = [];
  for (const item of asList(items)) {
    if (entries.length >= max) break;
    if (!item || typeof item !== 'object') continue;
    const entry = map(item as XmlNode);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Parses a feed document; throws FeedParseError when it is refused. */
export function parseFeed(bytes: Buffer, contentType?: string, maxEntries = 100): ParsedFeed {
  const xml = decodeFeed(bytes, contentType);
  if (declaresDoctype(xml)) {
    throw new FeedParseError('doctype', 'the document declares a DOCTYPE (entity declarations are not read)');
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new FeedParseError('malformed', `malformed XML at line ${valid.err.line}: ${valid.err.msg}`);
  }
  let document: XmlNode;
  try {
    document = parser.parse(xml) as XmlNode;
  } catch (err) {
    throw new FeedParseError('malformed', `unreadable XML (${(err as Error).message})`);
  }
  const rss = objectAt(document.rss);
  const channel = objectAt(rss?.channel);
  if (rss && channel) {
    const ht = trendsPrefix(rss);
    return {
      format: 'rss',
      ...optional('title', text(channel.title)),
      ...optional('link', asList(channel.link).map(value).find(Boolean)),
      entries: entriesOf(channel.item, (item) => rssEntry(item, ht), maxEntries),
    };
  }
  const atom = objectAt(document.feed);
  if (atom) {
    return {
      format: 'atom',
      ...optional('title', text(atom.title)),
      ...optional('link', atomLink(atom.link)),
      entries: entriesOf(atom.entry, atomEntry, maxEntries),
    };
  }
  const rdf = objectAt(document['rdf:RDF']);
  if (rdf) {
    const rdfChannel = objectAt(rdf.channel);
    return {
      format: 'rdf',
      ...optional('title', text(rdfChannel?.title)),
      ...optional('link', value(rdfChannel?.link)),
      entries: entriesOf(rdf.item, (item) => rssEntry(item, undefined), maxEntries),
    };
  }
  throw new FeedParseError('not_a_feed', 'the document is neither RSS nor Atom');
}

function optional<K extends string>(key: K, found: string | undefined): { [P in K]?: string } {
  return (found === undefined ? {} : { [key]: found }) as { [P in K]?: string };
}
