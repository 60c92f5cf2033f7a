import { countWords } from '../../media/script/budget.ts';
import { withStop } from '../article/markdown-strip.ts';
import {
  asLines,
  byPosition,
  HEADLINE_MAX_WORDS,
  pick,
  scoreSentences,
  type NewsFormat,
  type ScoredSentence,
} from './news-summary.ts';

// The narration of one or more trending stories, read from their publishers' own articles. Each story is
// told as its headline (a publisher's own title), the line naming who reported it, and the best of its
// articles' sentences, taken whole (scored and picked as for one article, news-summary.ts): nothing is said
// that a named publisher did not write. The publishers named are the ones whose words are read.

export interface StoryText {
  /** The trend's topic: the headline when no article gives a title. */
  topic: string;
  articles: { publisher: string; title?: string; paragraphs: string[]; language?: string }[];
}

export interface StoryNarrationInput {
  format: NewsFormat;
  stories: StoryText[];
  /** Words the whole narration may have (openers, headlines and attributions included). */
  budgetWords: number;
  keywords: string[];
}

export interface NarratedStory {
  headline: string;
  /** The publishers whose headline or sentences are read, in the story's order. */
  publishers: string[];
  /** The article sentences read, in the order they are said. */
  sentences: string[];
}

export interface StoryNarration {
  script: string;
  words: number;
  stories: NarratedStory[];
}

/** "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/** The neutral attribution line: who reported what follows (one form for one or several publishers). */
export function attributionLine(publishers: readonly string[]): string {
  return `Reported by ${listNames(publishers)}.`;
}

interface StoryShape {
  opener: string[];
  closer: string[];
  headlineLine(headline: string): string;
  rule: Parameters<typeof pick>[2];
  /** Breaking news says its lead fact first, then the rest in article order. */
  leadFirst?: boolean;
  /** Only sentences short enough to be a headline's one line, when the articles have them. */
  shortOnly?: boolean;
}

function shapeOf(format: NewsFormat): StoryShape {
  switch (format) {
    case 'single':
      return { opener: [], closer: [], headlineLine: withStop, rule: {} };
    case 'breaking':
      return {
        opener: [],
        closer: ['More as this story develops.'],
        headlineLine: (h) => `Breaking news: ${withStop(h)}`,
        rule: {},
        leadFirst: true,
      };
    case 'digest':
      return {
        opener: ['Here is your news digest.'],
        closer: [],
        headlineLine: withStop,
        rule: { onePerParagraph: true },
      };
    case 'headlines':
      return {
        opener: ['Here are the headlines.'],
        closer: [],
        headlineLine: withStop,
        rule: { maxItems: 1 },
        shortOnly: true,
      };
    case 'weekly':
      return {
        opener: ['Here is your weekly roundup.'],
        closer: ["That's the week."],
        headlineLine: withStop,
        rule: { onePerParagraph: true },
      };
  }
}

interface Candidate {
  sentence: ScoredSentence;
  article: number;
}

/** Every sentence of every article, scored within its own article, numbered across them in article order. */
function candidates(story: StoryText, keywords: string[]): Candidate[] {
  const all: Candidate[] = [];
  let indexOffset = 0;
  let paragraphOffset = 0;
  for (const [article, text] of story.articles.entries()) {
    const scored = scoreSentences(text.paragraphs, {
      title: text.title ?? story.topic,
      keywords,
      language: text.language,
    });
    for (const s of scored) {
      all.push({
        sentence: { ...s, index: s.index + indexOffset, paragraph: s.paragraph + paragraphOffset },
        article,
      });
    }
    indexOffset += scored.length;
    paragraphOffset += text.paragraphs.length;
  }
  return all;
}

function narrateStory(
  story: StoryText,
  shape: StoryShape,
  budgetWords: number,
  keywords: string[],
  alone: boolean,
): { lines: string[]; narrated: NarratedStory } {
  const titled = story.articles.findIndex((a) => a.title);
  const headline = titled >= 0 ? story.articles[titled]!.title! : story.topic;
  const all = candidates(story, keywords);
  const articleOf = new Map(all.map((c) => [c.sentence, c.article]));
  const everyPublisher = [...new Set(story.articles.map((a) => a.publisher))];
  const fixed = countWords(shape.headlineLine(headline)) + countWords(attributionLine(everyPublisher));
  const pool = all.map((c) => c.sentence);
  const short = pool.filter((s) => s.words <= HEADLINE_MAX_WORDS);
  const from = shape.shortOnly && short.length > 0 ? short : pool;
  let chosen = pick(from, budgetWords - fixed, shape.rule);
  // A budget smaller than every sentence still says the single best one, when the story is the whole video.
  if (chosen.length === 0 && alone) {
    const best = [...from].sort((a, b) => b.score - a.score || a.index - b.index).find((s) => s.score >= 0);
    if (best) chosen = [best];
  }
  const [lead, ...rest] = chosen;
  const ordered = shape.leadFirst && lead ? [lead, ...rest.sort(byPosition)] : [...chosen].sort(byPosition);
  const used = new Set(ordered.map((s) => articleOf.get(s)!));
  if (titled >= 0) used.add(titled);
  const publishers = [...new Set([...used].sort((a, b) => a - b).map((i) => story.articles[i]!.publisher))];
  const lines = [
    shape.headlineLine(headline),
    ...(publishers.length > 0 ? [attributionLine(publishers)] : []),
    ...asLines(ordered),
  ];
  return { lines, narrated: { headline, publishers, sentences: ordered.map((s) => s.text) } };
}

export function storyNarration(input: StoryNarrationInput): StoryNarration {
  const shape = shapeOf(input.format);
  const framing = [...shape.opener, ...shape.closer].reduce((n, line) => n + countWords(line), 0);
  const share = Math.floor((input.budgetWords - framing) / Math.max(1, input.stories.length));
  const told = input.stories.map((story) =>
    narrateStory(story, shape, share, input.keywords, input.stories.length === 1),
  );
  const script = [...shape.opener, ...told.flatMap((t) => t.lines), ...shape.closer].join('\n');
  return { script, words: countWords(script), stories: told.map((t) => t.narrated) };
}
