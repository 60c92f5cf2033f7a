// Clustering through storiesOf, so the items go through the real headline reading (compromise) and weights.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceItem } from '../sources/source-item.ts';
import { storiesOf } from './build-trends.ts';

const NOW = new Date('2024-10-10T03:00:00.000Z');
let minute = 0;

function news(title: string, domain: string, url = `https://www.${domain}/news/${++minute}`): SourceItem {
  const publishedAt = new Date(NOW.getTime() - 3_600_000 + ++minute * 60_000).toISOString();
  return { source: 'gdelt', kind: 'news', title, url, domain, links: [], publishedAt, geo: 'US' };
}

function search(title: string, links: SourceItem['links'] = []): SourceItem {
  return { source: 'feed', kind: 'search', title, domain: 'trends.google.com', links, geo: 'US', rank: 1 };
}

/** The stories as lists of titles, each list sorted, the lists sorted by their first title. */
function grouped(items: SourceItem[]): string[][] {
  return storiesOf(items, { now: NOW, windowHours: 24, geo: 'US' })
    .map((s) => s.items.map((i) => i.item.title).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('clustering items into stories', () => {
  test('headlines of one story from different publishers meet; one shared word ("Apple") does not make a story', () => {
    const stories = grouped([
      news('Apple unveils iPhone 17 with a thinner design', 'reuters.com'),
      news('iPhone 17 hands-on: Apple makes its thinnest phone yet', 'theverge.com'),
      news('EU fines Apple over App Store rules', 'bbc.com'),
      news('Apple hit with EU fine over App Store steering rules', 'ft.com'),
    ]);
    assert.deepEqual(stories, [
      ['Apple hit with EU fine over App Store steering rules', 'EU fines Apple over App Store rules'],
      [
        'Apple unveils iPhone 17 with a thinner design',
        'iPhone 17 hands-on: Apple makes its thinnest phone yet',
      ],
    ]);
  });

  test('a headline naming a subject the story lacks is another story, however alike the wording', () => {
    // "Intel" is a subject of this batch (another story names it too), so it tells the two fines apart.
    const stories = grouped([
      news('Boeing fined by UK regulator over safety reporting failures', 'reuters.com'),
      news('UK regulator fines Boeing over safety reporting', 'bbc.com'),
      news('Intel fined by UK regulator over safety reporting rules', 'theguardian.com'),
      news('Intel shares rise on new chip orders', 'cnbc.com'),
    ]);
    assert.deepEqual(stories, [
      [
        'Boeing fined by UK regulator over safety reporting failures',
        'UK regulator fines Boeing over safety reporting',
      ],
      ['Intel fined by UK regulator over safety reporting rules'],
      ['Intel shares rise on new chip orders'],
    ]);
  });

  test('sharing an article URL joins items whatever their wording', () => {
    const ap = 'https://apnews.com/article/hurricane-milton-florida-landfall-tampa-bay-3a7d2b6d';
    const post: SourceItem = {
      source: 'reddit',
      kind: 'social',
      title: 'This is what it looked like in St. Petersburg tonight',
      url: 'https://www.reddit.com/r/pics/comments/1g02x7k/',
      domain: 'reddit.com',
      links: [{ title: 'AP', url: `${ap}?utm_source=reddit`, domain: 'apnews.com' }],
      publishedAt: NOW.toISOString(),
    };
    const stories = grouped([news('Hurricane Milton makes landfall in Florida', 'apnews.com', ap), post]);
    assert.equal(stories.length, 1);
  });

  test('a search trend joins the story that covers its words, or stands alone', () => {
    const stories = grouped([
      news('Hurricane Milton makes landfall in Florida as a Category 3 storm', 'apnews.com'),
      news('Hurricane Milton makes landfall near Siesta Key', 'cnn.com'),
      search('hurricane milton'),
      search('chicago marathon'),
    ]);
    assert.deepEqual(stories, [
      ['chicago marathon'],
      [
        'Hurricane Milton makes landfall in Florida as a Category 3 storm',
        'Hurricane Milton makes landfall near Siesta Key',
        'hurricane milton',
      ],
    ]);
  });
});
