// The local article writer, used when no LLM is configured (and for sandbox keys). It knows nothing the caller
// did not give it, and says only that:
// - from a trend, the article is the trend's own reports, quoted in their words with their publishers named and
//   linked, plus what the radar measured about the story (when it started, how urgent, how viral);
// - from a brief alone, it is a practical framework around the brief's subject (what to pin down, why it pays,
//   three steps, common mistakes, FAQ) that states no facts about the subject beyond the brief's own claim.
// Far weaker than an LLM's article; the answer's `writer: "local"` and its warnings say so (docs/publishing.md).
import { analyzeBrief, type BriefAnalysis } from '../../media/script/brief-analysis.ts';
import { capitalize, numberWord, titleCase } from '../../media/script/english.ts';
import { keySentences } from '../../media/script/key-sentences.ts';
import { fillTemplate, type Slots } from '../../media/script/template.ts';
import {
  fitMetaDescription,
  type ArticleBrief,
  type ArticleDraft,
  type ArticleSection,
  type ArticleSource,
  type FaqEntry,
} from './article-draft.ts';
import { literal, markdownLink } from './article-render.ts';
import { mentions, slugify } from './keywords.ts';
import type { SourceReport, TrendMaterial } from './trend-material.ts';

/** Titles longer than this are cut off in search results. */
const TITLE_MAX_CHARS = 70;
/** Sentences quoted from each report, and the characters they may take together. */
const QUOTED_SENTENCES = 4;
const QUOTED_CHARS = 700;

/** Fills a template; a template whose slots this brief lacks is left out. */
function lines(templates: readonly string[], slots: Slots): string[] {
  return templates.map((t) => fillTemplate(t, slots)).filter((l): l is string => l !== undefined);
}

function slugOf(keyword: string): string {
  return slugify(keyword) || 'article';
}

function briefSlots(brief: ArticleBrief, analysis: BriefAnalysis): Slots {
  return {
    keyword: brief.primaryKeyword,
    question:
      analysis.question && mentions(analysis.question, brief.primaryKeyword) ? analysis.question : undefined,
    claim: analysis.claim,
    audience: analysis.audience,
    action: analysis.action,
    pillar: brief.pillar?.trim(),
    points: analysis.points.length > 0 ? analysis.points.map((p) => p.text).join('; ') : undefined,
  };
}

function evergreenTitle(brief: ArticleBrief, analysis: BriefAnalysis): string {
  const guide = ': A Practical Guide';
  const headline = titleCase(analysis.headline.replace(/[.!?]+$/, ''));
  if (mentions(headline, brief.primaryKeyword)) {
    if (headline.length + guide.length <= TITLE_MAX_CHARS) return headline + guide;
    if (headline.length <= TITLE_MAX_CHARS) return headline;
  }
  return titleCase(brief.primaryKeyword) + guide;
}

const EVERGREEN = {
  intro: [
    'It sets out what to understand first, how to get started with {keyword}, and which mistakes to avoid.',
    'The idea at its core is simple: {claim}. The sections below turn that idea into steps you can take.',
  ],
  meaning: [
    'Start by putting {keyword} into your own words. Write one or two sentences on what it involves and what you expect from it. That note becomes a yardstick: each source you read later either sharpens it or shows where it falls short.',
    'Keep a running list of the terms you meet for the first time, and look each one up in a trusted reference as you go. That is quicker than untangling them all at the end.',
    'This guide pays special attention to {points}.',
  ],
  why: [
    'Early choices about {keyword} shape the options you have later, so it pays to understand the basics before you act on them.',
    'For {audience}, the payoff is practical: clearer choices, fewer surprises and less time spent undoing mistakes.',
    '{!audience}The payoff is practical: clearer choices, fewer surprises and less time spent undoing mistakes.',
  ],
  steps: ['Three steps take you from reading about {keyword} to using it.'],
  stepGoal: [
    'Decide what you want to get out of {keyword} and write it down in one sentence. A goal you can check later keeps the work focused and tells you when you are done.',
  ],
  stepSources: [
    'Read two or three introductions from sources you trust before you go deeper. Where they agree, you are on solid ground. Where they differ, note the question and look for the reason.',
  ],
  stepSmall: [
    'Try to {action} on a small scale first.',
    '{!action}Put what you learned about {keyword} to work on a small scale first.',
    'After a week or two, look back: keep what worked and change one thing at a time.',
  ],
  mistakes: [
    'Most setbacks with {keyword} come from a handful of habits that are easy to avoid once you know them.',
  ],
  mistakeList: [
    'Starting without a clear goal, which makes progress hard to judge.',
    'Changing several things at once, so you cannot tell which one made the difference.',
    'Relying on a single source instead of checking two or three.',
    'Stopping before there has been enough time to see results.',
  ],
  next: [
    'Pick one step from this guide and act on it this week. Small, regular progress with {keyword} is easier to keep up than a big plan that never starts.',
  ],
} as const;

