import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headline } from './headline.ts';

test('the publisher tail that feeds append is cut, a subtitle is kept', () => {
  assert.equal(
    headline('Hurricane Milton makes landfall - Reuters', 'reuters.com'),
    'Hurricane Milton makes landfall',
  );
  assert.equal(
    headline('Hurricane Milton makes landfall | BBC News', 'bbc.com'),
    'Hurricane Milton makes landfall',
  );
  assert.equal(
    headline('Milton Makes Landfall in Florida - The New York Times', 'news.google.com'),
    'Milton Makes Landfall in Florida',
  );
  assert.equal(headline('Storm makes landfall – Tampa Bay Times', 'tampabay.com'), 'Storm makes landfall');
  assert.equal(
    headline('Apple unveils iPhone 17 - thinner than ever', 'reuters.com'),
    'Apple unveils iPhone 17 - thinner than ever',
  );
  assert.equal(headline('  iphone   17 ', undefined), 'iphone 17');
});
