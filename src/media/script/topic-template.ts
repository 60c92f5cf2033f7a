// The local writer's script. It cannot know anything about a topic, so it says only what it can stand behind: it
// names the topic, says what the brief itself states (its claim, its product, its audience, the points it asks
// to make), asks the viewer a question and closes. No tips, steps, figures or facts of its own; a brand kit's
// proof points are said only when they speak to the topic. Short by design: the answer of every job says
// `script_source: "template"` and how to get a real script (docs/scripts.md).
import type { BriefAnalysis } from './brief-analysis.ts';
import { countWords } from './budget.ts';
import { isPluralPhrase, withArticle } from './english.ts';
import { contentTerms, termOverlap } from './key-sentences.ts';
import { shuffled } from './seeded.ts';
import { applyRhythm } from './styles.ts';
import { fillTemplate, type Slots } from './template.ts';
import { topicSubject } from './subject.ts';
import type { ContentPurpose, ContentStyle } from './writer.ts';

interface Line {
  text: string;
  purposes?: readonly ContentPurpose[];
}

const PITCH: readonly ContentPurpose[] = ['sales', 'product_demo'];
/** The brief's own points said at most; a brief is not an article. */
const MAX_POINTS = 6;
const QUESTION_FRAMES = new Set<BriefAnalysis['frame']>(['how', 'why', 'what', 'howto']);

const OPENINGS: readonly Line[] = [
  { text: "Let's talk about {subject}." },
  { text: 'This one is about {subject}.' },
  { text: 'A quick word on {subject}.' },
  { text: "Today's topic: {subject}." },
  { text: "Here's something worth a moment: {subject}." },
  { text: 'Next up: {subject}.' },
  { text: 'Thinking about {subject}?', purposes: PITCH },
];

/** An opening that makes the viewer stop, without promising what the script cannot give. */
const HOOKS: readonly Line[] = [
  { text: 'Ever wondered {question}?' },
  { text: 'Have you ever asked yourself {question}?' },
  { text: 'Stop scrolling if you care about {subject}.' },
  { text: 'How much do you really know about {subject}?' },
  { text: 'Quick question about {subject}.' },
  { text: 'Got a moment? This is about {subject}.' },
  { text: 'This one is for anyone curious about {subject}.' },
];

const STATEMENTS: readonly Line[] = [
  { text: '{Statement}.' },
  { text: "Here's the idea: {statement}." },
  { text: 'Put simply: {statement}.' },
  { text: 'The point is this: {statement}.' },
  { text: 'In a sentence: {statement}.' },
];

const PRODUCTS: readonly Line[] = [
  { text: '{Product} is {aCategory}{?audience} for {audience}.' },
  { text: 'Meet {product}, {aCategory}{?audience} for {audience}.' },
  { text: 'This is {product}: {aCategory}{?audience} for {audience}.' },
];

const AUDIENCES: readonly Line[] = [
  { text: 'This one is for {audience}.' },
  { text: '{Audience}, this one is for you.' },
  { text: 'If you are one of the {audience}, keep watching.' },
];

/** A point the brief asks to make, as a phrase ("the rule of 72"): framed, never explained. */
const POINT_PHRASES: readonly Line[] = [
  { text: 'Think about {point}.' },
  { text: 'Consider {point}.' },
  { text: 'Keep {point} in mind.' },
  { text: 'Then there is {point}.' },
];

/** The viewer is asked; nothing is told. */
const QUESTIONS: readonly Line[] = [
  { text: "What's your best {item} for {subject}?" },
  { text: 'Which {item} has worked best for you?' },
  { text: 'What do you already know about {subject}?' },
  { text: "What's your take on {subject}?" },
  { text: 'What has your own experience taught you about {subject}?' },
  { text: 'What would you most like to know about {subject}?' },
  { text: 'How much thought have you given to {subject}?' },
  { text: 'What do you already know about {it}?' },
  { text: "What's your take on {it}?" },
  { text: 'What has your own experience taught you about {it}?' },
  { text: 'What matters most to you about {subject}?', purposes: PITCH },
];

/** After the brief's own statement, the viewer is asked about it. */
const ABOUT_STATEMENT: readonly Line[] = [
  { text: 'What do you make of that?' },
  { text: 'Does that match your experience?' },
  { text: 'Would you agree?' },
  { text: "What's your take?" },
  { text: 'Has that been true for you?' },
];