function evergreenFaq(slots: Slots): FaqEntry[] {
  const entries: [string, string][] = [
    [
      'What is the main idea of this guide to {keyword}?',
      'In short, {claim}. The sections above show how to check that for your own situation and how to start.',
    ],
    [
      'Where should I start with {keyword}?',
      'Start with a goal you can check, then read two or three introductions from sources you trust. The steps above walk through it.',
    ],
    [
      'What mistakes should I avoid with {keyword}?',
      'The common ones are starting without a clear goal, changing several things at once, relying on a single source and stopping too early.',
    ],
    [
      'Who is this guide to {keyword} for?',
      '{?audience}It is written for {audience}, and it works for anyone new to {keyword}.',
    ],
    [
      '{!audience}Who is this guide to {keyword} for?',
      'It is written for anyone new to {keyword} who wants a clear, practical way in.',
    ],
  ];
  return entries.flatMap(([q, a]) => {
    const question = fillTemplate(q, slots);
    const answer = fillTemplate(a, slots);
    return question && answer ? [{ question, answer }] : [];
  });
}

/** The intro's first sentence: what the guide is about, for whom, in which series (each when known). */
function opening(slots: Slots): string {
  return (
    `This guide is about ${slots.question ?? slots.keyword}` +
    `${slots.audience ? `, written for ${slots.audience}` : ''}` +
    `${slots.pillar ? `, as part of our ${slots.pillar} series` : ''}.`
  );
}

