// Reads an article's Markdown back with marked's lexer (the same parser that renders it): its headings and its
// prose blocks as plain text. The quality gates measure these, and the JSON-LD quotes them, so what is measured
// is exactly what is published.
import { Lexer, Marked, Parser, type Token, type Tokens } from 'marked';
import { wordsIn } from '../../signals/hooks/readability.ts';

export interface Heading {
  depth: number;
  text: string;
}

export type BlockKind = 'paragraph' | 'list_item' | 'quote';

export interface ProseBlock {
  kind: BlockKind;
  text: string;
}

export interface ArticleOutline {
  /** Every heading, in order. */
  headings: Heading[];
  /** Paragraphs, list items and quoted paragraphs, in order, as plain text. */
  blocks: ProseBlock[];
  /** The first top-level paragraph after the H1 (or the first one, when there is no H1). */
  firstParagraph: string | undefined;
}

const markdown = new Marked({ gfm: true });
const parser = new Parser();

function plain(tokens: Token[] | undefined, fallback: string): string {
  const text = tokens ? parser.parseInline(tokens, parser.textRenderer) : fallback;
  return text.replace(/\s+/g, ' ').trim();
}

/** Inline Markdown as the plain text a reader sees (links as their text, no emphasis marks). */
export function plainInline(text: string): string {
  return plain(Lexer.lexInline(text, { gfm: true }), text);
}

function collect(tokens: Token[], kind: BlockKind, outline: ArticleOutline, top: boolean): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        outline.headings.push({ depth: heading.depth, text: plain(heading.tokens, heading.text) });
        break;
      }
      case 'paragraph':
      case 'text': {
        const block = token as Tokens.Paragraph | Tokens.Text;
        const text = plain(block.tokens, block.text);
        if (!text) break;
        outline.blocks.push({ kind, text });
        const afterTitle = outline.headings.length === 0 || outline.headings.some((h) => h.depth === 1);
        if (top && token.type === 'paragraph' && outline.firstParagraph === undefined && afterTitle)
          outline.firstParagraph = text;
        break;
      }
      case 'list':
        for (const item of (token as Tokens.List).items) collect(item.tokens, 'list_item', outline, false);
        break;
      case 'blockquote':
        collect((token as Tokens.Blockquote).tokens, 'quote', outline, false);
        break;
      default:
        // Code, tables, raw HTML and rules are not prose.
        break;
    }
  }
}

export function outlineOf(source: string): ArticleOutline {
  const outline: ArticleOutline = { headings: [], blocks: [], firstParagraph: undefined };
  collect(markdown.lexer(source), 'paragraph', outline, true);
  return outline;
}

/** The article's words: headings and prose blocks together. */
export function articleWordCount(outline: ArticleOutline): number {
  return [...outline.headings.map((h) => h.text), ...outline.blocks.map((b) => b.text)].reduce(
    (sum, text) => sum + wordsIn(text).length,
    0,
  );
}