/** Said only when the budget has room; each asks the viewer to think, none states a fact. */
const REFLECTIONS: readonly Line[] = [
  { text: 'Take a moment to think it over.' },
  { text: "There's no wrong answer here." },
  { text: "Think about what has worked for you, and what hasn't." },
  { text: 'Start with what you already know.' },
  { text: 'Keep your answer in mind.' },
];

const CLOSINGS: readonly Line[] = [
  { text: 'Share your best {item} in the comments.' },
  { text: 'Share your thoughts in the comments.' },
  { text: 'Tell us in the comments.' },
  { text: 'Drop your answer in the comments.' },
  { text: 'Follow for more on {subject}.' },
  { text: 'Save this, and share it with someone who cares about {subject}.' },
];

const SIGNOFFS: readonly Line[] = [
  { text: 'Learn more at {website}.' },
  { text: 'Find out more at {website}.' },
  { text: 'More at {website}.' },
  { text: 'Visit {website} to learn more.' },
  { text: 'See {website} for more.' },
];

export interface TopicTemplateInput {
  analysis: BriefAnalysis;
  purpose: ContentPurpose;
  style: ContentStyle;
  includeHook?: boolean;
  /** Said last by the caller; when set, no closing line of ours is said. */
  cta?: string;
  website?: string;
  /** A brand kit's proof points: said when they share the brief's words. */
  proofPoints: readonly string[];
  maxWords: number;
  random: () => number;
  /** Which take of the brief this is; lines earlier takes said are avoided while another wording is left. */
  take: { index: number; said: Map<string, number> };
  accept: (text: string) => boolean;
}

export interface TopicTemplateScript {
  lines: string[];
  hookUsed: string | null;
  /** Whether a line came from material (a brand kit's proof point) rather than from the brief alone. */
  usedMaterial: boolean;
  /** What the script is about, as it names it: the title says this and no more. */
  subject: string;
}

interface Beat {
  options: string[];
  /**
   * When the budget is short, beats with the lowest `keep` leave first; the opening and the brief's own
   * statement (Infinity) always stay.
   */
  keep: number;
  hook?: boolean;
}

/** The brief's own proof points that speak to its topic (they share its content words). */
function relevantProofPoints(points: readonly string[], analysis: BriefAnalysis): string[] {
  const brief = new Set(contentTerms(analysis.headline));
  return points
    .filter((p) => termOverlap(new Set(contentTerms(p)), brief) > 0)
    .map((p) => p.replace(/[.!?]*$/, '.'));
}

export function writeTopicTemplate(input: TopicTemplateInput): TopicTemplateScript {
  const a = input.analysis;
  const subject = topicSubject(a);
  const base: Slots = {
    question: QUESTION_FRAMES.has(a.frame) ? a.question : undefined,
    statement: subject.statement,
    audience: a.frame === 'product' && a.category ? undefined : a.audience,
    product: a.frame === 'product' ? subject.phrase : undefined,
    aCategory: a.category ? withArticle(a.category) : undefined,
    item: subject.listItem,
    website: input.website,
    it: !QUESTION_FRAMES.has(a.frame) && isPluralPhrase(subject.phrase) ? 'them' : 'it',
  };
  const productAudience: Slots = { ...base, audience: a.audience };
  const subjects = [subject.phrase, subject.short].filter((s): s is string => s !== undefined);

  /** Each line with the subject's full phrase, else its short form, when the kit's rules allow it. */
  const fill = (lines: readonly Line[], slots: Slots): string[] => {
    const out: string[] = [];
    for (const line of lines) {
      if (line.purposes && !line.purposes.includes(input.purpose)) continue;
      for (const s of subjects) {
        const text = fillTemplate(line.text, { ...slots, subject: s });
        if (text !== undefined && input.accept(text)) {
          if (!out.includes(text)) out.push(text);
          break;
        }
      }
    }
    return out;
  };

  const beats: Beat[] = [];
  const opened = input.includeHook !== false;
  const asked = subject.statement && a.frame !== 'product' ? ABOUT_STATEMENT : QUESTIONS;
  // Without an opening line, the question opens and names the topic: "it" or "which tip" would name nothing.
  const question: Beat = opened
    ? { options: fill(asked, base), keep: 6 }
    : {
        options: fill(
          asked.filter((l) => l.text.includes('{subject}')),
          base,
        ),
        keep: Infinity,
      };
  if (input.includeHook === true) beats.push({ options: fill(HOOKS, base), keep: Infinity, hook: true });
  else if (opened) beats.push({ options: fill(OPENINGS, base), keep: Infinity });
  else beats.push(question);
  if (a.frame === 'product') beats.push({ options: fill(PRODUCTS, productAudience), keep: 4 });
  if (subject.statement) beats.push({ options: fill(STATEMENTS, base), keep: Infinity });
  if (base.audience) beats.push({ options: fill(AUDIENCES, base), keep: 2 });
  for (const [i, point] of a.points.slice(0, MAX_POINTS).entries()) {
    // A clause ("deep sleep repairs muscle") is said as the brief says it; a phrase is framed.
    const lines = point.kind === 'clause' ? [{ text: '{Point}.' }] : POINT_PHRASES;
    // "Keep how $100 grows in mind" does not read: a question-like phrase is only thought about.
    const phrased = /^(how|why|what|when|where|which|who)\b/i.test(point.text)
      ? lines.filter((l) => /^(Think|Consider)/.test(l.text))
      : lines;
    beats.push({ options: fill(phrased, { ...base, point: point.text }), keep: 7 + (MAX_POINTS - i) / 10 });
  }
  const proof = relevantProofPoints(input.proofPoints, a).filter(input.accept);
  for (const point of proof.slice(0, 2)) beats.push({ options: [point], keep: 3 });
  if (opened) beats.push(question);
  beats.push({ options: fill(REFLECTIONS, base), keep: 1 });
  // A website given with the brand is where the video sends the viewer: it closes, before any point leaves.
  if (!input.cta)
    beats.push(
      input.website ? { options: fill(SIGNOFFS, base), keep: 9 } : { options: fill(CLOSINGS, base), keep: 5 },
    );

  const picked = fitted(
    beats
      .filter((b) => b.options.length > 0)
      .map((beat) => ({ beat, order: preferred(beat.options, input) })),
    input.maxWords,
  );
  for (const p of picked) input.take.said.set(p.text, (input.take.said.get(p.text) ?? 0) + 1);
  const lines = picked.map((p) => applyRhythm(p.text, input.style));
  const hookUsed = picked[0]?.beat.hook ? lines[0]! : null;
  return {
    lines,
    hookUsed,
    usedMaterial: picked.some((p) => proof.includes(p.text)),
    subject: subject.phrase,
  };
}

