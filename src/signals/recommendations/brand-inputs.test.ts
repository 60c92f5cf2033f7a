import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrandKit } from '../../brand/kits/brand-kit.ts';
import { INDUSTRIES } from '../../brand/profile/industries.ts';
import { TONES } from '../../brand/profile/tones.ts';
import { HOOK_PLATFORMS } from '../hooks/hook-platforms.ts';
import { brandQuery } from './brand-query.ts';
import { INDUSTRY_CATEGORIES, trendCategoryOf } from './industry-categories.ts';
import { brandPlatform, PLATFORM_COLUMNS } from './recommendation-platforms.ts';
import { profileOfKit } from './signal-profile.ts';
import { hookFormatsForTones, NEUTRAL_HOOK_FORMATS, TONE_HOOK_FORMATS } from './tone-hook-formats.ts';

test('every canonical industry has a trends category (or none), and nothing else is listed', () => {
  assert.deepEqual(Object.keys(INDUSTRY_CATEGORIES).sort(), INDUSTRIES.map((i) => i.id).sort());
  assert.equal(trendCategoryOf('accounting'), 'business');
  assert.equal(trendCategoryOf('restaurants'), undefined);
  assert.equal(trendCategoryOf(undefined), undefined);
});

test('every tone has hook formats; several tones blend, the first counting most', () => {
  assert.deepEqual(Object.keys(TONE_HOOK_FORMATS).sort(), [...TONES].sort());
  assert.deepEqual(
    hookFormatsForTones(['provocative']).map((f) => f.format),
    ['contrarian', 'bold_claim', 'warning'],
  );
  // trustworthy: warning 3, how_to 2, number 1; friendly (halved): question 1.5, how_to 1, story 0.5.
  // warning and how_to tie at 3 and keep HOOK_FORMATS' order.
  assert.deepEqual(
    hookFormatsForTones(['trustworthy', 'friendly']).map((f) => [f.format, f.tone]),
    [
      ['warning', 'trustworthy'],
      ['how_to', 'trustworthy'],
      ['question', 'friendly'],
    ],
  );
  assert.deepEqual(
    hookFormatsForTones(['sarcastic']).map((f) => f.format),
    NEUTRAL_HOOK_FORMATS,
  );
});

test('every hook platform reads a trend column; a brand platform follows its category', () => {
  assert.deepEqual(Object.keys(PLATFORM_COLUMNS).sort(), [...HOOK_PLATFORMS].sort());
  assert.equal(brandPlatform('business'), 'proforum');
  assert.equal(brandPlatform('entertainment'), 'shortsite');
});

test('a kit in its own words: industry classified, ICP as audience, industry topics when it has no pool', () => {
  const kit = {
    brand_id: 'ledgerly',
    name: 'Ledgerly',
    profile: {
      industry: 'Bookkeeping and invoicing for freelancers',
      icp: { roles: ['freelance designers'], pains: ['chasing late invoices'] },
      tone: 'friendly',
      banned_topics: ['crypto'],
    },
  } as unknown as BrandKit;
  const profile = profileOfKit(kit);
  assert.equal(profile.industry?.id, 'accounting');
  assert.equal(profile.poolSource, 'industry');
  assert.deepEqual(profile.topicPool, INDUSTRIES.find((i) => i.id === 'accounting')!.topicSeeds);
  assert.deepEqual(profile.audience, ['freelance designers', 'chasing late invoices']);
  assert.deepEqual(profile.tone, ['friendly']);
  assert.deepEqual(profile.bannedTopics, ['crypto']);
  const query = brandQuery(profile);
  assert.deepEqual([...query.get('invoic')!.fields].sort(), ['audience', 'industry', 'topic_pool']);
  assert.equal(query.get('invoic')!.word, 'invoicing');

  const bare = profileOfKit({ brand_id: 'x', name: 'X', profile: {} } as unknown as BrandKit);
  assert.equal(bare.industry, undefined);
  assert.deepEqual(bare.topicPool, []);
  assert.equal(brandQuery(bare).size, 0);
});
