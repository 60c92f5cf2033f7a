// Ready-to-post title, description and hashtags for a video, from its brief and its script. The description
// quotes the script's own key sentences: it says only what the video says.
import { analyzeBrief, type BriefAnalysis } from './brief-analysis.ts';
import { capitalize, isStopWord, titleCase, verbForm, withArticle } from './english.ts';
import { keySentences } from './key-sentences.ts';
import { splitSentences } from './sentences.ts';
import type { Brand, ContentPurpose } from './writer.ts';

export const MAX_TITLE_CHARS = 70;
/** The description quotes at most this many of the script's sentences, within this many characters. */
const DESCRIPTION_SENTENCES = 2;
const DESCRIPTION_CHARS = 220;
/** What the description says when neither the script nor the brief has a word to describe. */
export const NO_MATERIAL = "No summary: the video's words carry nothing to describe.";

export interface TitleAndDescriptionInput {
  brief?: string;
  /** What the video says: the description is drawn from it. */
  script?: string;
  /** A brief already analyzed by the caller (saves reading it twice). */
  analysis?: BriefAnalysis;
  brand?: Brand;
  contentPurpose?: ContentPurpose;
  platforms?: string[];
  /** ISO 639-1 of the script; titles of non-English scripts are taken from the script itself. */
  language?: string;
  /** A bare topic's subject (topic-template.ts): the title names it and promises nothing the script lacks. */
  subject?: string;
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

/** The same sentence regardless of case and end punctuation. */
function sameSentence(a: string, b: string): boolean {
  const plain = (x: string) =>
    x
      .trim()
      .replace(/[.!?…]+$/, '')
      .toLowerCase();
  return plain(a) === plain(b);
}

function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The description's text: the script's key sentences, those that carry the brief's words first (the title and
 * the website's sign-off left out, since both are shown anyway); else the brief in the caller's words; else a
 * plain note that there is nothing to describe. Then the website or brand name when one is given.
 */
function descriptionLines(
  input: TitleAndDescriptionInput,
  title: string,
  english: boolean,
  brief: { focus?: string; headline?: string },
): string[] {
  const website = input.brand?.websiteUrl ? displayWebsite(input.brand.websiteUrl) : undefined;
  const script = input.script?.trim() ?? '';
  const signoff = (s: string): boolean =>
    website !== undefined && s.toLowerCase().includes(website.toLowerCase());
  const options = { focus: brief.focus, maxSentences: DESCRIPTION_SENTENCES, maxChars: DESCRIPTION_CHARS };
  let lines = keySentences(script, { ...options, skip: (s) => sameSentence(s, title) || signoff(s) });
  // A script that is all title (or all sign-off) is still the best account of itself.
  if (lines.length === 0) lines = keySentences(script, options);
  const headline = brief.headline?.trim();
  if (lines.length === 0) lines = [headline ? asSentence(capitalize(headline)) : NO_MATERIAL];
  if (website) lines.push(english ? `More at ${website}.` : website);
  else if (input.brand?.name && english) lines.push(`From ${input.brand.name}.`);
  return lines;
}

function fromBrief(
  input: TitleAndDescriptionInput,
  a: BriefAnalysis,
  purpose: ContentPurpose,
): TitleAndDescription {
  const product = a.productName ?? input.brand?.name;
  const candidates = input.subject ? [input.subject] : titleCandidates(a, purpose, product);
  const title = caseTitle(
    fitTitle(candidates.find((t) => t.length <= MAX_TITLE_CHARS) ?? candidates[0]!),
    input.platforms,
  );
  const lines = descriptionLines(input, title, true, {
    focus: input.brief ?? a.headline,
    headline: a.headline,
  });
  const hashtags = hashtagsFor(
    [
      a.topic.split(' ').length <= 3 && verbForm(a.topic.split(' ')[0]!)?.form !== 'gerund'
        ? a.topic
        : undefined,
      a.productName,
      a.object,
      a.audience,
      a.category,
      // A bare topic's tags are its subject's words: "#Tips" would promise tips the script does not give.
      ...a.keywords.filter(
        (k) => isTagWord(k) && (!input.subject || input.subject.toLowerCase().includes(k.toLowerCase())),
      ),
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
  const lines = descriptionLines(input, title, english, { focus: input.brief, headline: input.brief });
  const hashtags = hashtagsFor(words.slice(0, 2), script, purpose, input.brand, input.platforms);
  return { title, description: `${lines.join(' ')}\n\n${hashtags.join(' ')}`, hashtags };
}

/**
 * A ready-to-post title (at most 70 characters) and a description of one or two of the script's own sentences
 * (plus the website), ending in 3–6 hashtags. The title comes from the brief when there is an English one.
 */
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
