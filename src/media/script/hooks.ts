// Proven short-video hook shapes (question, bold claim, "stop scrolling", number-led, myth-busting,
// curiosity gap), written to be filled with the brief's own subject.
import type { ContentPurpose } from './writer.ts';

export type HookKind = 'question' | 'bold' | 'stop' | 'number' | 'myth' | 'curiosity';

export interface HookTemplate {
  kind: HookKind;
  text: string;
  /** Purposes the hook suits; all when absent. */
  purposes?: readonly ContentPurpose[];
}

const INFORMATIVE: readonly ContentPurpose[] = [
  'education',
  'awareness',
  'news',
  'case_study',
  'entertainment',
];
const PITCH: readonly ContentPurpose[] = ['sales', 'product_demo'];

export const HOOKS: readonly HookTemplate[] = [
  { kind: 'question', text: 'Ever wondered {question}?', purposes: INFORMATIVE },
  { kind: 'question', text: 'Do you really know {question}?', purposes: ['education', 'awareness'] },
  {
    kind: 'question',
    text: 'How well do you actually know {topic}?',
    purposes: ['education', 'awareness', 'entertainment'],
  },
  { kind: 'question', text: 'What if {topic} made sense in {seconds} seconds?', purposes: ['education'] },
  { kind: 'question', text: 'What if {aCategory} actually kept up with {audience}?', purposes: PITCH },
  { kind: 'question', text: 'Want to know {question}?', purposes: ['case_study', 'education'] },
  {
    kind: 'bold',
    text: '{Topic} {is} more important than most people think.',
    purposes: ['education', 'awareness'],
  },
  { kind: 'bold', text: 'This is the simplest way to understand {topic}.', purposes: ['education'] },
  { kind: 'bold', text: 'Most people get {topic} wrong.', purposes: ['education', 'awareness'] },
  { kind: 'bold', text: '{Audience} deserve better than {categories} that almost work.', purposes: PITCH },
  { kind: 'bold', text: 'This is what {aCategory} should feel like.', purposes: PITCH },
  { kind: 'bold', text: '{Number} is the headline. Here is the story behind it.', purposes: ['case_study'] },
  { kind: 'bold', text: 'Big news: {claim}.', purposes: ['news'] },
  { kind: 'stop', text: 'Stop scrolling if you care about {topic}.' },
  {
    kind: 'stop',
    text: 'Stop scrolling. {Audience} need to hear this.',
    purposes: ['education', 'awareness', 'news', 'sales'],
  },
  {
    kind: 'stop',
    text: 'Stop scrolling if you are tired of {categories} that overpromise.',
    purposes: PITCH,
  },
  { kind: 'stop', text: 'Stop scrolling: this is {product}.', purposes: PITCH },
  {
    kind: 'number',
    text: "In {seconds} seconds, you'll understand {topic} better than most people.",
    purposes: ['education'],
  },
  {
    kind: 'number',
    text: '{Seconds} seconds. That is all it takes to see what {product} does.',
    purposes: PITCH,
  },
  {
    kind: 'number',
    text: 'One company, one problem, and a result worth {seconds} seconds of your time.',
    purposes: ['case_study'],
  },
  {
    kind: 'myth',
    text: "Forget what you've heard about {topic}. Here's what actually matters.",
    purposes: INFORMATIVE,
  },
  {
    kind: 'myth',
    text: 'Most of what you hear about {topic} is only half the story.',
    purposes: INFORMATIVE,
  },
  {
    kind: 'myth',
    text: 'Think you already know {topic}? Think again.',
    purposes: ['education', 'awareness', 'entertainment'],
  },
  {
    kind: 'myth',
    text: 'You have been told {categories} have to be complicated. They do not.',
    purposes: PITCH,
  },
  { kind: 'curiosity', text: "Here's what nobody tells you about {topic}." },
  {
    kind: 'curiosity',
    text: 'Nobody talks about this side of {topic}.',
    purposes: ['education', 'awareness', 'entertainment'],
  },
  { kind: 'curiosity', text: 'If you follow {topic}, you will want to hear this.', purposes: ['news'] },
  { kind: 'curiosity', text: 'Nobody warned me about {topic}.', purposes: ['entertainment'] },
  { kind: 'curiosity', text: 'Here is the thing about {product} nobody expects.', purposes: PITCH },
];

export function hooksFor(purpose: ContentPurpose): HookTemplate[] {
  return HOOKS.filter((h) => !h.purposes || h.purposes.includes(purpose));
}
