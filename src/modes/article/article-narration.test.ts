import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countWords, scriptBudget } from '../../media/script/budget.ts';
import { ARTICLE_TEXT_CHARS, articleNarration, maxNarrationWords } from './article-narration.ts';

const sentence = (n: number) => `Sentence number ${n} explains one more detail of the launch plan.`;
const longArticle = (paragraphs: number) =>
  Array.from({ length: paragraphs }, (_, p) =>
    [sentence(p * 3 + 1), sentence(p * 3 + 2), sentence(p * 3 + 3)].join(' '),
  ).join('\n\n');

void describe('articleNarration', () => {
  void test('nothing to narrate without text or summary', () => {
    assert.equal(articleNarration({ title: 'Only a title', durationSec: 30, voiceSpeed: 1 }), undefined);
  });

  void test('title opens, markdown is stripped, cta is the last line', () => {
    const n = articleNarration({
      title: 'Why Bread Rises',
      text: '# Why Bread Rises\n\nYeast **eats** sugar and makes [gas](https://x.example/gas).\n\n- Warmth helps\n- Time helps',
      cta: 'Bake a loaf this weekend.',
      durationSec: 30,
      voiceSpeed: 1,
    })!;
    assert.equal(
      n.script,
      'Why Bread Rises.\nYeast eats sugar and makes gas.\nWarmth helps.\nTime helps.\nBake a loaf this weekend.',
    );
    assert.equal(n.source, 'article_text');
    assert.equal(n.sentencesUsed, 3);
    assert.equal(n.words, countWords(n.script));
  });

  void test('a long article is cut at a sentence boundary within the duration budget', () => {
    for (const [durationSec, voiceSpeed] of [
      [15, 1],
      [30, 1],
      [60, 1.3],
      [120, 0.7],
    ] as const) {
      const n = articleNarration({
        title: 'Launch plan',
        text: longArticle(40),
        cta: 'Follow for part two.',
        durationSec,
        voiceSpeed,
      })!;
      const budget = scriptBudget({ durationSec, voiceSpeed }).targetWords;
      assert.ok(n.words <= budget, `${durationSec}s: ${n.words} > ${budget}`);
      assert.ok(
        n.words > budget - countWords(sentence(1)) - 1,
        `${durationSec}s: only ${n.words} of ${budget}`,
      );
      const lines = n.script.split('\n');
      assert.equal(lines.at(-1), 'Follow for part two.');
      for (const line of lines.slice(1, -1))
        assert.match(line, /^(Sentence number \d+ explains one more detail of the launch plan\. ?)+$/);
      assert.ok(n.sentencesUsed < n.sentencesAvailable);
    }
  });

  void test('only the first 6000 characters of article_text are read', () => {
    const text = `${'Early words fill the start. '.repeat(Math.ceil(ARTICLE_TEXT_CHARS / 28))}Late secret sentence.`;
    const n = articleNarration({ text, durationSec: 120, voiceSpeed: 1 })!;
    assert.ok(!n.script.includes('Late secret'));
  });

  void test('summary is used when there is no text', () => {
    const n = articleNarration({
      summary: 'A *short* summary. It has two sentences.',
      durationSec: 15,
      voiceSpeed: 1,
    })!;
    assert.equal(n.source, 'article_summary');
    assert.equal(n.script, 'A short summary. It has two sentences.');
  });

  void test('a first sentence longer than the budget is kept whole when it fits 120 s', () => {
    const long = `${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}.`;
    const n = articleNarration({ text: `${long} Second sentence.`, durationSec: 15, voiceSpeed: 1 })!;
    assert.equal(n.script, long);
  });

  void test('a first sentence longer than 120 s is shortened to fit', () => {
    const huge = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const n = articleNarration({ title: 'Title', text: huge, durationSec: 15, voiceSpeed: 1 })!;
    assert.ok(n.words <= maxNarrationWords(1), `${n.words}`);
    assert.match(n.script, /^Title\.\nword0 word1 .* word\d+\.$/);
  });
});
