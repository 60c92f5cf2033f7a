import { parseHTML } from 'linkedom';

// HTML → the text blocks a narrator reads, shared by the news extractor (over Readability's article) and the
// markdown stripper (over marked's HTML). Parsing is linkedom's; this module only decides what is said aloud:
// one block per paragraph, list item or heading, in document order, without code, tables, figures, media,
// forms, struck-through text or links whose text is a bare address.

export interface TextBlock {
  text: string;
  /** The part of `text` that is link text: a block made mostly of links is a link list, not prose. */
  linkText: string;
  /** The part of `text` inside <time>: a block that is mostly dates is a timestamp line. */
  timeText: string;
  heading: boolean;
}

/** The parts of a DOM node read here (linkedom's types need the DOM lib, which a Node service does not load). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Never read aloud, and not part of the text around them: removing one leaves the sentence whole. */
const UNSAID_INLINE = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'PICTURE',
  'IMG',
  'SVG',
  'MATH',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'VIDEO',
  'AUDIO',
  'CANVAS',
  'BUTTON',
  'SELECT',
  'INPUT',
  'LABEL',
  'DEL',
  'S',
  'STRIKE',
]);
/** Never read aloud, and a block of their own: code, tables, figures and their captions, page chrome. */
const UNSAID_BLOCKS = new Set([
  'HEAD',
  'TITLE',
  'TEMPLATE',
  'TEXTAREA',
  'PRE',
  'TABLE',
  'FIGURE',
  'FIGCAPTION',
  'FORM',
  'NAV',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'DIALOG',
  'MENU',
]);
const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
/** Elements that start a new block (the rest are inline and join the text around them). */
const BLOCKS = new Set([
  ...HEADINGS,
  ...UNSAID_BLOCKS,
  'P',
  'LI',
  'DT',
  'DD',
  'BLOCKQUOTE',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'UL',
  'OL',
  'DL',
  'ADDRESS',
  'CENTER',
  'DETAILS',
  'SUMMARY',
  'HR',
  'BODY',
  'HTML',
]);
const BARE_ADDRESS = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|mailto:)\S*$/i;

/** Collapses runs of whitespace (including no-break spaces) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Text left behind by removed links and images: "Source: , retrieved ( )." → "Source: retrieved." */
export function tidySpacing(text: string): string {
  return collapseWhitespace(text)
    .replace(/\(\s*\)/g, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/([.,;:!?]),/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * Parses a page or a fragment. linkedom does not build the implied <html> and <body> of a fragment (a browser
 * would), and without a <body> around the content nothing finds it, so a fragment is given a page around it.
 */
export function parseDocument(html: string): any {
  const { document } = parseHTML(html);
  if (document.querySelector('html > body')) return document;
  return parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
}

function isHidden(node: DomNode): boolean {
  return node.getAttribute?.('hidden') != null || node.getAttribute?.('aria-hidden') === 'true';
}

/** Narratable text blocks below `root`, in document order. */
export function textBlocks(root: DomNode): TextBlock[] {
  const blocks: TextBlock[] = [];
  let text = '';
  let linkText = '';
  let timeText = '';
  let heading = false;
  const flush = (nextIsHeading: boolean) => {
    const said = tidySpacing(text);
    if (/[\p{L}\p{N}]/u.test(said))
      blocks.push({ text: said, linkText: tidySpacing(linkText), timeText: tidySpacing(timeText), heading });
    text = '';
    linkText = '';
    timeText = '';
    heading = nextIsHeading;
  };
  const walk = (node: DomNode, inHeading: boolean, inLink: boolean, inTime: boolean) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === TEXT_NODE) {
        const piece = child.textContent ?? '';
        text += piece;
        if (inLink) linkText += piece;
        if (inTime) timeText += piece;
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const name = child.nodeName.toUpperCase();
      if (name === 'BR') {
        text += ' ';
        continue;
      }
      const unsaid = UNSAID_INLINE.has(name) || UNSAID_BLOCKS.has(name) || isHidden(child);
      if (name === 'A' && BARE_ADDRESS.test(collapseWhitespace(child.textContent ?? ''))) continue;
      if (!BLOCKS.has(name)) {
        if (!unsaid) walk(child, inHeading, inLink || name === 'A', inTime || name === 'TIME');
        continue;
      }
      const childIsHeading = inHeading || HEADINGS.has(name);
      flush(childIsHeading);
      if (!unsaid) walk(child, childIsHeading, inLink, inTime);
      flush(inHeading);
    }
  };
  walk(root, false, false, false);
  flush(false);
  return blocks;
}
