import { collapseWhitespace, decodeEntities, stripTags } from '../news/html-text.ts';

// Turns an article's markdown (or plain text with stray markup) into narratable text: one block per heading,
// paragraph or list item, each ending in sentence punctuation so the narration pauses where the article does.
// What cannot be said aloud is dropped: code, images, tables, URLs, link targets, footnotes, HTML tags.

type BlockKind = 'heading' | 'item' | 'paragraph';

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^\s{0,3}#{1,6}(?:\s+(.*?))?\s*#*\s*$/;
const SETEXT_UNDERLINE = /^\s{0,3}(=+|-+)\s*$/;
const THEMATIC_BREAK = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const BLOCKQUOTE = /^\s{0,3}(?:>\s?)+/;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*\S/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const TASK_BOX = /^\[[ xX]\]\s+/;

// Escaped markup characters are parked in the private-use area while markup is removed, then restored.
const ESCAPABLE = '\\`*_{}[]()#+-.!|~>';
const PARK_BASE = 0xe000;

function park(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, (_m, ch: string) =>
    String.fromCharCode(PARK_BASE + ESCAPABLE.indexOf(ch)),
  );
}

function unpark(text: string): string {
  return text.replace(/[\ue000-\ue012]/g, (ch) => ESCAPABLE[ch.charCodeAt(0) - PARK_BASE]!);
}

/** Inline markup of one block → plain text. */
export function stripInline(raw: string): string {
  let text = park(raw);
  text = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[\^[^\]]+\]/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<(?:https?:\/\/|mailto:)[^>\s]*>/gi, '')
    .replace(/<[^>\s@]+@[^>\s]+>/g, '');
  text = stripTags(text);
  text = text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => code.trim());
  // URLs are not read aloud; punctuation right after one still belongs to the sentence.
  text = text.replace(/\b(?:https?:\/\/|www\.)[^\s)\]]*[^\s)\].,;:!?'"]/gi, '');
  // Emphasis nests (***bold italic***), so passes repeat until nothing changes; struck-through text is deleted text.
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
      .replace(/(^|[^\p{L}\p{N}_])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}_])/gu, '$1$2')
      .replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*]*?\S)\*(?![\p{L}\p{N}])/gu, '$1$2')
      .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}_])/gu, '$1$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '');
  }
  text = decodeEntities(unpark(text));
  return collapseWhitespace(text)
    .replace(/\(\s*\)/g, '')
    .replace(/\s+([.,!?;:])/g, '$1')
    .replace(/([.,;:!?]),/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** Adds a full stop to a heading or list item that has no closing punctuation, so it is read as a sentence. */
export function withStop(text: string): string {
  const core = text.replace(/["'\u201d\u2019)\]]+$/, '');
  return /[.!?:;\u2026]$/.test(core) ? text : `${text}.`;
}

function finish(kind: BlockKind, lines: string[]): string | undefined {
  const text = stripInline(lines.join(' '));
  if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
  return kind === 'paragraph' && /[.!?:;\u2026]["'\u201d\u2019)\]]*$/.test(text) ? text : withStop(text);
}

function withoutFrontMatter(text: string): string {
  return text.replace(/^---\n[\s\S]*?\n(?:---|\.\.\.)\n/, '');
}

function withoutFences(lines: string[]): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (fence) {
      if (match && match[1]![0] === fence[0] && match[1]!.length >= fence.length && line.trim() === match[1])
        fence = undefined;
      continue;
    }
    if (match) {
      // A code block ends the paragraph before it.
      fence = match[1];
      out.push('');
      continue;
    }
    out.push(line);
  }
  return out;
}

/** Narratable blocks of a markdown document, in order. */
export function stripMarkdown(markdown: string): string[] {
  const normalized = withoutFrontMatter(markdown.replace(/\r\n?/g, '\n'))
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style|pre|code|table|svg|iframe)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '\n');
  const lines = withoutFences(normalized.split('\n'));
  const blocks: string[] = [];
  let kind: BlockKind = 'paragraph';
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) {
      const block = finish(kind, current);
      if (block) blocks.push(block);
    }
    current = [];
    kind = 'paragraph';
  };

  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (BLOCKQUOTE.test(line)) line = line.replace(BLOCKQUOTE, '');
    if (kind === 'paragraph' && current.length > 0 && SETEXT_UNDERLINE.test(line)) {
      kind = 'heading';
      flush();
      continue;
    }
    if (THEMATIC_BREAK.test(line) || REFERENCE_DEFINITION.test(line)) {
      flush();
      continue;
    }
    // A table is a header row followed by a separator row; every row up to the next blank line goes.
    if (line.includes('|') && TABLE_SEPARATOR.test(lines[i + 1] ?? '') && !TABLE_SEPARATOR.test(line)) {
      flush();
      while (i + 1 < lines.length && lines[i + 1]!.includes('|')) i++;
      continue;
    }
    if (line.trim().startsWith('|') || (TABLE_SEPARATOR.test(line) && line.includes('|'))) {
      flush();
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      flush();
      kind = 'heading';
      current = [heading[1] ?? ''];
      flush();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      kind = 'item';
      current = [item[1]!.replace(TASK_BOX, '')];
      continue;
    }
    current.push(line.trim());
  }
  flush();
  return blocks;
}
