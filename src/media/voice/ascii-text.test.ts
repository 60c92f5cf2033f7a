import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toAsciiSpeech } from './ascii-text.ts';

void test('text for flite and festival is folded to plain ASCII, keeping what it says', () => {
  const cases: [string, string][] = [
    ['Don’t say “never”.', `Don't say "never".`],
    ['Café, naïve, Zürich, São Paulo.', 'Cafe, naive, Zurich, Sao Paulo.'],
    ['Straße and Ærø', 'Strasse and Aero'],
    ['Fast — and cheap.', 'Fast, and cheap.'],
    ['Wait…', 'Wait...'],
    ['Price: 5 €', 'Price: 5  '],
    ['Plain text, 20% off $5.', 'Plain text, 20% off $5.'],
  ];
  for (const [input, expected] of cases) assert.equal(toAsciiSpeech(input), expected, input);
});
