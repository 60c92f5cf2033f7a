// Ready-to-post title, description and hashtags for a video, from its brief or from a sent script.
import { analyzeBrief, type BriefAnalysis } from './brief-analysis.ts';
import { capitalize, isStopWord, titleCase, verbForm, withArticle } from './english.ts';
import { splitSentences } from './sentences.ts';
import type { Brand, ContentPurpose } from './writer.ts';

export const MAX_TITLE_CHARS = 70;

export interface TitleAndDescriptionInput {
  brief?: string;
  script?: string;
  /** A brief already analyzed by the caller (saves reading it twice). */
  analysis?: BriefAnalysis;
  brand?: Brand;
  contentPurpose?: ContentPurpose;
  platforms?: string[];
  durationSec?: number;
  /** ISO 639-1 of the script; titles of non-English scripts are taken from the script itself. */
  language?: string;
}

export interface TitleAndDescription {
  title: string;
  description: string;
  hashtags: string[];
}

/** A website as it is said and shown: no scheme, no "www.", no trailing slash. */
export function displayWebsite(url: string): string {
  return url
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/+$/, '');
}

/** Niches recognised from a brief's words, each with the hashtags that niche uses. */
const NICHES: ReadonlyArray<{ words: RegExp; tags: readonly string[] }> = [
  {
    words: /\b(crypto\w*|bitcoin|ethereum|blockchain|nfts?|defi|web3|altcoins?)\b/i,
    tags: ['CryptoTips', 'Crypto'],
  },
  {
    words:
      /\b(interest|savings?|money|invest\w*|budget\w*|stocks?|retirement|debt|credit|tax(es)?|income|wealth|finance|financial|inflation|mortgage)\b/i,
    tags: ['PersonalFinance', 'MoneyTips'],
  },
  {
    words:
      /\b(athletes?|workouts?|gym|training|fitness|running|runners?|muscles?|sports?|exercises?|marathon)\b/i,
    tags: ['Fitness', 'SportsScience'],
  },
  {
    words: /\b(sleep|health|healthy|nutrition|diet|wellness|mental|stress|meditation|showers?|hydration)\b/i,
    tags: ['Wellness', 'HealthTips'],
  },
  {
    words: /\b(productivity|projects?|tasks?|teams?|remote|workflows?|meetings?|management|deadlines?)\b/i,
    tags: ['Productivity', 'RemoteWork'],
  },
  {
    words: /\b(ai|apps?|software|tech|coding|code|developers?|data|saas|automation|iphone|android)\b/i,
    tags: ['Tech', 'Innovation'],
  },
  {
    words: /\b(marketing|seo|branding|social media|content|ads|sales|customers?|startups?|business\w*)\b/i,
    tags: ['Marketing', 'SmallBusiness'],
  },
  {
    words: /\b(recipes?|food|cooking|bread|sourdough|coffee|breakfast|meals?|baking|kitchen)\b/i,
    tags: ['FoodTok', 'Recipes'],
  },
  { words: /\b(travel\w*|trips?|flights?|hotels?|vacation)\b/i, tags: ['Travel', 'TravelTips'] },
  { words: /\b(resumes?|jobs?|interviews?|careers?|salary|hiring)\b/i, tags: ['CareerTips', 'JobSearch'] },
  {
    words: /\b(science|history|biology|physics|chemistry|space|planets?|photosynthesis|climate)\b/i,
    tags: ['Science', 'LearnSomethingNew'],
  },
];

const PURPOSE_TAGS: Readonly<Record<ContentPurpose, string>> = {
  education: 'Explained',
  sales: 'NewProduct',
  awareness: 'Awareness',
  product_demo: 'ProductDemo',
  case_study: 'CaseStudy',
  news: 'News',
  entertainment: 'Funny',
};

function hashtagMax(platforms: readonly string[] | undefined): number {
  const p = (platforms ?? []).map((x) => x.toLowerCase());
  if (p.includes('youtube')) return 4;
  if (p.includes('instagram')) return 6;
  return 5;
}

