import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kitFont } from './kit-font.ts';

test('a Google Fonts family is matched whatever its case, with a stylesheet of the weights it has', () => {
  assert.deepEqual(kitFont('open sans'), {
    family: 'Open Sans',
    source: 'google',
    css_url: 'https://fonts.googleapis.com/css2?family=Open+Sans:wght@400;700&display=swap',
  });
  // Bebas Neue has a regular face only.
  assert.equal(
    kitFont('Bebas Neue').css_url,
    'https://fonts.googleapis.com/css2?family=Bebas+Neue:wght@400&display=swap',
  );
});

test('no font, or one that is not a web font, gives the safe default of its kind', () => {
  for (const requested of [null, undefined, 'Helvetica Neue', 'Corporate Sans Pro']) {
    const font = kitFont(requested);
    assert.equal(font.source, 'default');
    assert.equal(font.family, 'Inter');
    assert.match(font.css_url, /^https:\/\/fonts\.googleapis\.com\/css2\?family=Inter:wght@400;700/);
  }
  assert.equal(kitFont('Times New Roman').family, 'Playfair Display');
});
