import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlOfPages } from './crawl-of-pages.ts';
import { resolveVars, siteCss } from './site-css.ts';

describe('siteCss', () => {
  test('reads linked sheets, <style> blocks and style attributes, once each', () => {
    const html = `<html><head><style>.hero{color:#123456}</style></head><body>
      <header><a class="btn primary" style="background-color: rgb(10 20 30)">Go</a></header>
      <style>.hero{color:#123456}</style></body></html>`;
    const css = siteCss(
      crawlOfPages(
        [{ url: 'https://a.test/', html }],
        [{ url: 'https://a.test/s.css', css: 'body{margin:0}' }],
      ),
    );
    assert.deepEqual(
      css.declarations.map((d) => `${d.origin} ${d.selector} ${d.property}: ${d.value}`),
      [
        'stylesheet body margin: 0',
        'style_block .hero color: #123456',
        'style_attribute header a.btn.primary background-color: rgb(10 20 30)',
      ],
    );
  });

  test('collects custom properties (global ones first), @font-face families and @import URLs', () => {
    const sheet = `@import url("https://fonts.googleapis.com/css2?family=Lato");
      @import 'print.css' print;
      .card{--brand:#111}
      :root{--brand:#0b6e4f;--gap:8px}
      @font-face{font-family:"Acme Sans";src:url(a.woff2)}
      @font-face{font-family:Lato;src:url(b.woff2)}`;
    const css = siteCss(
      crawlOfPages(
        [{ url: 'https://a.test/', html: '<p>x</p>' }],
        [{ url: 'https://a.test/s.css', css: sheet }],
      ),
    );
    assert.deepEqual(css.customProperties.get('--brand'), ['#0b6e4f', '#111']);
    assert.deepEqual(css.fontFaces, ['Acme Sans', 'Lato']);
    assert.deepEqual(css.imports, ['https://fonts.googleapis.com/css2?family=Lato', 'print.css']);
  });

  test('print styles, a dark colour scheme and keyframes are left out; other media queries stay', () => {
    const sheet = `@media print{a{color:#000}}
      @media (prefers-color-scheme: dark){body{background:#000}}
      @keyframes pulse{from{color:#f00}to{color:#0f0}}
      @media (min-width: 600px){.btn{background:#0b6e4f}}`;
    const css = siteCss(
      crawlOfPages(
        [{ url: 'https://a.test/', html: '<p>x</p>' }],
        [{ url: 'https://a.test/s.css', css: sheet }],
      ),
    );
    assert.deepEqual(
      css.declarations.map((d) => `${d.selector} ${d.property}: ${d.value}`),
      ['.btn background: #0b6e4f'],
    );
  });

  test('broken CSS is read as far as it goes', () => {
    const css = siteCss(
      crawlOfPages(
        [{ url: 'https://a.test/', html: '<p>x</p>' }],
        [{ url: 'https://a.test/s.css', css: 'a{color:red;;; b{ color: }} .x{color:#abc}' }],
      ),
    );
    assert.ok(css.declarations.some((d) => d.selector === '.x' && d.value === '#abc'));
  });
});

describe('resolveVars', () => {
  const vars = new Map<string, string[]>([
    ['--green', ['#0b6e4f']],
    ['--primary', ['var(--green)']],
    ['--rgb', ['11 110 79']],
    ['--loop-a', ['var(--loop-b)']],
    ['--loop-b', ['var(--loop-a)']],
  ]);

  test('follows chains of references and reports the names it went through', () => {
    const used: string[] = [];
    assert.equal(resolveVars('1px solid var(--primary)', vars, used), '1px solid #0b6e4f');
    assert.deepEqual(used, ['--primary', '--green']);
  });

  test('substitutes inside functions and uses the fallback for unknown names', () => {
    assert.equal(resolveVars('rgb(var(--rgb))', vars), 'rgb(11 110 79)');
    assert.equal(resolveVars('var(--missing, #f4a259)', vars), '#f4a259');
    assert.equal(resolveVars('var(--missing, var(--green))', vars), '#0b6e4f');
  });

  test('a cycle resolves to nothing (or its fallback) instead of looping', () => {
    assert.equal(resolveVars('var(--loop-a)', vars), '');
    assert.equal(resolveVars('var(--loop-a, red)', vars), 'red');
  });

  test('the same property used twice in one value resolves both times', () => {
    assert.equal(resolveVars('var(--green) var(--green)', vars), '#0b6e4f #0b6e4f');
  });
});
