import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../platform/errors.ts';
import { BannedTopics } from './banned-topics.ts';
import { refuseBannedBrief, scriptBrandContext } from './brand-context.ts';

function finds(topic: string, text: string): string | undefined {
  return new BannedTopics([topic]).find(text)?.text;
}

test('a banned topic is found as a whole word or phrase, in any case, singular or plural', () => {
  assert.equal(finds('layoff', 'How we handled the Layoffs last spring'), 'Layoffs');
  assert.equal(finds('layoffs', "a layoff's cost"), 'layoff');
  assert.equal(finds('policy', 'Three pricing policies compared'), 'policies');
  assert.equal(finds('child', 'apps for children'), 'children');
  assert.equal(finds('CRYPTO', 'why crypto is back'), 'crypto');
  assert.equal(finds('crypto currency', 'a Crypto-Currencies explainer'), 'Crypto-Currencies');
  assert.equal(finds('M&A', 'what M&A means for staff'), 'M&A');
});

test('a banned topic is not found inside other words or in a different word', () => {
  assert.equal(finds('crypto', 'cryptography basics'), undefined);
  assert.equal(finds('news', 'what is new this week'), undefined);
  assert.equal(finds('AI', 'she said the aim was fair'), undefined);
  assert.equal(finds('tax', 'taxonomy of bugs'), undefined);
  assert.equal(finds('crypto currency', 'crypto and currency'), undefined);
});

test('findAll lists every banned topic a text names, in the kit order', () => {
  const banned = new BannedTopics(['politics', 'competitor pricing', 'lawsuit']);
  assert.deepEqual(
    banned.findAll('Lawsuits and competitor pricing, explained').map((h) => h.topic),
    ['competitor pricing', 'lawsuit'],
  );
});

test('a brief naming a banned topic is refused with a 422 naming the field and the topic', () => {
  const context = scriptBrandContext({ banned_topics: ['layoffs', 'politics'] });
  assert.throws(
    () => refuseBannedBrief(context, { topic: 'remote onboarding', prompt: 'how we avoided a layoff' }),
    (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 422);
      assert.equal(err.code, 'BRAND_TOPIC_BANNED');
      assert.equal(err.retryable, false);
      assert.match(err.message, /prompt mentions "layoff", and "layoffs" is a banned topic/);
      assert.deepEqual(err.details, {
        fields: [{ field: 'prompt', message: 'mentions the banned topic "layoffs"' }],
        banned_topic: 'layoffs',
      });
      return true;
    },
  );
  assert.doesNotThrow(() =>
    refuseBannedBrief(context, { prompt: 'how we onboard new hires', topic: undefined }),
  );
  assert.doesNotThrow(() => refuseBannedBrief(undefined, { prompt: 'politics today' }));
});
