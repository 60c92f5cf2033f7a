import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceItem } from '../sources/source-item.ts';
import { storySources } from './story-sources.ts';

const at = Date.parse('2024-10-10T01:00:00.000Z');
const AP = 'https://apnews.com/article/hurricane-milton-florida-landfall-tampa-bay-3a7d2b6d';

function storyItem(item: SourceItem, minutes: number) {
  return { item, headline: item.title, at: at + minutes * 60_000, keys: new Map<string, number>() };
}

test('sources: one per article, under the article’s own title, primary publishers first and posts last', () => {
  const sources = storySources([
    storyItem(
      {
        source: 'reddit',
        kind: 'social',
        title: 'The view from St. Petersburg tonight',
        url: 'https://www.reddit.com/r/pics/comments/1g02x7k/',
        domain: 'reddit.com',
        links: [
          {
            title: 'The view from St. Petersburg tonight',
            url: `${AP}?utm_source=reddit`,
            domain: 'apnews.com',
          },
        ],
      },
      30,
    ),
    storyItem(
      {
        source: 'gdelt',
        kind: 'news',
        title: 'Milton makes landfall near Siesta Key',
        url: 'https://www.tampabay.com/hurricane/2024/10/09/milton-landfall/',
        domain: 'tampabay.com',
        links: [],
      },
      20,
    ),
    storyItem(
      {
        source: 'feed',
        kind: 'news',
        title: 'Hurricane Milton makes landfall in Florida',
        url: AP,
        domain: 'apnews.com',
        links: [],
      },
      10,
    ),
    storyItem(
      {
        source: 'feed',
        kind: 'news',
        title: 'Hurricane Milton makes landfall',
        url: 'https://www.msn.com/en-us/weather/hurricane-milton/ar-AA1',
        domain: 'msn.com',
        links: [],
      },
      40,
    ),
  ]);
  assert.deepEqual(
    sources.map((s) => [s.domain, s.title]),
    [
      ['apnews.com', 'Hurricane Milton makes landfall in Florida'],
      ['tampabay.com', 'Milton makes landfall near Siesta Key'],
      ['msn.com', 'Hurricane Milton makes landfall'],
      ['reddit.com', 'The view from St. Petersburg tonight'],
    ],
  );
});
