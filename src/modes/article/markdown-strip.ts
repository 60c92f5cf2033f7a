import { Marked } from 'marked';
import { parseDocument, textBlocks, tidySpacing } from '../news/html-text.ts';

// Turns an article's markdown (or plain text with stray markup) into narratable text: marked reads the markdown
// (CommonMark with GitHub's tables, strikethrough and task lists) into HTML, and the shared HTML reader keeps
// one block per heading, paragraph or list item, each ending in sentence punctuation so the narration pauses
// where the article does. What cannot be said aloud goes: code, images, tables, link targets, bare addresses.

const markdown = new Marked({ gfm: true });

/** YAML front matter of static-site posts is metadata, not markdown. */
const FRONT_MATTER = /^---\n[\s\S]*?\n(?:---|\.\.\.)\n/;
/** A footnote's definition ("[^1]: …") is not part of the text it annotates. */
const FOOTNOTE_DEFINITION = /^\[\^[^\]]+\]:/;

/**
 * References whose definition is missing stay literal in markdown; an article cut at 6000 characters loses the
 * definitions kept at its end, so "[text][ref]" reads as its text, and images and footnote marks go.
 */
function withoutDanglingReferences(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[\^[^\]]+\]/g, '')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1');
}

/** Adds a full stop to a heading or list item that has no closing punctuation, so it is read as a sentence. */
export function withStop(text: string): string {
  const core = text.replace(/["'\u201d\u2019)\]]+$/, '');
  return /[.!?:;\u2026]$/.test(core) ? text : `${text}.`;
}

/**
 * The document's blocks as text. marked recurses once per level of nesting, so a document nested thousands of
 * levels deep ("> > > …") exhausts the stack: such a document is read as plain paragraphs instead.
 */
function blocksOf(markdownText: string): string[] {
  try {
    const html = markdown.parse(markdownText, { async: false });
    return textBlocks(parseDocument(html).body).map((block) => block.text);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return markdownText.split(/\n\s*\n/);
  }
}

/** Narratable blocks of a markdown document, in order. */
export function stripMarkdown(source: string): string[] {
  return blocksOf(source.replace(/\r\n?/g, '\n').replace(FRONT_MATTER, ''))
    .filter((text) => !FOOTNOTE_DEFINITION.test(text))
    .map((text) => tidySpacing(withoutDanglingReferences(text)))
    .filter((text) => /[\p{L}\p{N}]/u.test(text))
    .map(withStop);
}
