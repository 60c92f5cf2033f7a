import { collapseWhitespace, decodeEntities } from './html-text.ts';

// A small readability-style extractor: the page is parsed into a forgiving element tree, chrome (scripts,
// styles, navigation, headers, footers, asides, forms, cookie and share boxes) is removed, the article
// container is chosen (<article>, else <main>, else the element holding the most paragraph text) and its
// paragraphs are returned as plain text, minus link lists, bylines and other short fragments.

export interface ExtractedArticle {
  title?: string;
  siteName?: string;
  /** Language of the page (<html lang>), when declared. */
  language?: string;
  paragraphs: string[];
}

interface ElementNode {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = ElementNode | string;

const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose content is never article text. */
const RAW_TEXT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'title']);
const CHROME_TAGS = new Set([
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'svg',
  'iframe',
  'object',
  'canvas',
  'video',
  'audio',
  'figure',
  'figcaption',
  'menu',
  'dialog',
  'pre',
  'table',
]);
const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alert',
]);
const CHROME_NAMES =
  /(^|[\s_-])(cookie|consent|gdpr|newsletter|subscribe|signup|share|sharing|social|related|recommended|comments?|advert|ads?|promo|sponsor|sidebar|breadcrumbs?|byline|author-bio|footer|header|nav|navbar|menu|masthead|paywall|popup|modal|toolbar|tags)([\s_-]|$)/i;
const BLOCK_TAGS = new Set([
  'p',
  'li',
  'blockquote',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'section',
  'article',
  'main',
  'ul',
  'ol',
  'dl',
  'body',
]);
/** A new one of these closes an open one of the same family (HTML's optional end tags). */
const AUTO_CLOSE: Record<string, string[]> = { p: ['p'], li: ['li'], dt: ['dt', 'dd'], dd: ['dt', 'dd'] };
const BLOCK_STARTS_CLOSE_P = new Set([
  'div',
  'ul',
  'ol',
  'dl',
  'section',
  'article',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'header',
  'footer',
  'nav',
  'aside',
  'main',
  'form',
  'figure',
  'pre',
  'hr',
]);

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(source)) !== null)
    attrs[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  return attrs;
}

/** Parses HTML into an element tree, tolerating unclosed and stray tags the way browsers roughly do. */
export function parseHtml(html: string): ElementNode {
  const root: ElementNode = { tag: '#root', attrs: {}, children: [] };
  const stack: ElementNode[] = [root];
  const top = () => stack[stack.length - 1]!;
  const tagPattern =
    /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tagPattern.exec(html)) !== null) {
    if (m.index > last) top().children.push(decodeEntities(html.slice(last, m.index)));
    last = tagPattern.lastIndex;
    const name = m[2]?.toLowerCase();
    if (!name) continue;
    if (m[1]) {
      const at = stack.map((n) => n.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    const closes = AUTO_CLOSE[name] ?? (BLOCK_STARTS_CLOSE_P.has(name) ? ['p'] : []);
    if (closes.includes(top().tag)) stack.pop();
    const node: ElementNode = { tag: name, attrs: parseAttributes(m[3] ?? ''), children: [] };
    top().children.push(node);
    if (RAW_TEXT_TAGS.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, last);
      const stop = end < 0 ? html.length : end;
      node.children.push(html.slice(last, stop));
      const close = html.indexOf('>', stop);
      last = tagPattern.lastIndex = end < 0 ? html.length : close < 0 ? html.length : close + 1;
      continue;
    }
    if (!VOID_TAGS.has(name) && !m[3]?.trimEnd().endsWith('/')) stack.push(node);
  }
  if (last < html.length) top().children.push(decodeEntities(html.slice(last)));
  return root;
}

function* elements(node: ElementNode): Generator<ElementNode> {
  yield node;
  for (const child of node.children) if (typeof child !== 'string') yield* elements(child);
}

function find(node: ElementNode, test: (n: ElementNode) => boolean): ElementNode | undefined {
  for (const n of elements(node)) if (test(n)) return n;
  return undefined;
}

/** All text below a node; `<br>` and block boundaries become spaces. */
export function textOf(node: Node): string {
  if (typeof node === 'string') return node;
  if (RAW_TEXT_TAGS.has(node.tag)) return '';
  if (node.tag === 'br') return ' ';
  const inner = node.children.map(textOf).join('');
  return BLOCK_TAGS.has(node.tag) ? ` ${inner} ` : inner;
}

function linkTextOf(node: Node): string {
  if (typeof node === 'string') return '';
  if (node.tag === 'a') return textOf(node);
  return node.children.map(linkTextOf).join('');
}

/**
 * Chrome by tag, role or hidden state always goes. A class or id name ("share-box", "sidebar") only removes
 * elements that hold less than half of the page's text and no <article>/<main>, because page wrappers are
 * often named after what they contain ("page has-sidebar").
 */