/** "project-management app" → "ProjectManagementApp"; undefined when nothing tag-worthy is left. */
export function toHashtag(phrase: string): string | undefined {
  const parts = phrase
    .split(/[\s\-_/]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((w) => w !== '' && !isStopWord(w.toLowerCase()) && w.toLowerCase() !== 'new');
  if (parts.length === 0 || parts.length > 3) return undefined;
  const tag = parts
    .map((w) => (/\p{Lu}/u.test(w.slice(1)) ? w : capitalize(w.toLowerCase() === w ? w : w)))
    .join('');
  if (tag.length > 30 || /^\d+$/.test(tag)) return undefined;
  return tag;
}

function isTagWord(word: string): boolean {
  return (
    !isStopWord(word.toLowerCase()) && !/^\d/.test(word) && verbForm(word) === undefined && word.length > 2
  );
}

function hashtagsFor(
  phrases: readonly (string | undefined)[],
  nicheText: string,
  purpose: ContentPurpose,
  brand: Brand | undefined,
  platforms: string[] | undefined,
): string[] {
  const max = hashtagMax(platforms);
  const seen = new Set<string>();
  const tags: string[] = [];
  const add = (tag: string | undefined): void => {
    if (!tag || seen.has(tag.toLowerCase()) || tags.length >= max) return;
    seen.add(tag.toLowerCase());
    tags.push(`#${tag}`);
  };
  for (const phrase of phrases) {
    const tag = phrase ? toHashtag(phrase) : undefined;
    // A single word already inside an earlier tag ("Interest" in "CompoundInterest") adds nothing.
    if (tag && !/\p{Lu}.*\p{Lu}/u.test(tag) && tags.some((t) => t.toLowerCase().includes(tag.toLowerCase())))
      continue;
    add(tag);
  }
  for (const niche of NICHES) if (niche.words.test(nicheText)) niche.tags.forEach(add);
  for (const keyword of brand?.keywords ?? []) add(toHashtag(keyword));
  if (tags.length < 3) add(PURPOSE_TAGS[purpose]);
  if (tags.length < 3) add(brand?.name ? toHashtag(brand.name) : undefined);
  if (tags.length < 3) add('LearnSomethingNew');
  if (tags.length < 3) add('DidYouKnow');
  return tags;
}

/** Keeps a title within the limit by dropping whole words from its end. */
function fitTitle(title: string): string {
  if (title.length <= MAX_TITLE_CHARS) return title;
  const words = title.split(' ');
  while (words.join(' ').length > MAX_TITLE_CHARS) words.pop();
  return words.join(' ').replace(/[,:;\-–—]+$/, '');
}

function caseTitle(text: string, platforms: readonly string[] | undefined): string {
  const p = (platforms ?? []).map((x) => x.toLowerCase());
  const sentenceCase = p.length > 0 && !p.includes('youtube');
  const out = sentenceCase ? capitalize(text) : titleCase(text);
  return out.replace(/: (\p{Ll})/gu, (_m, c: string) => `: ${c.toUpperCase()}`);
}

function titleCandidates(a: BriefAnalysis, purpose: ContentPurpose, product: string | undefined): string[] {
  const topicNoThe = a.topic.replace(/^the\s+/i, '');
  const list = a.frame === 'list' ? [a.headline] : [];
  const q = a.question ? [a.question] : [];
  switch (purpose) {
    case 'education':
      return [...q, ...list, `${topicNoThe}, explained`];
    case 'sales':
      return [
        ...(product && a.category && a.audience ? [`${product}: the ${a.category} for ${a.audience}`] : []),
        ...(product && a.category ? [`${product}: ${withArticle(a.category)} that delivers`] : []),
        ...(product ? [`meet ${product}`] : []),
        a.headline,
      ];
    case 'product_demo':
      return [...(product ? [`how ${product} works`] : []), `${topicNoThe}: how it works`];
    case 'case_study':
      return [
        ...q.map((x) => `case study: ${x}`),
        ...(a.claim ? [`case study: ${a.claim}`] : []),
        `case study: ${topicNoThe}`,
      ];
    case 'news':
      return [...(a.claim ? [a.claim] : []), `${topicNoThe}: what's new`];
    case 'awareness':
      return [...q, `why ${topicNoThe} ${a.topicPlural ? 'matter' : 'matters'}`];
    case 'entertainment':
      return [`me vs. ${topicNoThe}`, topicNoThe];
  }
}

function summaryLines(
  a: BriefAnalysis,
  purpose: ContentPurpose,
  product: string | undefined,
  durationSec: number,
): string[] {
  const topic = a.topic;
  const question = a.question;
  switch (purpose) {
    case 'education':
      return [
        question
          ? `${capitalize(question)}, explained in ${durationSec} seconds.`
          : `A quick, clear explainer on ${topic}.`,
        a.audience
          ? `Made for ${a.audience}: the core idea, what to watch for and one takeaway to remember.`
          : 'The core idea, what to watch for and one takeaway worth remembering.',
      ];
    case 'sales':
      return [
        product
          ? `Meet ${product}${a.category ? `, ${withArticle(a.category)}` : ''}${a.audience ? ` built for ${a.audience}` : ''}.`
          : `${capitalize(a.headline)}.`,
        'See what it does and why it is worth a try.',
      ];
    case 'product_demo':
      return [
        `See how ${product ?? topic} works, step by step.`,
        `From first step to result in ${durationSec} seconds.`,
      ];
    case 'case_study':
      return [
        question ? `${capitalize(question)}.` : `A short case study on ${topic}.`,
        'The situation, the challenge, what changed and the lesson you can apply.',
      ];
    case 'news':
      return [
        a.claim ? `${capitalize(a.claim)}.` : `The latest on ${topic}.`,
        'What happened, why it matters and what to watch next.',
      ];
    case 'awareness':
      return [
        question ? `${capitalize(question)}, in under a minute.` : `Why ${topic} deserves your attention.`,
        'Share it with someone who should know.',
      ];
    case 'entertainment':
      return [`A lighthearted take on ${topic}.`, 'Stay for the ending.'];
  }
}

function fromBrief(
  input: TitleAndDescriptionInput,
  a: BriefAnalysis,
  purpose: ContentPurpose,
): TitleAndDescription {
  const product = a.productName ?? input.brand?.name;
  const title = caseTitle(
    fitTitle(
      titleCandidates(a, purpose, product).find((t) => t.length <= MAX_TITLE_CHARS) ??
        titleCandidates(a, purpose, product)[0]!,
    ),
    input.platforms,
  );
  const lines = summaryLines(a, purpose, product, input.durationSec ?? 30);
  const website = input.brand?.websiteUrl ? displayWebsite(input.brand.websiteUrl) : undefined;
  if (website) lines.push(`More at ${website}.`);
  else if (input.brand?.name) lines.push(`From ${input.brand.name}.`);
  const hashtags = hashtagsFor(
    [
      a.topic.split(' ').length <= 3 && verbForm(a.topic.split(' ')[0]!)?.form !== 'gerund'
        ? a.topic
        : undefined,
      a.productName,
      a.object,
      a.audience,
      a.category,
      ...a.keywords.filter(isTagWord),
    ],
    [a.headline, a.category ?? '', input.brand?.industry ?? '', ...(input.brand?.keywords ?? [])].join(' '),
    purpose,
    input.brand,
    input.platforms,
  );
  return { title, description: `${lines.join(' ')}\n\n${hashtags.join(' ')}`, hashtags };
}

/** The script's most frequent content words, most frequent first. */
function frequentWords(script: string): string[] {
  const counts = new Map<string, { word: string; n: number; first: number }>();
  script.split(/\s+/).forEach((raw, i) => {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word.length < 5 || /ly$/i.test(word) || !isTagWord(word.toLowerCase())) return;
    const key = word.toLowerCase();
    const entry = counts.get(key) ?? { word, n: 0, first: i };
    entry.n++;
    counts.set(key, entry);
  });
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).map((e) => e.word);
}

