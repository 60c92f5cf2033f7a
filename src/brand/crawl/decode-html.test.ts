import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHtml } from './decode-html.ts';

const cp1252 = (text: string): Buffer =>
  Buffer.from([...text].map((ch) => ({ '€': 0x80, '–': 0x96, é: 0xe9, ü: 0xfc })[ch] ?? ch.charCodeAt(0)));

void test('the Content-Type charset wins over <meta>', () => {
  const body = Buffer.concat([Buffer.from('<meta charset="utf-8"><p>'), cp1252('Café – 5 €')]);
  const { html, charset } = decodeHtml(body, 'text/html; charset=windows-1252');
  assert.equal(charset, 'windows-1252');
  assert.match(html, /Café – 5 €/);
});

void test('<meta charset> and <meta http-equiv> are read when the header has none', () => {
  const meta = decodeHtml(
    Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), cp1252('Müller')]),
    'text/html',
  );
  assert.deepEqual([meta.charset, meta.html.endsWith('Müller')], ['windows-1252', true]);
  const pragma = decodeHtml(
    Buffer.concat([
      Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><p>'),
      cp1252('é'),
    ]),
    null,
  );
  // WHATWG maps the iso-8859-1 label to windows-1252.
  assert.equal(pragma.charset, 'windows-1252');
  assert.ok(pragma.html.endsWith('é'));
});

void test('a byte order mark beats every declaration', () => {
  const body = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('<meta charset="windows-1252">ü'),
  ]);
  const { html, charset } = decodeHtml(body, 'text/html; charset=windows-1252');
  assert.equal(charset, 'UTF-8');
  assert.ok(html.endsWith('ü') && !html.startsWith('\ufeff'));
});

void test('undeclared: valid UTF-8 is UTF-8, anything else windows-1252', () => {
  assert.deepEqual(decodeHtml(Buffer.from('<p>naïve — ok'), 'text/html'), {
    html: '<p>naïve — ok',
    charset: 'UTF-8',
  });
  assert.deepEqual(decodeHtml(cp1252('<p>Café'), null), { html: '<p>Café', charset: 'windows-1252' });
});

void test('a declared UTF-8 page with a stray byte stays UTF-8', () => {
  const body = Buffer.concat([Buffer.from('<meta charset="utf-8">—'), Buffer.from([0xff])]);
  const { html, charset } = decodeHtml(body, null);
  assert.equal(charset, 'UTF-8');
  assert.ok(html.includes('—') && html.endsWith('\ufffd'));
});
