import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findFigures, readDigits } from './figures.ts';

/** "text=kind:value[currency]" per figure, in order. */
function read(text: string, language = 'en'): string[] {
  return findFigures(text, { language }).map(
    (f) => `${f.text}=${f.kind}:${f.values.join('|')}${f.currency ? ` ${f.currency}` : ''}`,
  );
}

test('digits with their units: percent, multiple, money, count', () => {
  assert.deepEqual(read('We cut costs by 40% in 3 months, 3x faster, 2.5× more, 2-fold.'), [
    '40%=percent:40',
    '3=count:3',
    '3x=multiple:3',
    '2.5×=multiple:2.5',
    '2-fold=multiple:2',
  ]);
  assert.deepEqual(read('It costs $2,000, €5k, US$300, 300 USD, £40 a month and 1.5 million users.'), [
    '$2,000=money:2000 USD',
    '€5k=money:5000 EUR',
    'US$300=money:300 USD',
    '300 USD=money:300 USD',
    '£40=money:40 GBP',
    '1.5 million=count:1500000',
  ]);
  assert.deepEqual(read('99.9% uptime; 10-20% off; $5M raised.'), [
    '99.9%=percent:99.9',
    '10=count:10',
    '20%=percent:20',
    '$5M=money:5000000 USD',
  ]);
});

test('numbers in words are read by the number parser, with the unit that follows them', () => {
  assert.deepEqual(read('Teams save forty percent, grow three times faster and ten-fold.'), [
    'forty percent=percent:40',
    'three times=multiple:3',
    'ten-fold=multiple:10',
  ]);
  assert.deepEqual(read('That is two thousand dollars, twenty-five percent, and a hundred teams.'), [
    'two thousand dollars=money:2000 USD',
    'twenty-five percent=percent:25',
    'a hundred=count:100',
  ]);
  assert.deepEqual(read('Revenue doubled with zero downtime, and costs were cut in half.'), [
    'doubled=multiple:2',
    'zero=count:0',
    'half=percent:50',
  ]);
});

test('years and dates are figures (counts); ordinals, a lone "one", names and idioms are not', () => {
  assert.deepEqual(read('Founded in 2012, on March 3, we serve 1,200 teams.'), [
    '2012=count:2012',
    '3=count:3',
    '1,200=count:1200',
  ]);
  assert.deepEqual(
    read(
      'One simple idea. The first step, the 3rd step, a second look. No one knows. ' +
        'B2B, GPT-4, COVID-19, H.264, 3D, 5G and 24/7 support.',
    ),
    [],
  );
  assert.deepEqual(read('Take five minutes, and one percent more.'), [
    'five=count:5',
    'one percent=percent:1',
  ]);
});

test("the text's language fixes the decimal mark; without one both readings are kept", () => {
  assert.deepEqual(read('Es kostet 2.000 € und spart 40 % Zeit, 1,5 Stunden.', 'de'), [
    '2.000 €=money:2000 EUR',
    '40 %=percent:40',
    '1,5=count:1.5',
  ]);
  assert.deepEqual(readDigits('2.000', undefined), [2000, 2]);
  assert.deepEqual(readDigits('2,000', '.'), [2000]);
  assert.deepEqual(readDigits('1.234,5', undefined), [1234.5]);
  assert.deepEqual(readDigits('1,234,567', undefined), [1234567]);
  // Numbers in words are English; a German script is read for digits only.
  assert.deepEqual(read('Vierzig Prozent und zwei Tage.', 'de'), []);
});
