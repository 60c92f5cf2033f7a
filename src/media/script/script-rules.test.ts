import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptBrandContext } from './brand-context.ts';
import {
  allowingFiguresOf,
  enforceScriptRules,
  ruleBreaks,
  scriptRulesFor,
  withoutBannedHashtags,
  type ScriptRules,
} from './script-rules.ts';

const context = scriptBrandContext({
  proof_points: [
    { claim: 'Customers cut support tickets by 40%', source_url: 'https://acme.example/report' },
    { claim: 'Onboarding is 3x faster than with spreadsheets' },
    { claim: 'Teams save $2,000 per seat each year' },
    { claim: 'Serving finance teams since 2012' },
  ],
  banned_topics: ['layoffs', 'crypto'],
});
const rules = scriptRulesFor(context, { language: 'en', names: ['Studio 54', 'acme360.example'] })!;

function kept(sentence: string, r: ScriptRules = rules): boolean {
  return ruleBreaks(sentence, r).length === 0;
}

test('figures held by a proof point are kept, in any spelling of the same kind and value', () => {
  for (const sentence of [
    'Support tickets drop by 40%.',
    'Customers cut tickets by forty percent.',
    'That is a 40 percent cut.',
    'Onboarding runs three times faster.',
    'Get started 3x faster.',
    'Teams save $2k per seat.',
    'That is two thousand dollars a seat.',
    'We have served finance teams since 2012.',
    'Studio 54 loves it, and so does acme360.example.',
    'Here is one simple idea, and the first step.',
  ])
    assert.ok(kept(sentence), sentence);
});

test('figures no proof point holds are breaks: other values, other kinds, other currencies, years', () => {
  for (const [sentence, figure] of [
    ['Tickets drop by 45%.', '45%'],
    ['Onboarding is 5x faster.', '5x'],
    ['Save €2,000 per seat.', '€2,000'],
    ['Over 40 customers agree.', '40'],
    ['Teams save forty dollars.', 'forty dollars'],
    ['In 2024 everything changed.', '2024'],
    ['Nine out of ten teams agree.', 'Nine out of ten'],
    ['Revenue doubled.', 'doubled'],
  ] as const) {
    const breaks = ruleBreaks(sentence, rules);
    assert.deepEqual(
      breaks.map((b) => (b.rule === 'figure' ? b.text : b.topic)),
      [figure],
      sentence,
    );
  }
});

test('a kit without proof points allows no figures at all', () => {
  const bare = scriptRulesFor(scriptBrandContext({}), { language: 'en' })!;
  assert.ok(!kept('Tickets drop by 40%.', bare));
  assert.ok(!kept('It takes five minutes.', bare));
  assert.ok(kept('It takes a few minutes.', bare));
  assert.equal(scriptRulesFor(undefined, { language: 'en' }), undefined);
});

test('enforcing drops the sentences that break a rule, keeps the others and the line breaks', () => {
  const script = [
    'Support tickets are a tax on growth.',
    'Customers cut them by 40%. Some cut them by 70%.',
    'Nobody wants layoffs to fix it.',
    'Crypto will not save you either. Onboarding is three times faster.',
    'In 2024 the whole market moved.',
  ].join('\n');
  const result = enforceScriptRules(script, rules);
  assert.equal(
    result.script,
    [
      'Support tickets are a tax on growth.',
      'Customers cut them by 40%.',
      'Onboarding is three times faster.',
    ].join('\n'),
  );
  assert.deepEqual(
    result.dropped.map((d) => [d.sentence, d.breaks.map((b) => (b.rule === 'figure' ? b.text : b.topic))]),
    [
      ['Some cut them by 70%.', ['70%']],
      ['Nobody wants layoffs to fix it.', ['layoffs']],
      ['Crypto will not save you either.', ['crypto']],
      ['In 2024 the whole market moved.', ['2024']],
    ],
  );
});

test("the figures of the user's own script may be repeated in its post text", () => {
  const withScript = allowingFiguresOf(rules, ['We grew 300% in 2023.']);
  assert.ok(kept('Growth of 300% since 2023.', withScript));
  assert.ok(!kept('Growth of 300% since 2023.'));
});

test('hashtags that name a banned topic leave the tags and the description', () => {
  const post = withoutBannedHashtags(
    {
      description: 'Fewer tickets, faster onboarding.\n\n#SupportOps #CryptoTips #Layoffs #Web3',
      hashtags: ['#SupportOps', '#CryptoTips', '#Layoffs', '#Web3'],
    },
    rules,
  );
  assert.deepEqual(post.hashtags, ['#SupportOps', '#Web3']);
  assert.equal(post.description, 'Fewer tickets, faster onboarding.\n\n#SupportOps #Web3');
});
