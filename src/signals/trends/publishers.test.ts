import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publisherOf } from './publishers.ts';

test('publishers are found by domain and subdomain, one key per organisation', () => {
  assert.deepEqual(publisherOf('edition.cnn.com'), { key: 'CNN', name: 'CNN', class: 'primary' });
  assert.equal(publisherOf('www.bbc.co.uk').key, publisherOf('bbc.com').key);
  assert.equal(publisherOf('espn.com').beat, 'sports');
  assert.equal(publisherOf('uk.news.yahoo.com').class, 'aggregator');
  assert.equal(publisherOf('news.google.com').class, 'aggregator');
  assert.equal(publisherOf('google.com').class, 'other');
  assert.deepEqual(publisherOf('news.ycombinator.com'), {
    key: 'news.ycombinator.com',
    name: 'news.ycombinator.com',
    class: 'platform',
    beat: 'tech',
  });
  assert.equal(publisherOf('en.wikipedia.org').class, 'platform');
  // An unlisted site counts once, however many hosts it has.
  assert.equal(publisherOf('weather.tampabay.com').key, publisherOf('www.tampabay.com').key);
  assert.equal(publisherOf('news.example.co.uk').key, 'example.co.uk');
});