/** An evergreen article from the brief alone. */
export function writeEvergreenArticle(brief: ArticleBrief): ArticleDraft {
  const analysis = analyzeBrief({ topic: brief.topic ?? brief.pillar ?? brief.primaryKeyword });
  const slots = briefSlots(brief, analysis);
  const keyword = brief.primaryKeyword;
  const sections: ArticleSection[] = [
    {
      heading: `What ${keyword} means${analysis.audience ? ` for ${analysis.audience}` : ''}`,
      paragraphs: lines(EVERGREEN.meaning, slots),
    },
    {
      heading: `Why ${keyword} matters${slots.pillar ? ` in ${slots.pillar}` : ''}`,
      paragraphs: lines(EVERGREEN.why, slots),
    },
    {
      heading: `How to get started with ${keyword}`,
      paragraphs: lines(EVERGREEN.steps, slots),
      subsections: [
        { heading: 'Step 1: Set a goal you can check', paragraphs: lines(EVERGREEN.stepGoal, slots) },
        {
          heading: 'Step 2: Learn from more than one source',
          paragraphs: lines(EVERGREEN.stepSources, slots),
        },
        {
          heading: 'Step 3: Start small and review',
          paragraphs: [lines(EVERGREEN.stepSmall, slots).join(' ')],
        },
      ],
    },
    {
      heading: `Common mistakes with ${keyword}`,
      paragraphs: lines(EVERGREEN.mistakes, slots),
      bullets: [...EVERGREEN.mistakeList],
    },
    { heading: 'Next steps', paragraphs: lines(EVERGREEN.next, slots) },
  ];
  const audience = analysis.audience ? ` for ${analysis.audience}` : '';
  return {
    title: evergreenTitle(brief, analysis),
    metaDescription: fitMetaDescription(
      `A practical guide to ${keyword}${audience}: what to understand first, how to get started, common mistakes and answers to frequent questions.`,
    ),
    primaryKeyword: keyword,
    secondaryKeywords: brief.secondaryKeywords,
    slug: slugOf(keyword),
    intro: [`${opening(slots)} ${lines(EVERGREEN.intro, slots).join(' ')}`],
    sections,
    faq: evergreenFaq(slots),
    sources: [],
    ...(slots.pillar ? { pillar: slots.pillar } : {}),
  };
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function trendTitle(keyword: string, topic: string): string {
  if (mentions(topic, keyword) && topic.length <= TITLE_MAX_CHARS) return topic;
  const prefixed = `${capitalize(keyword)}: ${topic}`;
  return prefixed.length <= TITLE_MAX_CHARS ? prefixed : `${titleCase(keyword)}: What We Know So Far`;
}

/** The report's sentences that carry the most of what it says, in its order, taken whole. */
function quoted(report: SourceReport, keyword: string): string[] {
  return keySentences(report.paragraphs.join('\n'), {
    focus: `${keyword} ${report.title}`,
    maxSentences: QUOTED_SENTENCES,
    maxChars: QUOTED_CHARS,
  });
}

/** What the radar's urgency says about whether the story is still moving. */
function developing(urgency: string): string {
  if (urgency === 'breaking')
    return 'Yes. The trends radar rates it as breaking news, so expect new details. Check the linked reports for updates.';
  if (urgency === 'rising')
    return 'It is still gaining attention: the trends radar rates it as rising. Check the linked reports for updates.';
  return `Coverage has levelled off: the trends radar rates it as ${urgency}. The linked reports hold the latest details.`;
}

/** An article from a live trend: its reports quoted and linked, and what the radar measured about it. */
export function writeTrendArticle(brief: ArticleBrief, material: TrendMaterial, today: Date): ArticleDraft {
  const keyword = brief.primaryKeyword;
  const { trend, reports } = material;
  const publishers = [...new Set(reports.map((r) => r.publisher))];
  const started = dateFormat.format(new Date(trend.startedAt));
  const quotes = reports.map((report) => ({ report, sentences: quoted(report, keyword) }));
  const lead = quotes.find((q) => q.sentences.length > 0);
  const sources: ArticleSource[] = reports.map((r) => ({
    title: r.title,
    url: r.finalUrl,
    publisher: r.publisher,
  }));
  const reportCount =
    reports.length === 1 ? 'one publisher reports' : `${numberWord(reports.length)} publishers report`;

  const sections: ArticleSection[] = [
    {
      heading: `What the reports say about ${keyword}`,
      paragraphs: ['Each report is quoted below in its own words, with a link to the full story.'],
      subsections: quotes
        .filter((q) => q.sentences.length > 0)
        .map(({ report, sentences }) => ({
          heading: `${report.publisher}: ${report.title}`,
          paragraphs: [
            `“${literal(sentences.join(' '))}” ${markdownLink(`Read the report on ${report.publisher}`, report.finalUrl)}.`,
          ],
        })),
    },
    {
      heading: `How the ${keyword} story developed`,
      paragraphs: [
        `The story started trending on ${started}. The trends radar rates its urgency as ${trend.urgency} and its virality at ${Math.round(trend.viralityScore * 100)} out of 100.`,
        `News moves fast. The quotes above are what the reports said when this article was written, on ${dateFormat.format(today)}. Check the linked reports for updates before you rely on them.`,
      ],
    },
  ];
  const faq: FaqEntry[] = [
    ...(lead
      ? [
          {
            question: `What happened with ${keyword}?`,
            answer: `${literal(lead.report.publisher)} reports: “${literal(lead.sentences[0]!)}”`,
          },
        ]
      : []),
    {
      question: `Which publishers covered ${keyword}?`,
      answer: `${literal(listed(publishers))}. Their reports are linked in the sources section.`,
    },
    { question: `When did the ${keyword} story start?`, answer: `It started trending on ${started}.` },
    { question: `Is the ${keyword} story still developing?`, answer: developing(trend.urgency) },
  ];
  return {
    title: trendTitle(keyword, trend.topic),
    metaDescription: fitMetaDescription(
      `${capitalize(keyword)}: what ${listed(publishers)} report, when the story started and where it stands, with links to every report.`,
    ),
    primaryKeyword: keyword,
    secondaryKeywords: brief.secondaryKeywords,
    slug: slugOf(keyword),
    intro: [
      `This article brings together what ${reportCount} about ${keyword}: ${literal(listed(publishers))}. The story started trending on ${started}.`,
    ],
    sections,
    faq,
    sources,
    ...(brief.pillar ? { pillar: brief.pillar.trim() } : {}),
  };
}
