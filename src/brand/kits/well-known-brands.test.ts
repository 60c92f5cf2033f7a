import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wellKnownBrand, wellKnownCounts } from './well-known-brands.ts';

test('the list holds thousands of brands and the domains their own logo sources name', () => {
  const counts = wellKnownCounts();
  assert.ok(counts.brands > 3000, `brands: ${counts.brands}`);
  assert.ok(counts.domains > 1500, `domains: ${counts.domains}`);
});

test('a brand is found by its listed domain, with its official colour', () => {
  assert.deepEqual(wellKnownBrand('spotify.com'), {
    title: 'Spotify',
    slug: 'spotify',
    officialColor: '#1ED760',
  });
  assert.equal(wellKnownBrand('GitHub.com')?.title, 'GitHub');
});

test('a domain named like a listed brand is well-known under any suffix', () => {
  assert.equal(wellKnownBrand('google.com')?.title, 'Google');
  assert.equal(wellKnownBrand('google.co.uk')?.title, 'Google');
  assert.equal(wellKnownBrand('coca-cola.com')?.title, 'Coca-Cola');
});

test('ordinary sites and loopback hosts are not well-known', () => {
  for (const domain of ['acme-widgets.com', 'northwind-traders.co.uk', '127.0.0.1', 'localhost'])
    assert.equal(wellKnownBrand(domain), undefined, domain);
});