function isChrome(node: ElementNode, pageTextLength: number): boolean {
  if (CHROME_TAGS.has(node.tag) || RAW_TEXT_TAGS.has(node.tag)) return true;
  const a = node.attrs;
  if ('hidden' in a || a['aria-hidden'] === 'true' || CHROME_ROLES.has(a.role ?? '')) return true;
  if (!CHROME_NAMES.test(`${a.class ?? ''} ${a.id ?? ''}`)) return false;
  if (find(node, (n) => n !== node && (n.tag === 'article' || n.tag === 'main'))) return false;
  return collapseWhitespace(textOf(node)).length < pageTextLength / 2;
}

function withoutChrome(node: ElementNode, pageTextLength: number): ElementNode {
  return {
    ...node,
    children: node.children
      .filter((c) => typeof c === 'string' || !isChrome(c, pageTextLength))
      .map((c) => (typeof c === 'string' ? c : withoutChrome(c, pageTextLength))),
  };
}

function hasBlockChild(node: ElementNode): boolean {
  return node.children.some((c) => typeof c !== 'string' && (BLOCK_TAGS.has(c.tag) || hasBlockChild(c)));
}

/** Text blocks in document order: paragraphs, list items, quotes, and divs that hold text directly. */
function blocksOf(node: ElementNode, out: ElementNode[] = []): ElementNode[] {
  for (const child of node.children) {
    if (typeof child === 'string') continue;
    if (/^h[1-6]$/.test(child.tag)) continue;
    if (['p', 'li', 'blockquote', 'dd', 'div', 'section'].includes(child.tag) && !hasBlockChild(child))
      out.push(child);
    else blocksOf(child, out);
  }
  return out;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A block worth narrating: mostly its own words (not links), a real sentence rather than a label or byline. */
export function isArticleText(text: string, linkText: string): boolean {
  const words = wordCount(text);
  if (words < 6) return false;
  if (linkText.length > text.length * 0.5) return false;
  return words >= 12 || /[.!?\u2026]["'\u201d\u2019)]*$/.test(text);
}

function paragraphText(node: ElementNode): string {
  return collapseWhitespace(textOf(node));
}

/** The element whose own paragraphs hold the most text: the article body on pages without <article>/<main>. */
function densestContainer(body: ElementNode): ElementNode {
  const scores = new Map<ElementNode, number>();
  const parents = new Map<ElementNode, ElementNode>();
  for (const n of elements(body)) for (const c of n.children) if (typeof c !== 'string') parents.set(c, n);
  for (const n of elements(body)) {
    if (n.tag !== 'p') continue;
    const parent = parents.get(n);
    if (parent) scores.set(parent, (scores.get(parent) ?? 0) + paragraphText(n).length);
  }
  let best: ElementNode = body;
  let bestScore = 0;
  for (const [node, score] of scores) {
    if (score > bestScore) {
      best = node;
      bestScore = score;
    }
  }
  return best;
}

function meta(root: ElementNode, key: string): string | undefined {
  const node = find(root, (n) => n.tag === 'meta' && (n.attrs.property === key || n.attrs.name === key));
  const value = node?.attrs.content && collapseWhitespace(node.attrs.content);
  return value || undefined;
}

/** "Headline | Site" or "Headline - Site" → "Headline" (the longest part). */
function cleanTitle(title: string, siteName: string | undefined): string {
  const parts = title
    .split(/\s+[|\u2013\u2014\u00b7\u2022:-]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return title;
  const withoutSite = parts.filter((p) => !siteName || p.toLowerCase() !== siteName.toLowerCase());
  return withoutSite.reduce((a, b) => (b.length > a.length ? b : a), withoutSite[0] ?? title);
}

export function extractArticle(html: string): ExtractedArticle {
  const root = parseHtml(html);
  const siteName = meta(root, 'og:site_name');
  const h1 = find(root, (n) => n.tag === 'h1');
  const titleTag = find(root, (n) => n.tag === 'title');
  const rawTitle =
    meta(root, 'og:title') ?? (h1 && paragraphText(h1)) ?? (titleTag && paragraphText(titleTag));
  const title = rawTitle ? cleanTitle(rawTitle, siteName) : undefined;
  const language =
    find(root, (n) => n.tag === 'html')
      ?.attrs.lang?.split(/[-_]/)[0]
      ?.toLowerCase() || undefined;

  const page = find(root, (n) => n.tag === 'body') ?? root;
  const body = withoutChrome(page, collapseWhitespace(textOf(page)).length);
  const articles = [...elements(body)].filter((n) => n.tag === 'article');
  const container =
    articles.sort((a, b) => paragraphText(b).length - paragraphText(a).length)[0] ??
    find(body, (n) => n.tag === 'main' || n.attrs.role === 'main') ??
    densestContainer(body);

  const paragraphs: string[] = [];
  for (const block of blocksOf(container)) {
    const text = paragraphText(block);
    if (isArticleText(text, collapseWhitespace(linkTextOf(block))) && !paragraphs.includes(text))
      paragraphs.push(text);
  }
  return {
    ...(title ? { title } : {}),
    ...(siteName ? { siteName } : {}),
    ...(language ? { language } : {}),
    paragraphs,
  };
}
