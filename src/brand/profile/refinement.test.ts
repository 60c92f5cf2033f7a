import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeRefinement } from './refinement.ts';

const local = {
  industry: 'accounting',
  audience: ['small business owners', 'finance teams'],
  tone: ['trustworthy', 'friendly'] as const,
};

describe('mergeRefinement', () => {
  test('a valid answer replaces the local result', () => {
    const merged = mergeRefinement(
      {
        industry: 'tax_services',
        audience: ['freelancers', 'sole traders', 'bookkeepers'],
        tone: ['Authoritative', 'calm', 'technical'],
        topic_pool: ['  Quarterly tax estimates. ', 'Quarterly tax estimates', 'VAT returns'],
      },
      { ...local, tone: [...local.tone] },
    );
    assert.deepEqual(merged, {
      industry: 'tax_services',
      audience: ['freelancers', 'sole traders', 'bookkeepers'],
      tone: ['authoritative', 'calm', 'technical'],
      topics: ['Quarterly tax estimates', 'VAT returns'],
    });
  });

  test('an industry outside the table, unknown tones and too few items are made up from the local result', () => {
    const merged = mergeRefinement(
      { industry: 'fintech-ish', audience: ['owners', 'OWNERS'], tone: ['zesty', 'calm'], topic_pool: [] },
      { ...local, tone: [...local.tone] },
    );
    assert.equal(merged.industry, 'accounting');
    assert.deepEqual(merged.audience, ['owners', 'small business owners']);
    assert.deepEqual(merged.tone, ['calm', 'trustworthy']);
  });

  test('too many items are cut to the range', () => {
    const merged = mergeRefinement(
      {
        industry: 'accounting',
        audience: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'],
        tone: ['calm', 'warm', 'caring', 'friendly', 'playful'],
        topic_pool: [],
      },
      { ...local, tone: [...local.tone] },
    );
    assert.equal(merged.audience.length, 5);
    assert.deepEqual(merged.tone, ['calm', 'warm', 'caring', 'friendly']);
  });
});
