import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presenterSchema, resolvePresenterRequest } from './presenter-request.ts';
import { presenterVariants, scriptSimilarity } from './variations.ts';

describe('presenter variations', () => {
  it('splits a request into count variants, each with its own style, purpose and presenter as asked', () => {
    const request = resolvePresenterRequest(
      presenterSchema.parse({
        avatar_id: 'avatar_a',
        format: 'presenter_broll',
        topic: 'sleep',
        variations: {
          count: 3,
          vary: ['angle', 'content_type', 'presenter'],
          presenters: ['avatar_a', 'avatar_b'],
        },
      }),
    );
    const variants = presenterVariants(request)!;
    assert.equal(variants.length, 3);
    assert.deepEqual(
      variants.map((v) => v.variant?.index),
      [0, 1, 2],
    );
    assert.equal(new Set(variants.map((v) => v.content_style)).size, 3);
    assert.equal(new Set(variants.map((v) => v.content_purpose)).size, 3);
    assert.equal(variants[0]!.content_purpose, 'education');
    assert.deepEqual(
      variants.map((v) => v.avatar_id),
      ['avatar_a', 'avatar_b', 'avatar_a'],
    );
  });

  it('leaves a request without variations whole', () => {
    const request = resolvePresenterRequest(presenterSchema.parse({ avatar_id: 'avatar_a', script: 'Hi.' }));
    assert.equal(presenterVariants(request), undefined);
  });

  it('scores the same script 1, a reworded one in between, an unrelated one near 0', () => {
    const a = 'Most people get sleep wrong. A fixed wake up time resets your body clock within a week.';
    assert.equal(scriptSimilarity(a, a), 1);
    const reworded = 'Most people get sleep wrong. Waking at the same hour every day resets your body clock.';
    const similarity = scriptSimilarity(a, reworded);
    assert.ok(similarity > 0.1 && similarity < 0.6, String(similarity));
    assert.ok(scriptSimilarity(a, 'Compound interest grows savings faster than you think it will.') < 0.05);
  });
});
