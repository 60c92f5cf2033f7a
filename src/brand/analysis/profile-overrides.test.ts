import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrandProfile } from '../profile/brand-profile.ts';
import { applyPatch, overriddenPaths, profilePatchSchema, withOverrides } from './profile-overrides.ts';

const analysed: BrandProfile = {
  name: 'Northwind Ledger',
  url: 'https://northwind.example/',
  tagline: 'Bookkeeping that closes itself',
  industry: 'accounting',
  audience: ['small business owners', 'finance teams'],
  tone: ['trustworthy', 'friendly'],
  voice: { recommendation: 'espeak:en-us:female-1', alternatives: ['espeak:en-us:male-1'] },
  topic_pool: [],
  colors: { primary: '#0B6E4F', secondary: '#14213D', accent: '#F4A259', background: '#FBFAF5' },
  fonts: { headline: 'Space Grotesk', body: 'Inter' },
  video_styles: ['professional'],
  anti_styles: ['energetic'],
  logo_url: null,
};

void test('a patch sets overrides by path; objects field by field; null clears one field or a whole group', () => {
  const first = applyPatch({}, { tone: ['calm', 'warm'], colors: { primary: '#123456', accent: '#ABCDEF' } });
  assert.deepEqual(first, {
    tone: ['calm', 'warm'],
    'colors.primary': '#123456',
    'colors.accent': '#ABCDEF',
  });
  assert.deepEqual(applyPatch(first, { colors: { accent: null } }), {
    tone: ['calm', 'warm'],
    'colors.primary': '#123456',
  });
  assert.deepEqual(applyPatch(first, { colors: null, tone: null }), {});
  // Fields not named are left alone.
  assert.deepEqual(applyPatch(first, { name: 'Northwind' }), { ...first, name: 'Northwind' });
});

void test('overrides are laid over the analysed profile without touching it', () => {
  const overrides = applyPatch({}, { tone: ['calm', 'warm'], colors: { primary: '#123456' } });
  const shown = withOverrides(analysed, overrides);
  assert.deepEqual(shown.tone, ['calm', 'warm']);
  assert.deepEqual(shown.colors, { ...analysed.colors, primary: '#123456' });
  assert.deepEqual(shown.fonts, analysed.fonts);
  assert.deepEqual(analysed.tone, ['trustworthy', 'friendly']);
  assert.equal(analysed.colors.primary, '#0B6E4F');
});

void test('overridden paths are listed in profile order', () => {
  assert.deepEqual(
    overriddenPaths({ 'colors.primary': '#123456', tone: [], name: 'x', 'voice.alternatives': [] }),
    ['name', 'tone', 'voice.alternatives', 'colors.primary'],
  );
});

void test('the patch schema refuses unknown fields, unknown group fields and an empty body', () => {
  assert.equal(profilePatchSchema.safeParse({}).success, false);
  assert.equal(profilePatchSchema.safeParse({ mood: 'happy' }).success, false);
  assert.equal(profilePatchSchema.safeParse({ colors: { text: '#000000' } }).success, false);
  assert.equal(profilePatchSchema.safeParse({ colors: { primary: null }, tone: null }).success, true);
});
