import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlOfPages } from './crawl-of-pages.ts';
import { largestSource, logoCandidates } from './logo-candidates.ts';

const page = (head: string, body: string): string =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

function describeCandidates(html: string, url = 'https://acme.test/'): string[] {
  return logoCandidates(crawlOfPages([{ url, html }])).map((c) =>
    c.kind === 'url' ? `${c.source} ${c.url}` : `${c.source} svg`,
  );
}

describe('logoCandidates', () => {
  test('orders header logo, apple-touch-icon, icons, og:image; URLs made absolute', () => {
    const html = page(
      `<meta property="og:image" content="/share.png">
       <link rel="icon" href="/favicon.ico">
       <link rel="icon" type="image/png" sizes="32x32" href="/icon-32.png">
       <link rel="icon" type="image/png" sizes="192x192" href="/icon-192.png">
       <link rel="apple-touch-icon" sizes="180x180" href="apple.png">`,
      `<header><a href="/"><img src="/img/acme.png" alt="Acme"></a><nav><a href="/about">About</a></nav></header>
       <main><img src="/hero.jpg" alt="Team at work"></main>`,
    );
    assert.deepEqual(describeCandidates(html, 'https://acme.test/en/'), [
      'header_img https://acme.test/img/acme.png',
      'apple_touch_icon https://acme.test/en/apple.png',
      'icon https://acme.test/icon-192.png',
      'icon https://acme.test/icon-32.png',
      'icon https://acme.test/favicon.ico',
      'og_image https://acme.test/share.png',
    ]);
  });

  test('an image called a logo wins over a header image that is not; hero pictures are never candidates', () => {
    const html = page(
      '',
      `<header><img src="/flags/en.png" alt="English"><div class="site-logo"><img src="/brand/mark.svg" alt=""></div></header>
       <section><img src="/people.jpg" alt="Our people"></section>`,
    );
    assert.deepEqual(describeCandidates(html), ['header_img https://acme.test/brand/mark.svg']);
  });

  test('takes the largest srcset entry and honours <base href>', () => {
    const html = page(
      '<base href="https://cdn.acme.test/static/">',
      `<nav><a href="https://www.acme.test/"><img class="logo" src="logo.png" srcset="logo.png 1x, logo@3x.png 3x, logo@2x.png 2x"></a></nav>`,
    );
    assert.deepEqual(describeCandidates(html), ['header_img https://cdn.acme.test/static/logo@3x.png']);
    assert.equal(largestSource('a.png', 'a-400.png 400w, a-1200.png 1200w, a-800.png 800w'), 'a-1200.png');
    assert.equal(largestSource('a.png', undefined), 'a.png');
  });

  test('an inline header SVG becomes a standalone document; icon-only SVGs and sprites are skipped', () => {
    const html = page(
      '<link rel="apple-touch-icon" href="/touch.png">',
      `<header>
         <button aria-label="Menu"><svg viewBox="0 0 10 10"><path d="M0 0h10"/></svg></button>
         <a href="/" aria-label="Acme home"><svg viewBox="0 0 100 20"><title>Acme</title><rect width="20" height="20" fill="#0b6e4f"/></svg></a>
         <a href="/" class="logo"><svg><use href="#sprite-logo"/></svg></a>
       </header>`,
    );
    const candidates = logoCandidates(crawlOfPages([{ url: 'https://acme.test/', html }]));
    assert.equal(candidates.length, 2);
    const [svg, touch] = candidates;
    assert.equal(svg?.kind, 'svg');
    if (svg?.kind === 'svg') {
      assert.match(svg.svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg.svg, /<rect[^>]*fill="#0b6e4f"/);
    }
    assert.deepEqual(touch, { kind: 'url', url: 'https://acme.test/touch.png', source: 'apple_touch_icon' });
  });

  test('looks at another page when the home page shows no logo; duplicates are dropped', () => {
    const crawl = crawlOfPages([
      { url: 'https://acme.test/', html: page('<link rel="icon" href="/logo.png">', '<main>Welcome</main>') },
      {
        url: 'https://acme.test/about',
        html: page('', '<header><a href="/"><img src="/logo.png" alt="Acme logo"></a></header>'),
      },
    ]);
    assert.deepEqual(logoCandidates(crawl), [
      { kind: 'url', url: 'https://acme.test/logo.png', source: 'header_img' },
    ]);
  });

  test('lazy-loaded images use their real source, never a data: placeholder', () => {
    const html = page(
      '',
      '<header><a href="/"><img class="logo" src="data:image/gif;base64,R0lGOD" data-src="/real-logo.webp"></a></header>',
    );
    assert.deepEqual(describeCandidates(html), ['header_img https://acme.test/real-logo.webp']);
  });
});
