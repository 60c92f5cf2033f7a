import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findFigures } from '../../media/script/figures.ts';
import { HOOK_FORMATS } from './hook-formats.ts';
import { MAX_HOOKS } from './hook-request.ts';
import { statesNewFigure } from './hook-service.ts';
import { localHookCandidates } from './local-hook-generator.ts';
import { rankHooks } from './rank-hooks.ts';
import { frameTopic } from './topic-frame.ts';

// Twenty topics of every shape the generator must read: noun phrases (plural, possessive, names, acronyms,
// digits, gerunds), "how to", embedded and direct questions, statements, a bare imperative, a title-cased
// headline, a non-Latin script and a bare number.
const TOPICS = [
  'remote work productivity',
  'How to start investing in index funds',
  'Why sleep matters for athletes',
  'electric cars',
  "Taylor Swift's new album",
  'the Fed raising interest rates',
  'AI in healthcare',
  'learning Spanish fast',
  'Is coffee bad for you?',
  'NASA Artemis moon mission',
  'budgeting for college students',
  'iPhone 16 battery life',
  'how compound interest grows savings',
  'World Cup 2026',
  'Tesla cuts prices in China',
  'what is quantitative easing',
  'should you rent or buy a home',
  'Stop overthinking',
  'The Surprising Economics of Running a Small Bakery in New York City During a Recession',
  '東京オリンピック',
];

/** What makes a line well-formed whatever the topic: a capital start, one end mark, clean spacing. */
function formProblems(text: string): string[] {
  const problems: string[] = [];
  if (!/^[\p{Lu}\p{N}]/u.test(text)) problems.push('does not start with a capital or digit');
  if (!/[.?!]$/.test(text)) problems.push('does not end with . ? or !');
  if (/[{}]/.test(text)) problems.push('has a template marker left');
  if (/\s{2,}|\s[.,?!:;]|[.,?!:;]{2,}/.test(text)) problems.push('has broken spacing or punctuation');
  if (/\b(\p{L}+) \1\b/iu.test(text)) problems.push('repeats a word');
  if (/\b(undefined|null|NaN)\b/.test(text)) problems.push('has a missing value');
  if (/\b(a|an|the) (a|an|the)\b/i.test(text)) problems.push('has two articles in a row');
  return problems;
}

test('twenty varied topics: every hook well-formed, naming the key phrase, with no invented figure', () => {
  for (const topic of TOPICS) {
    const frame = frameTopic(topic);
    const candidates = localHookCandidates(frame);
    assert.ok(candidates.length >= MAX_HOOKS, `${topic}: only ${candidates.length} candidates`);
    const topicFigures = findFigures(topic);
    for (const { text, format } of candidates) {
      assert.deepEqual(formProblems(text), [], `${topic} → ${text}`);
      assert.ok(
        text.toLowerCase().includes(frame.keyPhrase.toLowerCase()),
        `${text} lacks "${frame.keyPhrase}"`,
      );
      assert.ok(HOOK_FORMATS.includes(format));
      assert.equal(statesNewFigure(text, topicFigures), false, `${text} states a figure`);
    }
  }
});

test('every topic yields the maximum count of distinct hooks, covering all eight formats', () => {
  for (const topic of TOPICS) {
    const frame = frameTopic(topic);
    const hooks = rankHooks(localHookCandidates(frame), {
      count: MAX_HOOKS,
      platform: 'shortsite',
      keyPhrase: frame.keyPhrase,
      topic,
    });
    assert.equal(hooks.length, MAX_HOOKS, topic);
    assert.equal(new Set(hooks.map((h) => h.text)).size, MAX_HOOKS, topic);
    assert.deepEqual(new Set(hooks.map((h) => h.format)), new Set(HOOK_FORMATS), topic);
  }
});

test('an action topic is used after "to" or "you", a subject only as an object', () => {
  const action = localHookCandidates(frameTopic('how to bake sourdough bread')).map((c) => c.text);
  assert.ok(action.includes('3 steps to bake sourdough bread.'));
  assert.ok(
    action.every((t) => /\b(to|you) bake sourdough bread\b/.test(t)),
    action.join('\n'),
  );
  const subject = localHookCandidates(frameTopic('electric cars')).map((c) => c.text);
  assert.ok(subject.includes('Stop scrolling if you care about electric cars.'));
  assert.ok(subject.every((t) => !/^electric cars/i.test(t)));
});

test('a direct question and a statement are also repeated whole', () => {
  const question = localHookCandidates(frameTopic('is coffee bad for you?'));
  assert.ok(
    question.some((c) => c.text === "Is coffee bad for you? Let's find out." && c.format === 'question'),
  );
  const claim = localHookCandidates(frameTopic('the Fed raised interest rates'));
  assert.ok(
    claim.some((c) => c.text === "The Fed raised interest rates. Here's what that means for you."),
    claim.map((c) => c.text).join('\n'),
  );
});

test('numbers in local hooks are only the structural counts 3 and 5', () => {
  const numbers = new Set(
    TOPICS.flatMap((topic) => {
      const inTopic = new Set(findFigures(topic).map((f) => f.text));
      return localHookCandidates(frameTopic(topic)).flatMap((c) =>
        findFigures(c.text)
          .map((f) => f.text)
          .filter((n) => !inTopic.has(n)),
      );
    }),
  );
  assert.deepEqual([...numbers].sort(), ['3', '5']);
});
