import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  closestNiches,
  DEFAULT_NICHE,
  inferNiche,
  isNiche,
  NICHES,
  type NicheRequest,
  type Niche,
} from './niches.ts';

test('the niche list is the API clip_type list', () => {
  assert.equal(NICHES.length, 99);
  assert.equal(new Set(NICHES).size, NICHES.length);
  assert.deepEqual(NICHES.slice(0, 5), [
    'premium',
    'luxury',
    'motivational',
    'luxury_woman',
    'default/money',
  ]);
  assert.deepEqual(NICHES.slice(-3), ['events/christmas', 'events/halloween', 'events/new_years']);
  assert.ok(isNiche('Space'));
  assert.ok(!isNiche('space'));
  assert.equal(DEFAULT_NICHE, 'business');
});

describe('inferNiche', () => {
  const cases: { request: NicheRequest; niche: Niche; reason?: RegExp }[] = [
    {
      request: { industry: 'crypto', brief: 'Why bitcoin will change money' },
      niche: 'finance/crypto',
      reason: /'crypto' in industry/,
    },
    {
      request: { brief: 'Morning yoga flow for beginners' },
      niche: 'health/yoga',
      reason: /'yoga' in brief/,
    },
    { request: { industry: 'SaaS', brief: 'How we grew our product' }, niche: 'tech/startup' },
    { request: { industry: 'Software', brief: '' }, niche: 'tech/startup' },
    { request: { brief: 'Building a startup while working a day job' }, niche: 'tech/startup' },
    { request: { brief: 'Five stoic lessons from Marcus Aurelius' }, niche: 'mindset/stoic' },
    { request: { keywords: ['Bitcoin', 'Ethereum'], brief: 'weekly market notes' }, niche: 'finance/crypto' },
    { request: { industry: 'real estate', brief: 'tips for first home buyers' }, niche: 'realestate' },
    { request: { brief: 'Day trading the stock market' }, niche: 'finance/trading' },
    { request: { brief: 'Our dropshipping store on Shopify' }, niche: 'ecommerce' },
    { request: { brief: 'Top 5 things to do in Tokyo, Japan' }, niche: 'places/tokyo' },
    {
      request: { industry: 'finance/wealth', brief: 'anything' },
      niche: 'finance/wealth',
      reason: /is a niche/,
    },
    {
      request: { brief: 'A quiet story about nothing in particular' },
      niche: 'business',
      reason: /default 'business'/,
    },
    { request: { brief: '' }, niche: 'business' },
  ];
  for (const c of cases) {
    test(JSON.stringify(c.request), () => {
      const result = inferNiche(c.request);
      assert.equal(result.niche, c.niche);
      if (c.reason) assert.match(result.reason, c.reason);
    });
  }

  test('an industry outweighs a passing mention in the brief', () => {
    assert.equal(
      inferNiche({ industry: 'fitness', brief: 'how to budget your money for the gym' }).niche,
      'health/fitness',
    );
  });

  test('a phrase never spans two keywords', () => {
    const result = inferNiche({ keywords: ['remote', 'work'], brief: '' });
    assert.doesNotMatch(result.reason, /remote work/);
    assert.equal(inferNiche({ keywords: ['remote work'], brief: '' }).niche, 'business/office');
  });
});

describe('closestNiches', () => {
  test('finance/crypto: itself, its family, related families, then abstract', () => {
    assert.deepEqual(closestNiches('finance/crypto'), [
      'finance/crypto',
      'finance',
      'default/money',
      'finance/trading',
      'finance/wealth',
      'finance/banking',
      'business',
      'luxury',
      'tech/abstract',
      'tech',
      'abstract',
    ]);
  });

  const prefixes: [Niche, Niche[]][] = [
    ['tech/ai', ['tech/ai', 'tech', 'tech/abstract', 'tech/startup']],
    ['default/cars', ['default/cars', 'automotive', 'automotive/driving']],
    ['gym', ['gym', 'health', 'health/fitness']],
    ['premium', ['premium', 'luxury', 'luxury_woman', 'default/jets']],
    ['overlays/bokeh', ['overlays/bokeh', 'overlays/particles', 'overlays/light_leaks']],
    ['Space', ['Space', 'spiritual/energy']],
    ['abstract', ['abstract', 'abstract/particles', 'abstract/gradients']],
  ];
  for (const [niche, prefix] of prefixes) {
    test(`${niche} starts ${prefix.join(', ')}`, () =>
      assert.deepEqual(closestNiches(niche).slice(0, prefix.length), prefix));
  }

  test('every niche: starts with itself, ends at abstract, only valid niches, no duplicates', () => {
    for (const niche of NICHES) {
      const list = closestNiches(niche);
      assert.equal(list[0], niche);
      if (niche !== 'abstract') assert.equal(list.at(-1), 'abstract', niche);
      assert.equal(new Set(list).size, list.length, niche);
      assert.ok(list.every(isNiche), niche);
      assert.ok(list.length >= 3, niche);
    }
  });
});
