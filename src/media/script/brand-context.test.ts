import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptBrandContext, scriptCta, scriptLanguage, styleForTone } from './brand-context.ts';

test('a kit profile becomes the writer context: trimmed, camelCase, blanks left out', () => {
  const context = scriptBrandContext({
    industry: ' Fintech ',
    icp: { roles: ['CFO', ' '], company_size: '50-500', regions: ['EU'], pains: ['slow month-end close'] },
    offer: 'Payroll that closes itself',
    tone: 'provocative',
    proof_points: [
      { claim: 'Month-end close 3x faster', source_url: 'https://acme.example/case' },
      { claim: '  ' },
    ],
    banned_topics: ['layoffs'],
    cta: { text: ' Book a demo at acme.example ', url: 'https://acme.example/demo' },
    languages: ['de', 'en'],
    topic_pool: ['payroll compliance'],
  });
  assert.deepEqual(context, {
    offer: 'Payroll that closes itself',
    industry: 'Fintech',
    icp: { roles: ['CFO'], pains: ['slow month-end close'], companySize: '50-500', regions: ['EU'] },
    tone: 'provocative',
    proofPoints: [{ claim: 'Month-end close 3x faster', sourceUrl: 'https://acme.example/case' }],
    bannedTopics: ['layoffs'],
    cta: { text: 'Book a demo at acme.example', url: 'https://acme.example/demo' },
    languages: ['de', 'en'],
    topicPool: ['payroll compliance'],
  });
  // A kit without a profile is still a kit: no proof points, so no figures.
  assert.deepEqual(scriptBrandContext(null).proofPoints, []);
});

test("the request's language wins; else the kit's first language", () => {
  const context = scriptBrandContext({ languages: ['de', 'en'] });
  assert.equal(scriptLanguage('fr', context), 'fr');
  assert.equal(scriptLanguage(undefined, context), 'de');
  assert.equal(scriptLanguage(undefined, scriptBrandContext({})), undefined);
  assert.equal(scriptLanguage(undefined, undefined), undefined);
});

test("the request's cta wins over the kit's", () => {
  const context = scriptBrandContext({ cta: { text: 'Book a demo.' } });
  assert.equal(scriptCta('Follow for more.', context), 'Follow for more.');
  assert.equal(scriptCta(undefined, context), 'Book a demo.');
  assert.equal(scriptCta('  ', context), 'Book a demo.');
  assert.equal(scriptCta(undefined, scriptBrandContext({})), undefined);
});

test('each kit tone maps to a writer style', () => {
  assert.deepEqual(
    (['authoritative', 'friendly', 'provocative', 'technical', 'playful'] as const).map(styleForTone),
    ['professional', 'calm', 'energetic', 'educational', 'entertaining'],
  );
  assert.equal(styleForTone(undefined), undefined);
});
