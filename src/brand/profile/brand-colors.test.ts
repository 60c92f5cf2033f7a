import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterColors, extractColors } from './brand-colors.ts';
import { colorEvidence, hintOf } from './color-evidence.ts';
import { colorsIn, deltaE, isNearGrey, toHex } from './color-values.ts';
import { crawlOfPages } from './crawl-of-pages.ts';

const BODY = `<header class="site-header"><a href="/"><img src="/l.png" alt="Acme logo"></a>
  <nav><a href="/features">Features</a><a href="/pricing">Pricing</a></nav></header>
  <main><h1>Heading</h1><p>Text with <a href="/x">a link</a>.</p>
  <a class="button" href="/signup">Start free</a><span class="tag">New</span></main>
  <footer><p>Footer</p></footer>`;

function siteWith(css: string, head = '', body = BODY) {
  return crawlOfPages(
    [{ url: 'https://acme.test/', html: `<html><head>${head}</head><body>${body}</body></html>` }],
    [{ url: 'https://acme.test/site.css', css }],
  );
}

describe('colour values', () => {
  test('every CSS colour form normalizes to #RRGGBB', () => {
    assert.equal(toHex('#0b6e4f'), '#0B6E4F');
    assert.equal(toHex('#abc'), '#AABBCC');
    assert.equal(toHex('rgb(11, 110, 79)'), '#0B6E4F');
    assert.equal(toHex('rgb(11 110 79 / 90%)'), '#0B6E4F');
    assert.equal(toHex('hsl(120 100% 25%)'), '#008000');
    assert.equal(toHex('rebeccapurple'), '#663399');
    assert.equal(toHex('oklch(62.8% 0.2577 29.23)'), '#FF0000');
    assert.equal(toHex('rgba(0,0,0,.1)'), undefined, 'a faint shadow is not a colour of its own');
    assert.equal(toHex('transparent'), undefined);
    assert.equal(toHex('currentColor'), undefined);
  });

  test('colours are found inside shorthands and gradients, not inside URLs or names', () => {
    assert.deepEqual(colorsIn('1px solid #0b6e4f'), ['#0B6E4F']);
    assert.deepEqual(colorsIn('linear-gradient(90deg, red 0%, hsl(240 100% 50%) 100%)'), [
      '#FF0000',
      '#0000FF',
    ]);
    assert.deepEqual(colorsIn('url(/img/red.png) no-repeat tomato'), ['#FF6347']);
    assert.deepEqual(colorsIn('"Inter", sans-serif'), []);
  });

  test('near-greys include tinted whites and blacks, not brand colours', () => {
    assert.ok(isNearGrey('#F8F9FA'));
    assert.ok(isNearGrey('#1C2321'));
    assert.ok(isNearGrey('#6C757D'));
    assert.ok(!isNearGrey('#14213D'));
    assert.ok(!isNearGrey('#0B6E4F'));
  });

  test('custom property names announce roles; text and background win over "primary"', () => {
    assert.equal(hintOf('--brand'), 'primary');
    assert.equal(hintOf('--color-primary'), 'primary');
    assert.equal(hintOf('--accent-500'), 'accent');
    assert.equal(hintOf('--bs-secondary'), 'secondary');
    assert.equal(hintOf('--text-primary'), 'text');
    assert.equal(hintOf('--bg-primary'), 'background');
    assert.equal(hintOf('--spacing'), undefined);
  });
});

describe('extractColors', () => {
  test('where a colour is used outweighs how often: a button background beats many borders', () => {
    const css = `
      .button{background:#7c3aed;color:#fff}
      .card{border:1px solid #0ea5e9}.box{border-color:#0ea5e9}.panel{outline:1px solid #0ea5e9}
      body{background:#ffffff;color:#222}`;
    const body = `${BODY}<div class="card">a</div><div class="box">b</div><div class="panel">c</div>`;
    const colors = extractColors(siteWith(css, '', body));
    assert.equal(colors.primary, '#7C3AED');
    assert.equal(colors.accent, '#0EA5E9');
    assert.equal(colors.background, '#FFFFFF');
  });

  test('var() references are resolved and their names give the roles', () => {
    const css = `
      :root{--c-green:#0b6e4f;--brand:var(--c-green);--highlight:hsl(28 87% 65%);--surface:#fbfaf5;--ink:#14213d}
      body{background:var(--surface);color:#1c2321}
      h1{color:var(--ink)}
      a{color:var(--brand)}
      .tag{background:var(--highlight)}`;
    const colors = extractColors(siteWith(css));
    assert.equal(colors.primary, '#0B6E4F');
    assert.ok(deltaE(colors.accent, '#F4A259') < 2, colors.accent);
    assert.equal(colors.secondary, '#14213D');
    assert.equal(colors.background, '#FBFAF5');
  });

  test('theme-color names the primary; a rule matching nothing on the pages barely counts', () => {
    const css = `.alert-danger{background:#dc3545;color:#fff}.alert-danger-2{border-color:#dc3545}
      a{color:#2563eb}`;
    const colors = extractColors(siteWith(css, '<meta name="theme-color" content="#0b6e4f">'));
    assert.equal(colors.primary, '#0B6E4F');
    assert.equal(colors.accent, '#2563EB');
    assert.notEqual(colors.secondary, '#DC3545');
  });

  test('hover shades pool with their colour instead of becoming a second brand colour', () => {
    const css = `.button{background:#0b6e4f}.button:hover{background:#095a41}a{color:#0b6e4f}a:hover{color:#095a41}`;
    const clusters = clusterColors(colorEvidence(siteWith(css)));
    const green = clusters.filter((c) => deltaE(c.hex, '#0B6E4F') < 12);
    assert.equal(green.length, 1);
    assert.equal(green[0]!.hex, '#0B6E4F');
    const colors = extractColors(siteWith(css));
    // One brand colour only: the accent falls back to the primary, the secondary to a lighter shade of it.
    assert.equal(colors.accent, '#0B6E4F');
    assert.ok(deltaE(colors.secondary, '#095A41') > 12, colors.secondary);
  });

  test("the logo's colours weigh in: they decide between colours the CSS uses alike", () => {
    const css = `.button{background:#e11d48}.tag{background:#2563eb}`;
    const withLogo = extractColors(siteWith(css), ['#2563EB']);
    assert.equal(withLogo.primary, '#2563EB');
    const withOtherLogo = extractColors(siteWith(css), ['#E11D48']);
    assert.equal(withOtherLogo.primary, '#E11D48');
  });

  test('a grey-only site gets grey brand colours (nothing else exists); a colourful one never does', () => {
    const grey = extractColors(
      siteWith(`body{background:#fff;color:#333}.button{background:#111;color:#fff}`),
    );
    assert.equal(grey.primary, '#111111');
    assert.equal(grey.background, '#FFFFFF');
    const colourful = extractColors(siteWith(`body{color:#333}.button{background:#111}a{color:#c2410c}`));
    assert.equal(colourful.primary, '#C2410C');
  });

  test('a site with no CSS at all gets the documented defaults', () => {
    const colors = extractColors(siteWith(''));
    assert.deepEqual(colors, {
      primary: '#1F2937',
      secondary: '#4B5563',
      accent: '#2563EB',
      background: '#FFFFFF',
    });
  });

  test('dark-theme rules do not change the first view', () => {
    const css = `body{background:#fff}.dark body, [data-theme="dark"] body{background:#0b0b0b}a{color:#2563eb}`;
    assert.equal(extractColors(siteWith(css)).background, '#FFFFFF');
  });
});
