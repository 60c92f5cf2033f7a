import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isNiche } from '../../media/footage/niches.ts';
import { AUDIENCE_CUES } from './audiences.ts';
import { classifyIndustry, rankIndustries } from './classify-industry.ts';
import {
  clipTypeForIndustry,
  FALLBACK_INDUSTRY_ID,
  INDUSTRIES,
  industryById,
  relatedIndustries,
} from './industries.ts';
import { isTone } from './tones.ts';

describe('industry table', () => {
  test('80+ rows with unique snake_case ids, each mapped to a real clip_type', () => {
    assert.ok(INDUSTRIES.length >= 80, `${INDUSTRIES.length} industries`);
    assert.equal(new Set(INDUSTRIES.map((i) => i.id)).size, INDUSTRIES.length);
    for (const row of INDUSTRIES) {
      assert.match(row.id, /^[a-z][a-z0-9_]*$/, row.id);
      assert.ok(isNiche(row.clipType), `${row.id}: ${row.clipType}`);
    }
    assert.ok(industryById(FALLBACK_INDUSTRY_ID));
  });

  test('every row carries keywords, 2–5 known audiences, 2–4 known tones and topic seeds', () => {
    for (const row of INDUSTRIES) {
      assert.ok(row.keywords.length >= 8, `${row.id} keywords`);
      for (const k of row.keywords) assert.equal(k, k.toLowerCase(), `${row.id}: ${k}`);
      assert.ok(row.audiences.length >= 2 && row.audiences.length <= 5, `${row.id} audiences`);
      for (const a of row.audiences) assert.ok(a in AUDIENCE_CUES, `${row.id}: ${a}`);
      assert.ok(row.tones.length >= 2 && row.tones.length <= 4, `${row.id} tones`);
      for (const t of row.tones) assert.ok(isTone(t), `${row.id}: ${t}`);
      assert.ok(row.topicSeeds.length >= 10, `${row.id} seeds`);
      assert.equal(new Set(row.topicSeeds).size, row.topicSeeds.length, `${row.id} seeds repeat`);
    }
  });

  test('clip types and neighbours', () => {
    assert.equal(clipTypeForIndustry('cybersecurity'), 'tech/cyber');
    assert.equal(clipTypeForIndustry('no-such-industry'), 'business');
    const near = relatedIndustries('accounting')
      .slice(0, 5)
      .map((i) => i.id);
    assert.ok(near.includes('tax_services'), near.join());
    assert.ok(
      near.every((id) => industryById(id)!.clipType.startsWith('finance')),
      near.join(),
    );
    assert.deepEqual(relatedIndustries('nope'), []);
  });
});

describe('classifyIndustry', () => {
  const cases: [string, string][] = [
    [
      'accounting',
      'Cloud accounting for small businesses. Automate invoicing, track expenses and receipts, reconcile your bank and close the month in minutes. Cash flow forecasting and tax-ready reports your accountant will trust.',
    ],
    [
      'yoga_pilates',
      'Vinyasa and reformer pilates classes in Brooklyn. Book your first class, join teacher training, breathwork workshops and gentle flow for beginners.',
    ],
    [
      'coffee_tea',
      'Small-batch coffee roastery. Single origin beans roasted weekly, espresso blends, pour over guides and our cafe on Main Street.',
    ],
    [
      'legal_services',
      'Smith & Partners is a law firm of trial attorneys. Personal injury, employment litigation and estate planning. Free consultation with our lawyers.',
    ],
    [
      'cybersecurity',
      'Stop ransomware before it spreads. Endpoint detection, zero trust access and round-the-clock SOC monitoring for security teams.',
    ],
    [
      'real_estate',
      'Homes for sale in Austin. Our realtors list properties, run open house weekends and help you sell your home for the best price.',
    ],
    [
      'restaurants',
      'Seasonal menu from chef Ana Ruiz. Book a table for dinner or weekend brunch; private dining for twelve.',
    ],
  ];
  for (const [expected, text] of cases) {
    test(`${expected}`, () => {
      assert.equal(classifyIndustry(text), expected, JSON.stringify(rankIndustries(text).slice(0, 3)));
    });
  }

  test('a text that matches nothing gets the general business-services row', () => {
    assert.equal(classifyIndustry('Xyzzy plugh frobozz.'), FALLBACK_INDUSTRY_ID);
    assert.equal(classifyIndustry(''), FALLBACK_INDUSTRY_ID);
  });

  test('deterministic, and a word repeated many times does not swamp specific phrases', () => {
    const text = `${'team '.repeat(50)} our bookkeeping software reconciles invoices and tracks cash flow`;
    assert.equal(classifyIndustry(text), 'accounting');
    assert.deepEqual(rankIndustries(text), rankIndustries(text));
  });
});
