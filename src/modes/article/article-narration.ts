import { checkSentScript, countWords, scriptBudget } from '../../media/script/budget.ts';
import { splitSentences } from '../../media/script/sentences.ts';
import { collapseWhitespace } from '../news/html-text.ts';
import { stripMarkdown, withStop } from './markdown-strip.ts';

// The narration of an article-to-video job: the title as the opening line, then the article's opening
// sentences in order, then the call to action as the last line. It is sized to the word budget of
// duration_sec at voice_speed (about 65 words for 30 s), and a sentence is never cut: the next one is
// taken only when it fits whole. The only exception is a first sentence that alone overruns 120 s.

/** spec 1 §4.7: only the first 6000 characters of article_text are used. */
export const ARTICLE_TEXT_CHARS = 6000;

export interface ArticleNarrationInput {
  title?: string;
  /** Article body (markdown or plain text); the first 6000 characters are used. */
  text?: string;
  /** Used when there is no text. */
  summary?: string;
  cta?: string;
  durationSec: number;
  voiceSpeed: number;
  /** Language of the article, for the sentence rules. */
  language?: string;
}

export interface ArticleNarration {
  script: string;
  words: number;
  /** Word budget of duration_sec at voice_speed. */
  budgetWords: number;
  sentencesUsed: number;
  sentencesAvailable: number;
  source: 'article_text' | 'article_summary';
}

/** Letters and digits only, for comparing a title with the article's first heading. */
function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The first `maxWords` words of an over-long sentence, ending at its last comma when one is near the end. */
function shortenSentence(sentence: string, maxWords: number): string {
  const words = sentence.split(/\s+/).filter(Boolean);
  let cut = words.slice(0, Math.max(1, maxWords)).join(' ');
  const comma = cut.lastIndexOf(',');
  if (comma > cut.length * 0.6) cut = cut.slice(0, comma);
  return withStop(cut.replace(/[,;:\s]+$/, ''));
}

/** Most words any narration may have at this voice speed: the budget of a 120 s video. */
export function maxNarrationWords(voiceSpeed: number): number {
  return checkSentScript('', voiceSpeed).maxWords;
}

export function articleNarration(input: ArticleNarrationInput): ArticleNarration | undefined {
  const source = input.text ? 'article_text' : input.summary ? 'article_summary' : undefined;
  if (!source) return undefined;
  const raw = source === 'article_text' ? input.text!.slice(0, ARTICLE_TEXT_CHARS) : input.summary!;
  const blocks = stripMarkdown(raw);
  const titleLine = input.title ? withStop(collapseWhitespace(input.title)) : undefined;
  // An article that opens with its own title as a heading would otherwise say it twice.
  if (titleLine && blocks[0] && comparable(blocks[0]) === comparable(titleLine)) blocks.shift();

  const budgetWords = scriptBudget({
    durationSec: input.durationSec,
    voiceSpeed: input.voiceSpeed,
  }).targetWords;
  const ctaLine = input.cta ? collapseWhitespace(input.cta) : undefined;
  const fixedWords = countWords(titleLine ?? '') + countWords(ctaLine ?? '');
  const paragraphs = blocks.map((block) => splitSentences(block, input.language));
  const sentencesAvailable = paragraphs.reduce((n, p) => n + p.length, 0);

  const used: string[][] = [];
  let words = fixedWords;
  let sentencesUsed = 0;
  outer: for (const paragraph of paragraphs) {
    const kept: string[] = [];
    for (const sentence of paragraph) {
      const w = countWords(sentence);
      if (words + w > budgetWords) {
        if (sentencesUsed > 0 || kept.length > 0) {
          if (kept.length > 0) used.push(kept);
          break outer;
        }
        // Nothing fits the budget: the first sentence is still said, whole if it fits 120 s.
        const room = maxNarrationWords(input.voiceSpeed) - fixedWords;
        const said = w <= room ? sentence : shortenSentence(sentence, room);
        used.push([said]);
        words += countWords(said);
        sentencesUsed = 1;
        break outer;
      }
      kept.push(sentence);
      words += w;
      sentencesUsed++;
    }
    if (kept.length > 0) used.push(kept);
  }
  const lines = [titleLine, ...used.map((p) => p.join(' ')), ctaLine].filter((line): line is string =>
    Boolean(line),
  );
  return { script: lines.join('\n'), words, budgetWords, sentencesUsed, sentencesAvailable, source };
}