interface Ranked {
  beat: Beat;
  order: string[];
}

/**
 * The lines that fit the budget: beats leave (the least needed first) or lines take a less preferred, shorter
 * wording, whichever costs less; leaving a beat costs its `keep`, each step down a beat's preferences costs 1.
 */
function fitted(ranked: readonly Ranked[], maxWords: number): { beat: Beat; text: string }[] {
  const droppable = ranked.filter((r) => r.beat.keep !== Infinity).sort((x, y) => x.beat.keep - y.beat.keep);
  let best: { cost: number; lines: { beat: Beat; text: string }[] } | undefined;
  for (let dropped = 0; dropped <= droppable.length; dropped++) {
    const out = new Set(droppable.slice(0, dropped));
    const kept = ranked.filter((r) => !out.has(r));
    const minima = kept.map((r) => Math.min(...r.order.map(countWords)));
    let used = 0;
    let cost = droppable.slice(0, dropped).reduce((sum, r) => sum + r.beat.keep, 0);
    const lines = kept.map((r, i) => {
      const rest = minima.slice(i + 1).reduce((sum, m) => sum + m, 0);
      let rank = r.order.findIndex((o) => used + countWords(o) + rest <= maxWords);
      if (rank < 0) rank = r.order.findIndex((o) => countWords(o) === minima[i]);
      cost += rank;
      used += countWords(r.order[rank]!);
      return { beat: r.beat, text: r.order[rank]! };
    });
    // Past the budget only when even the shortest wordings of the beats that always stay do not fit.
    if (used > maxWords) cost += 1000 + used;
    if (!best || cost < best.cost) best = { cost, lines };
  }
  return best!.lines;
}

/**
 * This brief's wordings of a beat, most preferred first: the seed orders them (energetic delivery prefers the
 * shortest, calm the longest), each take starts one further along, and wordings earlier takes said come last.
 */
function preferred(options: readonly string[], input: TopicTemplateInput): string[] {
  let order = shuffled(options, input.random);
  if (input.style === 'energetic') order = order.sort((x, y) => countWords(x) - countWords(y));
  if (input.style === 'calm') order = order.sort((x, y) => countWords(y) - countWords(x));
  const k = order.length === 0 ? 0 : input.take.index % order.length;
  const rotated = [...order.slice(k), ...order.slice(0, k)];
  return [
    ...rotated.filter((o) => !input.take.said.has(o)),
    ...rotated.filter((o) => input.take.said.has(o)),
  ];
}
