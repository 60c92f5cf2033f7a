// The local generator's hook shapes, a few per format, filled with the topic's key phrase (topic-frame.ts).
// Rules every template keeps, so any topic reads grammatically and nothing is made up:
// - {subject} only stands where a noun phrase or a wh-clause fits (after a preposition or "understand"),
//   never as a sentence's subject, so no verb has to agree with it;
// - {action} only stands after "to" or "you" (a bare verb phrase: "bake sourdough bread");
// - numbers count the video's own items ("3 things", "5 questions"): no statistic, price or date;
// - no claim about the world: only about the viewer's attention and what the video will show.
import type { HookFormat } from './hook-formats.ts';

export interface HookTemplate {
  format: HookFormat;
  text: string;
}

const t = (format: HookFormat, ...texts: string[]): HookTemplate[] => texts.map((text) => ({ format, text }));

/** For a subject phrase: "electric cars", "the history of the Roman Empire", "why sleep matters". */
export const SUBJECT_TEMPLATES: readonly HookTemplate[] = [
  ...t(
    'question',
    'What are you missing about {subject}?',
    'Do you really understand {subject}?',
    'Confused about {subject}?',
  ),
  ...t(
    'bold_claim',
    'This will change how you see {subject}.',
    'You are thinking about {subject} all wrong.',
  ),
  ...t('number', '3 things to know about {subject}.', '5 questions worth asking about {subject}.'),
  ...t(
    'story',
    'Let me tell you the story behind {subject}.',
    'It all starts with one question about {subject}.',
  ),
  ...t(
    'warning',
    'Stop scrolling if you care about {subject}.',
    "Don't make up your mind about {subject} until you've seen this.",
  ),
  ...t(
    'contrarian',
    "Everyone says the same thing about {subject}. Here's the other side.",
    'What if the usual take on {subject} is wrong?',
    "Forget what you've heard about {subject}.",
  ),
  ...t('how_to', 'How to make sense of {subject}, step by step.', "Here's how to think about {subject}."),
  ...t(
    'before_after',
    'Before: confused about {subject}. After: it all clicks.',
    "Where you stand on {subject} now, and where you'll stand after this.",
  ),
];

/** For an action: "start investing in index funds", "rent or buy a home". */
export const ACTION_TEMPLATES: readonly HookTemplate[] = [
  ...t('question', 'Want to {action}?', 'Trying to {action} the hard way?', 'Do you know how to {action}?'),
  ...t('bold_claim', 'Anyone can learn to {action}.', "You don't need to be an expert to {action}."),
  ...t('number', '3 steps to {action}.', '5 mistakes to avoid when you {action}.'),
  ...t(
    'story',
    'Let me walk you through what it takes to {action}.',
    'It starts with one decision: to {action}.',
  ),
  ...t('warning', "Don't try to {action} until you've seen this.", 'Stop scrolling if you want to {action}.'),
  ...t(
    'contrarian',
    "Everyone tells you how to {action}. Here's the other side.",
    'What if the usual advice on how to {action} is wrong?',
  ),
  ...t('how_to', 'How to {action}, step by step.', 'How to {action} without the guesswork.'),
  ...t('before_after', 'Before: you want to {action}. After: you know how.'),
];

/** Topics that are a direct question or a statement are also repeated whole. */
export const WHOLE_TOPIC_TEMPLATES: readonly HookTemplate[] = [
  ...t('question', "{Question}? Let's find out."),
  ...t('bold_claim', "{Claim}. Here's what that means for you."),
];
