import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalUrl } from './canonical-url.ts';

test('one spelling per article', () => {
  const same = [
    'https://www.reuters.com/world/us/milton-landfall/',
    'http://reuters.com/world/us/milton-landfall',
    'https://m.reuters.com/world/us/milton-landfall?utm_source=twitter&utm_medium=social#top',
    'https://amp.reuters.com/world/us/milton-landfall/amp',
  ].map(canonicalUrl);
  assert.deepEqual(new Set(same), new Set(['reuters.com/world/us/milton-landfall']));
  assert.equal(
    canonicalUrl('https://news.ycombinator.com/item?id=41776420'),
    'news.ycombinator.com/item?id=41776420',
  );
  assert.equal(canonicalUrl('https://example.com/a?b=2&a=1&fbclid=x'), 'example.com/a?a=1&b=2');
  assert.equal(canonicalUrl('mailto:desk@example.com'), undefined);
  assert.equal(canonicalUrl('not a url'), undefined);
});
