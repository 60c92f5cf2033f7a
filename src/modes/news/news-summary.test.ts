import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newsNarration, scoreSentences } from './news-summary.ts';

const ARTICLE = [
  'The city of Porthaven switched on a floating solar farm on Tuesday, covering the disused dock basin with twelve thousand panels.',
  'Engineers say the water keeps the solar panels cool, which lifts their output by up to a tenth on hot days. The farm will supply about four thousand homes.',
  'Residents had worried about the view from the promenade. The council says the low frames sit below the sea wall.',
  'The mayor thanked the dock workers. Coffee was served.',
  'Work on a second solar basin starts next spring if the first year of the farm goes to plan.',
  'Subscribe to our newsletter for more stories like this one every single morning.',
];
const TITLE = 'Porthaven opens floating solar farm';

void describe('scoreSentences', () => {
  const scored = scoreSentences(ARTICLE, { title: TITLE });
  const score = (start: string) => scored.find((s) => s.text.startsWith(start))!.score;

  void test('the lead outranks small talk; boilerplate is excluded', () => {
    assert.ok(score('The city of Porthaven') > score('Coffee was served'));
    assert.ok(score('Engineers say') > score('The mayor thanked'));
    assert.equal(score('Subscribe to our newsletter'), -1);
  });

  void test('keywords lift the sentences that mention them', () => {
    const plain = scoreSentences(ARTICLE, { title: TITLE }).find((s) =>
      s.text.startsWith('Residents'),
    )!.score;
    const boosted = scoreSentences(ARTICLE, { title: TITLE, keywords: ['promenade'] }).find((s) =>
      s.text.startsWith('Residents'),
    )!.score;
    assert.ok(boosted > plain);
  });
});

void describe('newsNarration', () => {
  const articleSentences = new Set(ARTICLE.flatMap((p) => p.match(/[^.!?]+[.!?]/g)!.map((s) => s.trim())));
  const fromArticle = (sentences: string[]) => sentences.every((s) => articleSentences.has(s));

  void test('single: headline, best sentences in article order within budget, source', () => {
    const n = newsNarration({
      title: TITLE,
      siteName: 'Coastal Courier',
      paragraphs: ARTICLE,
      format: 'single',
      budgetWords: 65,
      keywords: [],
    });
    const lines = n.script.split('\n');
    assert.equal(lines[0], 'Porthaven opens floating solar farm.');
    assert.equal(lines.at(-1), 'Source: Coastal Courier.');
    assert.ok(n.words <= 65, `${n.words}`);
    assert.ok(fromArticle(n.sentences));
    assert.equal(n.sentences[0], ARTICLE[0]);
    const positions = n.sentences.map((s) => ARTICLE.join(' ').indexOf(s));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    );
    assert.ok(!n.script.includes('Subscribe'));
  });

  void test('breaking: urgent opener, lead first, closing line', () => {
    const n = newsNarration({
      title: TITLE,
      paragraphs: ARTICLE,
      format: 'breaking',
      budgetWords: 60,
      keywords: [],
    });
    const lines = n.script.split('\n');
    assert.equal(lines[0], 'Breaking news: Porthaven opens floating solar farm.');
    assert.equal(lines[1], ARTICLE[0]);
    assert.equal(lines.at(-1), 'More as this story develops.');
    assert.ok(n.words <= 60);
  });

  void test('headlines: a short list, one per paragraph, each a short sentence', () => {
    const n = newsNarration({
      title: TITLE,
      siteName: 'Coastal Courier',
      paragraphs: ARTICLE,
      format: 'headlines',
      budgetWords: 120,
      keywords: [],
    });
    const lines = n.script.split('\n');
    assert.equal(lines[0], 'Here are the headlines from Coastal Courier.');
    assert.ok(n.sentences.length >= 3 && n.sentences.length <= 5, `${n.sentences.length}`);
    assert.ok(n.sentences.every((s) => s.split(/\s+/).length <= 25));
    const paragraphsUsed = n.sentences.map((s) => ARTICLE.findIndex((p) => p.includes(s)));
    assert.equal(new Set(paragraphsUsed).size, paragraphsUsed.length);
  });

  void test('digest and weekly: one point per paragraph with their openers and closers', () => {
    const digest = newsNarration({
      title: TITLE,
      paragraphs: ARTICLE,
      format: 'digest',
      budgetWords: 120,
      keywords: [],
    });
    assert.match(digest.script, /^Here is your news digest\.\nPorthaven opens floating solar farm\.\n/);
    const paragraphsUsed = digest.sentences.map((s) => ARTICLE.findIndex((p) => p.includes(s)));
    assert.equal(new Set(paragraphsUsed).size, paragraphsUsed.length);
    assert.ok(digest.sentences.length >= 3);
    const weekly = newsNarration({
      title: TITLE,
      siteName: 'Coastal Courier',
      paragraphs: ARTICLE,
      format: 'weekly',
      budgetWords: 120,
      keywords: [],
    });
    assert.match(weekly.script, /^Here is your weekly roundup\./);
    assert.match(weekly.script, /That's the week\.\nSource: Coastal Courier\.$/);
  });

  void test('every format stays within its budget', () => {
    for (const format of ['digest', 'single', 'headlines', 'weekly', 'breaking'] as const) {
      for (const budget of [40, 65, 135]) {
        const n = newsNarration({
          title: TITLE,
          siteName: 'Coastal Courier',
          paragraphs: ARTICLE,
          format,
          budgetWords: budget,
          keywords: [],
        });
        assert.ok(n.words <= budget, `${format} ${budget}: ${n.words}`);
        assert.ok(n.sentences.length > 0);
      }
    }
  });

  void test('a budget smaller than any sentence still says the best one', () => {
    const n = newsNarration({ paragraphs: ARTICLE, format: 'single', budgetWords: 5, keywords: [] });
    assert.deepEqual(n.sentences, [ARTICLE[0]]);
  });
});
