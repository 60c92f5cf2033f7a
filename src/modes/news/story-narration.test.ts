import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countWords } from '../../media/script/budget.ts';
import { attributionLine, listNames, storyNarration, type StoryText } from './story-narration.ts';

const SOLAR: StoryText = {
  topic: 'Floating solar farm opens in Porthaven',
  articles: [
    {
      publisher: 'Harbour Gazette',
      title: 'Porthaven switches on floating solar farm',
      paragraphs: [
        'Porthaven switched on a floating solar farm in the old dock basin on Tuesday.',
        "The cool water lifts the panels' output on hot days, engineers say.",
      ],
    },
    {
      publisher: 'Lakeside Ledger',
      title: 'Floating solar farm opens in Porthaven dock basin',
      paragraphs: [
        // The same fact as the Gazette's lead, said again: read once.
        'Porthaven switched on a floating solar farm in its old dock basin on Tuesday morning.',
        'City officials expect the solar farm to power two thousand homes each year.',
      ],
    },
    {
      publisher: 'Coastal Courier',
      paragraphs: ['Subscribe to our newsletter for every story about the solar farm in Porthaven.'],
    },
  ],
};

const HONEY: StoryText = {
  topic: 'Record honey harvest in Millbrook',
  articles: [
    {
      publisher: 'Valley Times',
      paragraphs: [
        'Beekeepers in Millbrook collected a record honey harvest this summer.',
        "A wet spring filled the meadows with clover, the beekeepers' association says.",
      ],
    },
  ],
};

const sentencesOf = (story: StoryText) => new Set(story.articles.flatMap((a) => a.paragraphs));

void describe('listNames and attributionLine', () => {
  void test('one, two and three publishers', () => {
    assert.equal(listNames(['Reuters']), 'Reuters');
    assert.equal(listNames(['Reuters', 'BBC']), 'Reuters and BBC');
    assert.equal(listNames(['Reuters', 'BBC', 'AP News']), 'Reuters, BBC and AP News');
    assert.equal(attributionLine(['Reuters', 'BBC']), 'Reported by Reuters and BBC.');
  });
});

void describe('storyNarration', () => {
  void test('single: the headline, who reported it, then their own sentences; repeats and boilerplate left out', () => {
    const n = storyNarration({ format: 'single', stories: [SOLAR], budgetWords: 65, keywords: [] });
    const [headline, attribution, ...said] = n.script.split('\n');
    assert.equal(headline, 'Porthaven switches on floating solar farm.');
    assert.equal(attribution, 'Reported by Harbour Gazette and Lakeside Ledger.');
    assert.equal(said.join(' '), n.stories[0]!.sentences.join(' '));
    const all = sentencesOf(SOLAR);
    for (const s of n.stories[0]!.sentences) assert.ok(all.has(s), s);
    assert.equal(
      n.stories[0]!.sentences.filter((s) => s.includes('old dock basin') || s.includes('its old dock'))
        .length,
      1,
    );
    assert.ok(!n.script.includes('Subscribe'));
    assert.ok(!n.script.includes('Coastal Courier'));
    assert.ok(n.words <= 65, `${n.words} words`);
    assert.deepEqual(n.stories[0]!.publishers, ['Harbour Gazette', 'Lakeside Ledger']);
  });

  void test('only the publishers whose words are read are named', () => {
    const n = storyNarration({ format: 'single', stories: [SOLAR], budgetWords: 22, keywords: [] });
    assert.equal(n.stories[0]!.sentences.length, 1);
    assert.deepEqual(n.stories[0]!.publishers, ['Harbour Gazette']);
    assert.ok(n.script.includes('Reported by Harbour Gazette.'));
  });

  void test('breaking: the lead first and the closing line', () => {
    const n = storyNarration({ format: 'breaking', stories: [SOLAR], budgetWords: 65, keywords: [] });
    const lines = n.script.split('\n');
    assert.equal(lines[0], 'Breaking news: Porthaven switches on floating solar farm.');
    assert.equal(lines.at(-1), 'More as this story develops.');
  });

  void test('digest: every story with its own headline and publishers; a story without a title uses its topic', () => {
    const n = storyNarration({ format: 'digest', stories: [SOLAR, HONEY], budgetWords: 135, keywords: [] });
    const lines = n.script.split('\n');
    assert.equal(lines[0], 'Here is your news digest.');
    assert.ok(lines.includes('Record honey harvest in Millbrook.'));
    assert.ok(lines.includes('Reported by Valley Times.'));
    assert.equal(n.stories.length, 2);
    for (const [i, story] of [SOLAR, HONEY].entries()) {
      assert.ok(n.stories[i]!.sentences.length >= 1);
      for (const s of n.stories[i]!.sentences) assert.ok(sentencesOf(story).has(s), s);
    }
    assert.ok(countWords(n.script) <= 135);
  });

  void test('headlines: one short sentence per story; weekly: its own opener and closer', () => {
    const headlines = storyNarration({
      format: 'headlines',
      stories: [SOLAR, HONEY],
      budgetWords: 135,
      keywords: [],
    });
    assert.ok(headlines.script.startsWith('Here are the headlines.\n'));
    assert.deepEqual(
      headlines.stories.map((s) => s.sentences.length),
      [1, 1],
    );
    const weekly = storyNarration({
      format: 'weekly',
      stories: [SOLAR, HONEY],
      budgetWords: 135,
      keywords: [],
    });
    assert.ok(weekly.script.startsWith('Here is your weekly roundup.\n'));
    assert.ok(weekly.script.endsWith("\nThat's the week."));
  });
});
