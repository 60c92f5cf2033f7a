import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeBrief, type BriefAnalysis, type BriefSource } from './brief-analysis.ts';

const cases: Array<[BriefSource, Partial<BriefAnalysis>]> = [
  [
    { prompt: 'how compound interest grows savings' },
    {
      frame: 'how',
      topic: 'compound interest',
      claim: 'compound interest grows savings',
      object: 'savings',
      question: 'how compound interest grows savings',
    },
  ],
  [
    { prompt: 'why sleep matters for athletes' },
    { frame: 'why', topic: 'sleep', claim: 'sleep matters for athletes', audience: 'athletes' },
  ],
  [
    { prompt: 'Why Sleep Matters For Athletes' },
    { frame: 'why', topic: 'sleep', claim: 'sleep matters for athletes' },
  ],
  [
    { prompt: 'our new project-management app Taskly for remote teams', productMinded: true },
    { frame: 'product', productName: 'Taskly', category: 'project-management app', audience: 'remote teams' },
  ],
  [
    { prompt: 'Taskly helps remote teams ship faster', productMinded: true },
    {
      frame: 'product',
      productName: 'Taskly',
      claim: 'Taskly helps remote teams ship faster',
      audience: 'remote teams',
    },
  ],
  [
    { prompt: 'How to write a resume' },
    { frame: 'howto', topic: 'writing a resume', action: 'write a resume' },
  ],
  [
    { prompt: '5 tips for better crypto trading' },
    { frame: 'list', topic: 'better crypto trading', listCount: 5, listNoun: 'tips' },
  ],
  [
    { prompt: 'Make a short video about the history of the Eiffel Tower' },
    { frame: 'topic', topic: 'the history of the Eiffel Tower' },
  ],
  [
    { prompt: 'how Acme cut support costs by 40% with automation' },
    { topic: 'Acme', object: 'support costs', means: 'automation', numbers: ['40%'] },
  ],
  [
    { prompt: 'how interest rates affect savings' },
    { topic: 'interest rates', topicPlural: true, claim: 'interest rates affect savings' },
  ],
  [
    { prompt: 'how the stock market works' },
    { topic: 'the stock market', claim: undefined, question: 'how the stock market works' },
  ],
  [{ prompt: 'what is inflation' }, { frame: 'what', topic: 'inflation', question: 'what inflation is' }],
  [{ prompt: 'explain photosynthesis to kids' }, { topic: 'photosynthesis', audience: 'kids' }],
  [
    { prompt: 'Bitcoin halving 2024 explained' },
    { frame: 'topic', topic: 'Bitcoin halving 2024', numbers: ['2024'] },
  ],
  [
    { prompt: 'tips on budgeting, saving and investing' },
    { frame: 'list', topic: 'budgeting, saving and investing' },
  ],
  [
    { topic: 'compound interest', prompt: 'how it grows savings for young people' },
    {
      topic: 'compound interest',
      claim: 'compound interest grows savings for young people',
      audience: 'young people',
    },
  ],
  [
    { prompt: 'why you should start investing early' },
    { topic: 'investing early', action: 'start investing early', claim: undefined },
  ],
];

for (const [src, expected] of cases) {
  test(`reads ${JSON.stringify(src.prompt)}`, () => {
    const a = analyzeBrief(src);
    for (const [key, value] of Object.entries(expected))
      assert.deepEqual(a[key as keyof BriefAnalysis], value, key);
  });
}

test('extra sentences become points; style instructions are dropped', () => {
  const a = analyzeBrief({
    prompt:
      'Why you should start investing early. Mention the rule of 72. Show how $100 a month grows over 30 years. Keep it upbeat.',
  });
  assert.deepEqual(a.points, [
    { text: 'the rule of 72', kind: 'phrase' },
    { text: 'how $100 a month grows over 30 years', kind: 'phrase' },
  ]);
  assert.deepEqual(a.numbers, ['72', '$100', '30']);
});

test('a list of items becomes points', () => {
  assert.deepEqual(
    analyzeBrief({ prompt: 'tips on budgeting, saving and investing' }).points.map((p) => p.text),
    ['budgeting', 'saving', 'investing'],
  );
});

test('known names keep their casing, shouting is lowered', () => {
  const a = analyzeBrief({ prompt: 'how tiktok and youtube pay creators AMAZING money' });
  assert.match(a.claim ?? '', /^TikTok and YouTube pay creators amazing money$/);
});

test('a brief needs words', () => assert.throws(() => analyzeBrief({ prompt: '  ' }), TypeError));
