import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assColor, assInlineColor, isHexColor } from './ass-color.ts';

describe('assColor', () => {
  const cases: [string, number | undefined, string][] = [
    ['#FFFFFF', undefined, '&H00FFFFFF'],
    ['#FFD60A', undefined, '&H000AD6FF'],
    ['#ff0000', undefined, '&H000000FF'],
    ['#123456', 1, '&H00563412'],
    ['#000000', 0.5, '&H80000000'],
    ['#000000', 0, '&HFF000000'],
    ['#000000', 2, '&H00000000'],
  ];
  for (const [hex, opacity, expected] of cases) {
    test(`${hex} @ ${opacity}`, () => assert.equal(assColor(hex, opacity), expected));
  }
  for (const bad of ['FFFFFF', '#FFF', '#GGHHII', '']) {
    test(`rejects ${JSON.stringify(bad)}`, () => assert.throws(() => assColor(bad), RangeError));
  }
});

describe('assInlineColor', () => {
  test('BGR order with trailing &', () => assert.equal(assInlineColor('#FFD60A'), '&H0AD6FF&'));
});

describe('isHexColor', () => {
  const cases: [string, boolean][] = [
    ['#A1b2C3', true],
    ['#A1b2C', false],
    ['A1b2C3', false],
    ['#A1b2C3D4', false],
  ];
  for (const [value, expected] of cases) {
    test(value, () => assert.equal(isHexColor(value), expected));
  }
});
