import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JobFailure } from '../../platform/errors.ts';
import { ScriptPolicyError } from '../../media/script/script-rules.ts';
import type { KitSnapshot } from './brand-kit-selection.ts';
import { kitBranding, videoLanguage } from './kit-branding.ts';
import { writeScript } from './stock-engine.ts';

const kit: KitSnapshot = {
  brand_id: 'northwind',
  revision: 3,
  source: 'reused',
  stale: false,
  name: 'Northwind Ledger',
  website_url: 'https://northwind.example.com/',
  logo: true,
  primary_color: '#0B6E4F',
  accent_color: '#F4A259',
  font_family: 'Space Grotesk',
  profile: {
    industry: 'accounting',
    tone: 'friendly',
    languages: ['de', 'en'],
    cta: { text: 'Try Northwind free.' },
    proof_points: [{ claim: 'Books close 5 days sooner' }],
  },
};

test('a kit dresses the video: its name, site, colours, industry, logo file, font and profile', () => {
  const branding = kitBranding(kit, undefined, '/work/job_1');
  assert.deepEqual(branding.brand, {
    name: 'Northwind Ledger',
    website_url: 'https://northwind.example.com/',
    primary_color: '#0B6E4F',
    accent_color: '#F4A259',
    industry: 'accounting',
  });
  assert.equal(branding.logoPath, '/work/job_1/brand-kit-logo.png');
  assert.equal(branding.captionFont, 'Space Grotesk');
  assert.equal(branding.brandContext?.tone, 'friendly');
  assert.equal(branding.brandContext?.cta?.text, 'Try Northwind free.');
  assert.deepEqual(branding.source, { source: 'kit', brand_id: 'northwind', revision: 3 });
});

test('a per-video brand sent with a kit overrides it field by field', () => {
  const branding = kitBranding(
    kit,
    { accent_color: '#FF0000', logo_url: 'https://cdn.acme.com/logo.png', tone: 'bold', industry: 'retail' },
    '/work/job_1',
  );
  assert.equal(branding.brand?.accent_color, '#FF0000');
  assert.equal(branding.brand?.primary_color, '#0B6E4F');
  assert.equal(branding.brand?.name, 'Northwind Ledger');
  assert.equal(branding.brand?.logo_url, 'https://cdn.acme.com/logo.png');
  assert.equal(branding.logoPath, undefined, 'the sent logo_url is drawn instead of the kit logo');
  assert.equal(branding.brandContext?.tone, undefined, "the sent tone steers the writer, not the kit's");
  assert.equal(branding.brandContext?.industry, 'retail');
  assert.equal(branding.brandContext?.cta?.text, 'Try Northwind free.');
});

test('a kit without a logo leaves the logo to brand.logo_url', () => {
  assert.equal(kitBranding({ ...kit, logo: false }, undefined, '/w').logoPath, undefined);
});

test("the language is the request's, else the kit's first, else English", () => {
  assert.equal(videoLanguage('fr', kit), 'fr');
  assert.equal(videoLanguage(undefined, kit), 'de');
  assert.equal(videoLanguage(undefined, { ...kit, profile: {} }), 'en');
  assert.equal(videoLanguage(undefined, undefined), 'en');
  assert.equal(
    videoLanguage(undefined, { source: 'would_build', website_url: 'https://a.com/', domain: 'a.com' }),
    'en',
  );
});

test('a brief whose every sentence breaks the kit rules fails the job without a retry', async () => {
  const failing = {
    write: () =>
      Promise.reject(
        new ScriptPolicyError([
          { sentence: 'We grew 300%.', breaks: [{ rule: 'figure', text: '300%', kind: 'percent' }] },
        ]),
      ),
  };
  await assert.rejects(writeScript(failing, { prompt: 'growth' }), (error: unknown) => {
    assert.ok(error instanceof JobFailure);
    assert.equal(error.jobError.code, 'BRAND_RULES_UNSATISFIABLE');
    assert.equal(error.jobError.category, 'input');
    assert.equal(error.jobError.retryable, false);
    assert.match(error.jobError.message, /300%/);
    return true;
  });
  const broken = { write: () => Promise.reject(new Error('disk full')) };
  await assert.rejects(writeScript(broken, { prompt: 'growth' }), /disk full/);
});
