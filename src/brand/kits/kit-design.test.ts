import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AutoValues, StoredLogo } from './brand-kit.ts';
import { autoFields, designKit, effectiveProfile, lockedFields, type KitParts } from './kit-design.ts';

const site: AutoValues = {
  name: 'Northwind',
  primary_color: '#0B5FFF',
  accent_color: null,
  font_family: 'Montserrat',
  profile: { industry: 'logistics', offer: 'Freight in two days', topic_pool: ['shipping'] },
};

const logo = (colors: string[]): StoredLogo => ({
  key: 'brand-logos/x.png',
  source_url: 'https://northwind.example/logo.png',
  colors,
  measurements: {
    width: 200,
    height: 80,
    source_format: 'png',
    background: 'white_removed',
    trimmed: true,
    aspect_ratio: 2.5,
    aspect_class: 'wordmark',
    luminance: 'dark',
    mean_luma: 60,
    monochrome: false,
    normalized_at: '2026-01-01T00:00:00.000Z',
  },
});

test('what the caller set wins field by field; the crawl fills the rest', () => {
  const parts: KitParts = {
    brand_id: 'northwind',
    fields: { accent_color: '#FF6600', profile: { offer: 'Next-day freight' } },
    auto: site,
    caller_logo: null,
    site_logo: logo(['#0B5FFF', '#22AA44']),
  };
  const design = designKit(parts);
  assert.equal(design.colors.primary, '#0B5FFF');
  assert.equal(design.colors.accent, '#FF6600');
  // The site's colour was found, not sent.
  assert.deepEqual(design.colors.provenance, { primary: 'extracted', accent: 'provided' });
  assert.equal(design.font.family, 'Montserrat');
  assert.deepEqual(design.logo_policy.show_at, ['intro', 'outro']);
  assert.deepEqual(effectiveProfile(parts), {
    industry: 'logistics',
    offer: 'Next-day freight',
    topic_pool: ['shipping'],
  });
  assert.deepEqual(lockedFields(parts.fields), ['accent_color', 'profile.offer']);
  assert.deepEqual(autoFields(parts, design), [
    'name',
    'logo_url',
    'primary_color',
    'font_family',
    'profile.industry',
    'profile.topic_pool',
  ]);
});

test('a manual kit takes omitted colours from its logo, or defaults without one', () => {
  const withLogo = designKit({
    brand_id: 'm',
    fields: { name: 'M', logo_url: 'https://m.example/l.png' },
    auto: null,
    caller_logo: logo(['#CC0000']),
    site_logo: null,
  });
  assert.equal(withLogo.colors.primary, '#CC0000');
  assert.equal(withLogo.colors.provenance.primary, 'extracted');
  const bare = designKit({
    brand_id: 'm',
    fields: { name: 'M' },
    auto: null,
    caller_logo: null,
    site_logo: null,
  });
  assert.deepEqual(bare.colors.provenance, { primary: 'default', accent: 'default' });
  assert.deepEqual(bare.logo_policy.show_at, []);
  assert.equal(bare.font.source, 'default');
});
