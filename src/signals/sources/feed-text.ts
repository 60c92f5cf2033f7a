// Text out of feed fields. The XML parser runs with entity processing off (feed-xml.ts), so its strings still
// carry XML escapes: only the five predefined entities and numeric character references are decoded here,
// never a declared entity. What remains is often HTML (descriptions, WordPress titles with "&#8217;"), which
// htmlparser2 turns into plain text, dropping scripts and styles.
import { DomUtils, parseDocument } from 'htmlparser2';

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const SKIPPED_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object']);

function codePoint(value: number): string {
  const valid =
    Number.isInteger(value) &&
    value > 0 &&
    value <= 0x10ffff &&
    !(value >= 0xd800 && value <= 0xdfff) &&
    (value >= 0x20 || value === 0x9 || value === 0xa || value === 0xd);
  return valid ? String.fromCodePoint(value) : '\uFFFD';
}

/** Decodes XML's predefined entities and numeric references; any other `&name;` is left as written. */
export function decodeXmlEscapes(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return codePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return codePoint(parseInt(ref.slice(1), 10));
    return PREDEFINED[ref] ?? whole;
  });
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];

function collectText(nodes: readonly HtmlNode[], out: string[]): void {
  for (const node of nodes) {
    if (DomUtils.isText(node)) out.push(node.data);
    else if (DomUtils.isTag(node)) {
      if (SKIPPED_ELEMENTS.has(node.name)) continue;
      out.push(' ');
      collectText(node.children, out);
      out.push(' ');
    }
  }
}

/** A feed field as one line of plain text: XML escapes decoded, then any HTML read by a real parser. */
export function feedText(raw: string): string {
  const decoded = decodeXmlEscapes(raw);
  if (!decoded.includes('<') && !decoded.includes('&')) return collapse(decoded);
  const out: string[] = [];
  collectText(parseDocument(decoded).children, out);
  return collapse(out.join(''));
}

/** A feed field that holds a URL or a date: XML escapes decoded, whitespace trimmed, nothing else. */
export function feedValue(raw: string): string {
  return decodeXmlEscapes(raw).trim();
}
