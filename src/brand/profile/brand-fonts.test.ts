import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFonts, familyStack, googleFontsFamilies } from './brand-fonts.ts';
import { crawlOfPages } from './crawl-of-pages.ts';
import { googleFont, systemFamilyKind } from './font-catalogue.ts';

function siteWith(css: string, head = '') {
  return crawlOfPages(
    [
      {
        url: 'https://acme.test/',
        html: `<html><head>${head}</head><body><h1>Title</h1><p>Body text here.</p></body></html>`,
      },
    ],
    [{ url: 'https://acme.test/site.css', css }],
  );
}

describe('font catalogue', () => {
  test('Google fonts are found in any case, with build suffixes; system and proprietary fonts are not', () => {
    assert.equal(googleFont('open sans')?.family, 'Open Sans');
    assert.equal(googleFont('Inter var')?.family, 'Inter');
    assert.equal(googleFont('Playfair Display')?.category, 'serif');
    assert.equal(googleFont('Helvetica Neue'), undefined);
    assert.equal(googleFont('Circular Std'), undefined);
    assert.equal(systemFamilyKind('-apple-system'), 'sans-serif');
    assert.equal(systemFamilyKind('Georgia'), 'serif');
    assert.equal(systemFamilyKind('Inter'), undefined);
  });
});

describe('font declarations', () => {
  test('Google Fonts URLs of both API versions, read as URLs', () => {
    assert.deepEqual(
      googleFontsFamilies(
        'https://fonts.googleapis.com/css2?family=Inter:wght@400;600&family=Playfair+Display:ital@1&display=swap',
      ),
      ['Inter', 'Playfair Display'],
    );
    assert.deepEqual(
      googleFontsFamilies('https://fonts.googleapis.com/css?family=Roboto:400,700|Open+Sans'),
      ['Roboto', 'Open Sans'],
    );
    assert.deepEqual(googleFontsFamilies('https://example.com/css2?family=Inter'), []);
  });

  test('family stacks from font-family and from the font shorthand', () => {
    assert.deepEqual(familyStack(`"Space Grotesk", system-ui, sans-serif`), [
      'Space Grotesk',
      'system-ui',
      'sans-serif',
    ]);
    assert.deepEqual(familyStack('Open Sans, Arial'), ['Open Sans', 'Arial']);
    assert.deepEqual(familyStack(`italic 700 2rem/1.2 "Playfair Display", serif`, true), [
      'Playfair Display',
      'serif',
    ]);
    assert.deepEqual(familyStack('bold 16px Lato', true), ['Lato']);
    assert.deepEqual(familyStack('inherit'), []);
  });
});

describe('extractFonts', () => {
  test('heading and body families from the CSS, resolved through var()', () => {
    const report = extractFonts(
      siteWith(`:root{--font-display:"DM Serif Display", Georgia, serif}
        body{font-family:"Work Sans", -apple-system, sans-serif}
        h1, h2, h3{font:600 2.5rem/1.1 var(--font-display)}`),
    );
    assert.deepEqual(report.headline, {
      family: 'DM Serif Display',
      declared: 'DM Serif Display',
      source: 'google',
    });
    assert.deepEqual(report.body, { family: 'Work Sans', declared: 'Work Sans', source: 'google' });
  });

  test('a system stack gets the safe sans default; a system serif stack the serif defaults', () => {
    const sans = extractFonts(
      siteWith(`body{font-family:-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif}`),
    );
    assert.deepEqual(sans.body, { family: 'Inter', declared: '-apple-system', source: 'default' });
    assert.equal(sans.headline.family, 'Inter');
    const serif = extractFonts(
      siteWith(`body{font-family:Georgia, "Times New Roman", serif}h1{font-family:Georgia,serif}`),
    );
    assert.deepEqual(serif.body, { family: 'Merriweather', declared: 'Georgia', source: 'default' });
    assert.deepEqual(serif.headline, { family: 'Playfair Display', declared: 'Georgia', source: 'default' });
  });

  test('a proprietary face gives way to the Google font the site lists as its own fallback, else to the default', () => {
    const withFallback = extractFonts(
      siteWith(
        `@font-face{font-family:"Acme Grotesk";src:url(a.woff2)}body{font-family:"Acme Grotesk", "Manrope", sans-serif}`,
      ),
    );
    assert.deepEqual(withFallback.body, { family: 'Manrope', declared: 'Acme Grotesk', source: 'google' });
    const without = extractFonts(siteWith(`body{font-family:"Acme Grotesk", Helvetica, Arial, sans-serif}`));
    assert.deepEqual(without.body, { family: 'Inter', declared: 'Acme Grotesk', source: 'default' });
  });

  test('with no font rules, the web fonts the site loads are used: a text face for the body', () => {
    const report = extractFonts(
      siteWith(
        '',
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Abril+Fatface&family=Lato:wght@400">',
      ),
    );
    assert.deepEqual(report.googleFontLinks, ['Abril Fatface', 'Lato']);
    assert.equal(report.body.family, 'Lato');
    assert.equal(report.headline.family, 'Abril Fatface');
  });

  test('headings styled like the body, and a second web font loaded, take the second font', () => {
    const report = extractFonts(
      siteWith(
        `@import url("https://fonts.googleapis.com/css2?family=Merriweather");body{font-family:Inter,sans-serif}`,
      ),
    );
    assert.equal(report.body.family, 'Inter');
    assert.equal(report.headline.family, 'Merriweather');
  });

  test('the last body rule wins, as in the cascade; a class used on headings counts as a heading rule', () => {
    const crawl = crawlOfPages(
      [
        {
          url: 'https://acme.test/',
          html: '<html><body><h2 class="display">Hi</h2><p>x y z</p></body></html>',
        },
      ],
      [
        {
          url: 'https://acme.test/s.css',
          css: `body{font-family:system-ui}body{font-family:"Nunito",sans-serif}.display{font-family:"Oswald"}`,
        },
      ],
    );
    const report = extractFonts(crawl);
    assert.equal(report.body.family, 'Nunito');
    assert.equal(report.headline.family, 'Oswald');
  });
});