function fromScript(
  input: TitleAndDescriptionInput,
  script: string,
  purpose: ContentPurpose,
  english: boolean,
): TitleAndDescription {
  const sentences = splitSentences(script);
  const fits = (s: string): boolean => s.length <= MAX_TITLE_CHARS && s.split(' ').length >= 3;
  const question = sentences.find((s) => s.endsWith('?') && fits(s));
  const firstFitting = sentences.find(fits);
  const words = frequentWords(script);
  let title = (question ?? firstFitting ?? fitTitle(sentences[0] ?? words.slice(0, 3).join(' '))).replace(
    /[.!]+$/,
    '',
  );
  if (english) title = caseTitle(title, input.platforms);
  const summary: string[] = [];
  for (const s of sentences) {
    if (summary.length >= 2 || summary.join(' ').length + s.length > 220) break;
    if (s.replace(/[.!?]+$/, '').toLowerCase() !== title.replace(/[.!?]+$/, '').toLowerCase())
      summary.push(s);
  }
  if (summary.length === 0 && sentences[0]) summary.push(sentences[0]);
  const website = input.brand?.websiteUrl ? displayWebsite(input.brand.websiteUrl) : undefined;
  if (website) summary.push(english ? `More at ${website}.` : website);
  const hashtags = hashtagsFor(words.slice(0, 2), script, purpose, input.brand, input.platforms);
  return { title, description: `${summary.join(' ')}\n\n${hashtags.join(' ')}`, hashtags };
}

/** A ready-to-post title (at most 70 characters) and a 2–3 sentence description ending in 3–6 hashtags. */
export function writeTitleAndDescription(input: TitleAndDescriptionInput): TitleAndDescription {
  const purpose = input.contentPurpose ?? 'education';
  const english = (input.language ?? 'en').toLowerCase().startsWith('en');
  if (input.analysis) return fromBrief(input, input.analysis, purpose);
  if (input.brief && input.brief.trim() !== '' && english) {
    return fromBrief(
      input,
      analyzeBrief({
        prompt: input.brief,
        brandName: input.brand?.name,
        productMinded: purpose === 'sales' || purpose === 'product_demo',
      }),
      purpose,
    );
  }
  if (input.script && input.script.trim() !== '')
    return fromScript(input, input.script.trim(), purpose, english);
  throw new TypeError('writeTitleAndDescription needs a brief or a script');
}
