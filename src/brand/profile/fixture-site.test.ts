// The profile of the brand fixture site (test/fixtures/brand-site, "Northwind Ledger"), read from disk
// into the six pages a correct crawl keeps (its README), compared with what the site declares.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { differenceCiede2000 } from 'culori';
import { BRAND_SITE_DECLARED } from '../../../test/support/brand-site-server.ts';
import { normalizeLogo } from '../logo/normalize-logo.ts';
import type { PageRole } from '../crawl/site-crawl.ts';
import type { BrandColors } from './brand-profile.ts';
import { crawlOfPages } from './crawl-of-pages.ts';
import { analyzeProfile } from './extract-profile.ts';
import { logoCandidates } from './logo-candidates.ts';

const ROOT = new URL('../../../test/fixtures/brand-site/site/', import.meta.url);
const ORIGIN = 'http://127.0.0.1:40123';
const fill = (text: string): string =>
  text.replaceAll('{{origin}}', ORIGIN).replaceAll('{{offsite}}', 'http://localhost:40123');
const read = (file: string): string => fill(readFileSync(new URL(file, ROOT), 'utf8'));
const page = (file: string, path: string, role: PageRole) => ({
  url: `${ORIGIN}${path}`,
  html: read(file),
  role,
});

const crawl = crawlOfPages(
  [
    page('index.html', '/', 'home'),
    page('company/about.html', '/company/about', 'about'),
    page('pricing.html', '/pricing', 'pricing'),
    page('customers.html', '/customers', 'customers'),
    page('blog/index.html', '/blog/', 'blog'),
    page('blog/closing-the-books-in-five-days.html', '/blog/closing-the-books-in-five-days', 'blog_post'),
  ],
  [{ url: `${ORIGIN}/assets/site.css`, css: read('assets/site.css') }],
);

const deltaE = differenceCiede2000();

function assertColorsMatchDeclared(colors: BrandColors): void {
  for (const role of ['primary', 'secondary', 'accent', 'background'] as const) {
    const declared = BRAND_SITE_DECLARED.colors[role];
    const found = colors[role];
    const d = deltaE(found, declared);
    assert.ok(d <= 5, `${role}: found ${found}, declared ${declared}, ΔE2000 ${d.toFixed(2)}`);
  }
}

describe('profile of the brand fixture site', () => {
  test('colours from the CSS alone are within ΔE2000 5 of the declared brand colours', async () => {
    const { profile } = await analyzeProfile(crawl, { logoColors: [], logoUrl: null });
    assertColorsMatchDeclared(profile.colors);
  });

  test("with the normalized logo's own colours the palette still matches; everything else is in range", async () => {
    const logo = await normalizeLogo(readFileSync(new URL('assets/northwind-logo.png', ROOT)), {
      contentType: 'image/png',
    });
    const { profile, report } = await analyzeProfile(crawl, { logoColors: logo.colors, logoUrl: null });
    assertColorsMatchDeclared(profile.colors);

    assert.equal(profile.name, BRAND_SITE_DECLARED.name);
    assert.equal(profile.tagline, 'Bookkeeping that closes itself');
    assert.equal(profile.url, `${ORIGIN}/`);
    assert.deepEqual(profile.fonts, {
      headline: BRAND_SITE_DECLARED.fonts.heading,
      body: BRAND_SITE_DECLARED.fonts.body,
    });
    assert.equal(report.fonts.headline.source, 'google');
    assert.deepEqual(report.fonts.googleFontLinks, ['Inter', BRAND_SITE_DECLARED.fonts.quote]);
    assert.deepEqual(report.fonts.fontFaces, ['Space Grotesk']);

    assert.equal(profile.industry, 'accounting');
    assert.ok(profile.audience.length >= 2 && profile.audience.length <= 5, profile.audience.join());
    assert.ok(profile.audience.includes('small business owners'), profile.audience.join());
    assert.ok(profile.tone.length >= 2 && profile.tone.length <= 4, profile.tone.join());
    assert.ok(
      profile.topic_pool.length >= 20 && profile.topic_pool.length <= 40,
      `${profile.topic_pool.length}`,
    );
    assert.ok(report.topicsFromSite >= 20, `${report.topicsFromSite} topics from the site`);
    assert.ok(profile.topic_pool.includes('Cash flow forecasting for small teams'));
    const keys = profile.topic_pool.map((t) => t.toLowerCase());
    assert.equal(new Set(keys).size, keys.length);
    assert.match(profile.voice.recommendation, /^(flite|festival):/);
  });

  test('logo candidates: the header PNG, the touch icon, the SVG icon, the social card last', () => {
    assert.deepEqual(
      logoCandidates(crawl).map((c) => (c.kind === 'url' ? `${c.source} ${c.url}` : c.source)),
      [
        `header_img ${ORIGIN}/assets/northwind-logo.png`,
        `apple_touch_icon ${ORIGIN}/assets/apple-touch-icon.png`,
        `icon ${ORIGIN}/assets/northwind-logo.svg`,
        `og_image ${ORIGIN}/assets/og-card.webp`,
      ],
    );
  });
});
